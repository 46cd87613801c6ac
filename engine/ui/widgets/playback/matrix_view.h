// matrix_view.h: one small matrix of a step, drawn as a grid of coloured cells that fill in
// (row by row) as the step runs, with the row/column that feeds the cell being computed lit,
// and the cells the narrator speaks about outlined. Also the two non-grid pictures: the token
// chips of the first step and the next-token probability bars of the last.
#pragma once
#include "board_paint.h"
#include "engine/trace/trace.h"

#include <cmath>
#include <vector>

namespace neuralpath::ui::playback {

enum class Heat {
  weights,        // values in [0, 1] (attention weights, probabilities): the heat ramp
  range,          // scores: coloured from the smallest to the largest finite value of the matrix
  signed_values,  // vectors: blue for negative, heat for positive, scaled by the largest |v|
};

struct MatrixStyle {
  const NamedMatrix* matrix = nullptr;
  Heat heat = Heat::signed_values;
  int revealed = -1;    // cells shown, row-major; -1 = all
  Cell current;         // the cell being computed (outlined)
  float partial = NAN;  // its running sum while terms are added
  int lit_row = -1, lit_col = -1;
  std::vector<Cell> spoken;                   // shown from the start, outlined, numbers always printed
  const std::vector<Cell>* masked = nullptr;  // cells the mask hides (drawn greyed)
};

struct MatrixLayout {
  float cell_w = 0, cell_h = 0;
  float label_w = 0;     // row labels (token texts) on the left
  float label_size = 0;  // their font size: smaller for short rows, down to a legible floor
  int label_every = 1;   // rows too short even for the floor: every n-th row is labelled (and the
                         // rows the narrator speaks of); a tap on the matrix shows them all
  float title_h = 0;     // the matrix name above
  float header_h = 0;    // column labels above the cells (0 = none)
  float readout_h = 0;   // spoken numbers printed below when cells are too small for text
  bool numbers = false;  // cells are wide enough to print their values
  ImVec2 size;
};

// The layout of `style.matrix` in at most `max_width` (cells shrink to fit, text goes first);
// row labels never overlap: a long sentence in a short stage gets smaller labels, then fewer;
// cells are at most `max_cell` wide (0: as wide as a printed number needs).
MatrixLayout layout_matrix(const Painter& p, const MatrixStyle& style, float max_width, float max_cell = 0);
// The width a cell needs to print its number.
float number_cell_width(const Painter& p);
// Draws at `pos`; returns the cell under the mouse ({-1, -1} if none). `row_labels`, when
// given, receives where each row label was drawn (screen px).
Cell draw_matrix(const Painter& p, ImVec2 pos, const MatrixStyle& style, const MatrixLayout& layout,
                 std::vector<ImRect>* row_labels = nullptr);

// The sentence as token chips with their positions; `shown` chips are drawn (animation).
float draw_tokens(const Painter& p, ImVec2 pos, float width, const Trace& trace, int shown);
float tokens_height(const Painter& p, float width, const Trace& trace);  // all chips, drawn or not

// The next-token step: the most probable words as bars (probability with format_percent and
// logit with format_number); bars grow with `fill` in [0, 1]. Returns the height used.
float draw_next_token_bars(const Painter& p, ImVec2 pos, float width, const Step& step, float fill);
float next_token_bars_height(const Painter& p, const Step& step);

}  // namespace neuralpath::ui::playback
