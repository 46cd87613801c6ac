// readout.h: reading numbers out of a Trace and printing them the way the views draw them.
// Every printed number goes through engine/core/format.h (format_number, format_percent), so a
// popup, a cell and the narrator show identical strings; the helpers here only add the units
// the core does not print (counts, bytes, seconds) around those same mantissas.
#pragma once
#include "engine/core/trace.h"

#include <cstdint>
#include <string>

namespace neuralpath::ui {

// The shown layer's step of `kind` for `head` (score, scale, mask, softmax, blend), or nullptr.
const Step* find_step(const Trace& trace, StepKind kind, int head);
// The recorded terms of one result cell, or nullptr (none recorded: T > max_term_tokens).
const CellTerms* find_terms(const Step& step, Cell cell);
// "1.20×7.80 + 0.50×1.20 + … (8 terms, largest first)" — a dot-product cell's products, as drawn.
std::string products_text(const CellTerms& terms, int max_shown = 4);

std::string format_count(std::uint64_t n);     // 1234567 -> "1,234,567"
std::string format_bytes(double bytes);        // 268435456 -> "256.00 MiB" (binary units)
std::string format_seconds(double seconds);    // 0.0123 -> "12.30 ms", 83 -> "1 min 23.00 s"
std::string shape_text(long rows, long cols);  // "(12, 4)": how NumPy/PyTorch print a shape
std::string format_tiny(double value);         // 4.77e-7 -> "4.77 × 10⁻⁷" (0 -> "0.00")

}  // namespace neuralpath::ui
