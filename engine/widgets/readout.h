// readout.h: reading numbers out of a Trace for the views. Every printed number goes through
// engine/text/format.h (format_number, format_count, format_bytes, ...), so a popup, a cell,
// the narrator and the text version show identical strings.
#pragma once
#include "engine/core/attention.h"
#include "engine/text/format.h"
#include "engine/core/model.h"
#include "engine/trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace neuralpath::widgets {

// One engine run of a widget's sentence (heatmap, mask steps, spotlight): the Trace, or why not
// in the learner's words — the tokenizer's, "<kind>.empty", "<kind>.too_long" ({n}, {max}) or
// widgets.engine_refused.
std::variant<Trace, std::string> run_sentence(const ModelSpec& spec, const std::string& sentence, const Mask& mask,
                                              int max_tokens, const std::string& kind);

// The shown layer's step of `kind` for `head` (score, scale, mask, softmax, blend), or nullptr.
const Step* find_step(const Trace& trace, StepKind kind, int head);
// The recorded terms of one result cell, or nullptr (none recorded: T > max_term_tokens).
const CellTerms* find_terms(const Step& step, Cell cell);
// "1.20×7.80 + 0.50×1.20 + … (8 terms, largest first)" — a dot-product cell's products, as drawn.
std::string products_text(const CellTerms& terms, int max_shown = 4);

// A matrix as state()'s JSON rows; a masked cell's −∞ (and any NaN) as null, which JSON has no
// number for.
nlohmann::json matrix_rows(const Matrix& m);

// A token as the text version quotes it: “cat” (the catalogue's widgets.quoted).
std::string quoted(const std::string& token);

// A widget's numbers as a table for the text version (state()'s "table", which
// web/shell/np-mirror.js draws): every cell already printed.
struct TextTable {
  struct Row {
    std::string header;
    std::vector<std::string> cells;
  };
  std::string caption;
  std::vector<std::string> columns;  // the first heads the row headers ("" for none)
  std::vector<Row> rows;

  nlohmann::json to_json() const;  // {"caption", "columns", "rows": [{"header", "cells"}]}
};

}  // namespace neuralpath::widgets
