// readout.cpp: trace lookups and unit printing for the widgets (see readout.h).
#include "engine/ui/widgets/readout.h"

#include "engine/core/format.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace neuralpath::ui {

const Step* find_step(const Trace& trace, StepKind kind, int head) {
  for (const Step& step : trace.steps)
    if (step.kind == kind && step.layer == -1 && step.head == head) return &step;
  return nullptr;
}

const CellTerms* find_terms(const Step& step, Cell cell) {
  // block.cpp records square steps row by row, so the cell usually sits at row·cols + col.
  const auto cols = static_cast<std::size_t>(step.result.values.cols());
  const std::size_t guess = static_cast<std::size_t>(cell.row) * cols + static_cast<std::size_t>(cell.col);
  if (cell.row >= 0 && cell.col >= 0 && guess < step.cell_terms.size() &&
      step.cell_terms[guess].cell.row == cell.row && step.cell_terms[guess].cell.col == cell.col)
    return &step.cell_terms[guess];
  for (const CellTerms& terms : step.cell_terms)
    if (terms.cell.row == cell.row && terms.cell.col == cell.col) return &terms;
  return nullptr;
}

std::string products_text(const CellTerms& terms, int max_shown) {
  // The biggest products first: they are what made the cell (many products are often 0).
  std::vector<Term> order = terms.terms;
  std::stable_sort(order.begin(), order.end(),
                   [](const Term& x, const Term& y) { return std::fabs(x.a * x.b) > std::fabs(y.a * y.b); });
  const int n = static_cast<int>(order.size());
  std::string text;
  for (int k = 0; k < n && k < max_shown; ++k) {
    const Term& t = order[static_cast<std::size_t>(k)];
    text += (k ? " + " : "") + format_number(t.a) + "×" + format_number(t.b);
  }
  if (n > max_shown) text += " + … (" + std::to_string(n) + " terms, largest first)";
  return text;
}

std::string format_count(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  if (u == 0) return format_count(static_cast<std::uint64_t>(bytes)) + " bytes";
  return format_number(static_cast<float>(bytes)) + " " + units[u];
}

std::string format_seconds(double seconds) {
  if (seconds < 1.0) return format_number(static_cast<float>(seconds * 1000.0)) + " ms";
  if (seconds < 60.0) return format_number(static_cast<float>(seconds)) + " s";
  const double minutes = std::floor(seconds / 60.0);
  return format_count(static_cast<std::uint64_t>(minutes)) + " min " +
         format_number(static_cast<float>(seconds - minutes * 60.0)) + " s";
}

std::string shape_text(long rows, long cols) {
  std::string text = "(";  // appended piece by piece: GCC 12 warns falsely on "(" + string&&
  text += std::to_string(rows);
  text += ", ";
  text += std::to_string(cols);
  text += ")";
  return text;
}

std::string format_tiny(double value) {
  if (value == 0.0 || !std::isfinite(value)) return format_number(static_cast<float>(value));
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  if (exponent >= -1 && exponent < 6) return format_number(static_cast<float>(value));
  static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string power = exponent < 0 ? "⁻" : "";
  for (char ch : std::to_string(std::abs(exponent))) power += digits[ch - '0'];
  return format_number(static_cast<float>(value / std::pow(10.0, exponent))) + " × 10" + power;
}

}  // namespace neuralpath::ui
