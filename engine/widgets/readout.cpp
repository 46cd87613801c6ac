// readout.cpp: trace lookups and unit printing for the widgets (see readout.h).
#include "engine/widgets/readout.h"

#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/widgets/drawable.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace neuralpath::widgets {

const Step* find_step(const Trace& trace, StepKind kind, int head) {
  for (const Step& step : trace.steps)
    if (step.kind == kind && step.layer == -1 && step.head == head) return &step;
  return nullptr;
}

const CellTerms* find_terms(const Step& step, Cell cell) {
  // block.cpp records square steps row by row, so the cell usually sits at row·cols + col.
  const auto cols = static_cast<std::size_t>(step.result.values.cols());
  const std::size_t guess = static_cast<std::size_t>(cell.row) * cols + static_cast<std::size_t>(cell.col);
  if (cell.row >= 0 && cell.col >= 0 && guess < step.cell_terms.size() && step.cell_terms[guess].cell.row == cell.row &&
      step.cell_terms[guess].cell.col == cell.col)
    return &step.cell_terms[guess];
  for (const CellTerms& terms : step.cell_terms)
    if (terms.cell.row == cell.row && terms.cell.col == cell.col) return &terms;
  return nullptr;
}

std::variant<Trace, std::string> run_sentence(const ModelSpec& spec, const std::string& sentence, const Mask& mask,
                                              int max_tokens, const std::string& kind) {
  if (auto why = refuse_undrawable(sentence)) return *why;  // shown as "?" or "�" otherwise
  std::vector<Token> tokens;
  try {
    tokens = tokenize(sentence);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  if (tokens.empty()) return tr(kind + ".empty");
  if (static_cast<int>(tokens.size()) > max_tokens)
    return tr(kind + ".too_long", {{"n", std::to_string(tokens.size())}, {"max", std::to_string(max_tokens)}});
  TraceOptions options;
  options.mask = mask;
  try {
    return run_block(spec, tokens, options);
  } catch (const InputError& e) {
    return tr("widgets.engine_refused", {{"error", e.what()}});
  }
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
    // A negative factor in parentheses: "+ (-0.65)×0.2", never "+ -0.65×0.2" (#34).
    const auto factor = [](float v) { return v < 0 ? "(" + format_number(v) + ")" : format_number(v); };
    text += (k ? " + " : "") + factor(t.a) + "×" + factor(t.b);
  }
  if (n > max_shown) text += tr_n("widgets.more_terms", n, {{"n", std::to_string(n)}});
  return text;
}

nlohmann::json matrix_rows(const Matrix& m) {
  nlohmann::json out = nlohmann::json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Index j = 0; j < m.cols(); ++j)
      row.push_back(std::isfinite(m(i, j)) ? nlohmann::json(m(i, j)) : nlohmann::json(nullptr));
    out.push_back(std::move(row));
  }
  return out;
}

std::string quoted(const std::string& token) { return tr("widgets.quoted", {{"text", token}}); }

nlohmann::json TextTable::to_json() const {
  nlohmann::json out_rows = nlohmann::json::array();
  for (const Row& row : rows) out_rows.push_back({{"header", row.header}, {"cells", row.cells}});
  return {{"caption", caption}, {"columns", columns}, {"rows", std::move(out_rows)}};
}

}  // namespace neuralpath::widgets
