// readout.h: reading numbers out of a Trace for the views. Every printed number goes through
// engine/core/format.h (format_number, format_count, format_bytes, ...), so a popup, a cell,
// the narrator and the text version show identical strings.
#pragma once
#include "engine/core/format.h"
#include "engine/core/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace neuralpath::ui {

// The shown layer's step of `kind` for `head` (score, scale, mask, softmax, blend), or nullptr.
const Step* find_step(const Trace& trace, StepKind kind, int head);
// The recorded terms of one result cell, or nullptr (none recorded: T > max_term_tokens).
const CellTerms* find_terms(const Step& step, Cell cell);
// "1.20×7.80 + 0.50×1.20 + … (8 terms, largest first)" — a dot-product cell's products, as drawn.
std::string products_text(const CellTerms& terms, int max_shown = 4);

// A token as the text version quotes it: “cat” (the catalogue's widgets.quoted).
std::string quoted(const std::string& token);

// A widget's numbers as a table for the text version (state()'s "table", which
// web/shell/np-mirror.js draws): every cell already printed.
struct TextTable {
  struct Row {
    std::string              header;
    std::vector<std::string> cells;
  };
  std::string              caption;
  std::vector<std::string> columns;  // the first heads the row headers ("" for none)
  std::vector<Row>         rows;

  nlohmann::json to_json() const;    // {"caption", "columns", "rows": [{"header", "cells"}]}
};


}  // namespace neuralpath::ui
