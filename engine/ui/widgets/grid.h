// grid.h: a token × token matrix drawn as a grid (query rows, key columns), shared by the
// heatmap and the mask steps. The caller supplies each cell's text and colour (already
// formatted from engine numbers); the grid lays out, draws, scrolls sideways on phones when
// the columns cannot fit, and reports which cell is hovered or picked.
//
//   column labels read upwards above the columns; row labels on the left, where they stay while
//   a wide grid scrolls sideways (by the scroll bar, the wheel with Shift, or a sideways drag);
//   blocked cells (masked) are hatched and carry "⊘";
//   an optional last column ("row sum") whose numbers explain themselves.
#pragma once
#include "engine/trace/trace.h"
#include "engine/ui/widgets/explain.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::ui {

struct GridCell {
  std::string text;      // e.g. "41.2%"; drawn when it fits the cell
  std::string fallback;  // drawn when `text` does not fit (e.g. "⊘"); may be empty
  ImU32 fill = 0;
  bool blocked = false;
};

struct GridSpec {
  const char* id = "grid";
  std::vector<std::string> rows, cols;              // token texts
  std::function<GridCell(int, int)> cell;           // (row, col) -> what to draw
  std::vector<std::string> row_end;                 // optional last column, one per row
  std::vector<ImU32> row_end_color;                 // 0 = the theme's text
  std::string row_end_title;                        // e.g. "row sum" (widgets.row_sum)
  std::function<Explanation(int)> explain_row_end;  // row -> its explanation
  std::optional<Cell> selected;
  std::string corner;  // e.g. "query ↓  key →" (widgets.grid_corner)
  // When one cell's text does not fit, every cell shows its fallback: a grid of numbers reads
  // in one precision ("0.5 -0.5"), never "0.47" beside "-0.5".
  bool fallback_together = false;
  // A grid that scrolls sideways (a phone) opens scrolled so that this column shows (the
  // selected cell's, or the most looked-at key's), and scrolls there again when it changes.
  std::optional<int> show_col;
};

struct GridResult {
  std::optional<Cell> hovered;  // under the pointer (or focused) this frame
  std::optional<Cell> picked;   // clicked or Enter this frame
  // Where the cells were drawn (screen pixels), for a view that reports its layout: cell (r, k)
  // starts at cells_min + (k·cell_size.x, r·cell_size.y); what shows of it lies in [clip_min, clip_max].
  ImVec2 cells_min, cell_size, clip_min, clip_max;
  ImVec2 size;           // the whole grid: labels, cells and the row-end column
  float labels_x = 0;    // the row labels' left edge (where a sideways-scrolled grid keeps them)
  bool scrolls = false;  // wider than `width`: it scrolls sideways
};

GridResult draw_grid(const UiContext& ui, const GridSpec& spec, float width, Explainer& explain);

// The trace's tokens against themselves (query rows, key columns), with the corner label and
// the selection; the caller adds what each cell shows.
GridSpec token_grid(const char* id, const Trace& trace, std::optional<Cell> selected);

// The "row sum" column: one printed number per row in `color`, each explained by `explain`.
void add_row_sums(GridSpec& grid, std::vector<std::string> sums, ImU32 color, std::function<Explanation(int)> explain);

// "Head 1", "Head 2", ... as buttons, only when the trace has several heads: the head the
// learner picked this frame, or -1 (none, or the one already shown).
int pick_head(const UiContext& ui, int heads, int current, float width);

}  // namespace neuralpath::ui
