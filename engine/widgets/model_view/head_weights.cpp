// head_weights.cpp: layers × heads of a Trace and one weight explained (head_weights.h).
#include "engine/widgets/model_view/head_weights.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/core/head_stats.h"
#include "engine/trace/narration.h"
#include "engine/widgets/readout.h"

#include <limits>

namespace neuralpath::widgets {

int layer_count(const Trace& trace) { return static_cast<int>(trace.context.size()) + 1; }

const MultiHeadResult& layer_result(const Trace& trace, int layer) {
  const auto c = static_cast<std::size_t>(layer);
  return c < trace.context.size() ? trace.context[c] : trace.attention;
}

int heads_in(const Trace& trace, int layer) { return static_cast<int>(layer_result(trace, layer).heads.size()); }

std::string head_label(const Trace& trace, int layer, int head) {
  if (layer_count(trace) == 1) return tr("widgets.head", {{"n", std::to_string(head + 1)}});
  return tr("model-view.layer_head", {{"layer", std::to_string(layer + 1)}, {"head", std::to_string(head + 1)}});
}

Explanation explain_weight(const Trace& trace, int layer, int head, Cell cell) {
  const MultiHeadResult& result = layer_result(trace, layer);
  const WeightParts p = weight_parts(result, head, cell);
  const std::string query = quoted(trace.labels[static_cast<std::size_t>(cell.row)]);
  const std::string key = quoted(trace.labels[static_cast<std::size_t>(cell.col)]);
  const int d_head = static_cast<int>(p.products.terms.size());
  const std::string scale = "1/" + format_sqrt(d_head);
  Explanation e;
  e.title = tr(
      "multihead.cell_title",
      {{"head", head_label(trace, layer, head)}, {"query", query}, {"key", key}, {"weight", format_percent(p.weight)}});
  e.formula = "w = exp(q_h·k_h/√d_head − max) / Σ exp(q_h·k_h/√d_head − max)";
  e.inputs.push_back({"q_h·k_h", products_text(p.products) + " = " + format_number(p.products.value)});
  e.inputs.push_back({"× " + scale, format_number(p.scaled)});
  if (p.masked) {
    e.inputs.push_back({tr("heatmap.after_mask"), format_number(-std::numeric_limits<float>::infinity())});
  } else {
    e.inputs.push_back({"exp(s − max)", format_number(p.exp_shifted)});
    e.inputs.push_back({tr("heatmap.one_over_sum"), format_number(p.inv_sum)});
  }
  const bool shown_layer = layer == layer_count(trace) - 1;
  if (shown_layer) {
    if (const Step* softmax = find_step(trace, StepKind::softmax, head)) e.text = narrate(trace, *softmax, cell);
  }
  if (e.text.empty()) {
    e.text = p.masked ? tr("model-view.masked_text", {{"query", query}, {"key", key}})
                      : tr("model-view.context_text", {{"head", head_label(trace, layer, head)},
                                                       {"query", query},
                                                       {"key", key},
                                                       {"d", std::to_string(d_head)},
                                                       {"score", format_number(p.products.value)},
                                                       {"scale", scale},
                                                       {"scaled", format_number(p.scaled)},
                                                       {"weight", format_percent(p.weight)}});
  }
  return e;
}

std::string heaviest_other_cell(const Trace& trace, const Matrix& w, int row) {
  int best = -1;
  for (int j = 0; j < static_cast<int>(w.cols()); ++j)
    if (j != row && (best < 0 || w(row, j) > w(row, best))) best = j;
  return best < 0 ? "" : trace.labels[static_cast<std::size_t>(best)] + " " + format_percent(w(row, best));
}

}  // namespace neuralpath::widgets
