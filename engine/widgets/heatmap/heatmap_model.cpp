// heatmap_model.cpp: the heatmap's engine run, commands, state and explanations (heatmap_model.h).
#include "engine/widgets/heatmap/heatmap_model.h"

#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"
#include "engine/widgets/command_result.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::widgets {

using nlohmann::json;

// [SECTION] The engine run ---------------------------------------------------------------------

HeatmapModel::HeatmapModel(const HeatmapSettings& settings, const lesson::Inline& caption, const ModelSpec& spec)
    : TraceModel(settings, caption, spec), causal_(settings.causal) {
  if (auto problem = run(settings.sentence, settings.causal)) error_ = *problem;
}

std::optional<std::string> HeatmapModel::run(const std::string& sentence, bool causal) {
  if (auto why = run_trace(sentence, causal ? Mask::causal_mask() : Mask::none(), kMaxTokens, kKind)) return why;
  sentence_ = sentence;
  causal_ = causal;
  head_ = std::clamp(head_, 0, trace_->heads - 1);
  const int t = static_cast<int>(trace_->tokens.size());
  if (selected_ && (selected_->row >= t || selected_->col >= t)) selected_.reset();
  refresh();
  error_.clear();
  return std::nullopt;
}

void HeatmapModel::refresh() {
  const Step* softmax = find_step(*trace_, StepKind::softmax, head_);
  weights_ = softmax ? softmax->result.values : trace_->weights(head_);
  row_sums_ = weights_.rowwise().sum();  // shown beside each row: softmax makes it 1
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<HeatmapModel::Command, CommandResult> HeatmapModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "setMask") {
    if (message.contains("causal") && message["causal"].is_boolean())
      return Command(SetMask{message["causal"].get<bool>()});
    if (message.contains("mask") && message["mask"] == "causal") return Command(SetMask{true});
    if (message.contains("mask") && (message["mask"] == "none" || message["mask"] == "bert"))
      return Command(SetMask{false});
    return CommandResult(tr("heatmap.needs_mask"));
  }
  if (type == "setHead") return Command(SetHead{int_field(message, "head").value_or(-1)});
  if (type == "selectCell" || type == "explain") {
    const Cell cell{int_field(message, "row").value_or(-1), int_field(message, "col").value_or(-1)};
    return type == "explain" ? Command(Explain{cell}) : Command(SelectCell{cell});
  }
  return CommandResult::not_taken(type);
}

CommandResult HeatmapModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) return run(c->text, causal_);
  if (const auto* c = std::get_if<SetMask>(&command)) {
    if (!settings_.bert_switch && c->causal != settings_.causal) return tr("heatmap.no_switch");
    return run(trace_ ? sentence_ : settings_.sentence, c->causal);
  }
  if (!trace_) return tr("heatmap.no_sentence", {{"error", error_}});
  const int t = static_cast<int>(trace_->tokens.size());
  if (const auto* c = std::get_if<SetHead>(&command)) {
    if (auto why = refuse_head(c->head)) return *why;
    head_ = c->head;
    refresh();
    return {};
  }
  const Cell cell = std::holds_alternative<SelectCell>(command) ? std::get<SelectCell>(command).cell
                                                                : std::get<Explain>(command).cell;
  if (cell.row < 0 || cell.row >= t || cell.col < 0 || cell.col >= t)
    return tr("heatmap.cell_range", {{"last", std::to_string(t - 1)}});
  selected_ = cell;
  if (std::holds_alternative<Explain>(command)) to_explain_ = explain_cell(cell);
  return {};
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation HeatmapModel::explain_cell(Cell cell) const {
  const Trace& t = *trace_;
  Explanation e;
  e.title = tr("heatmap.cell_title", {{"query", quote_token(t.labels[static_cast<std::size_t>(cell.row)])},
                                      {"key", quote_token(t.labels[static_cast<std::size_t>(cell.col)])},
                                      {"weight", format_percent(weights_(cell.row, cell.col))}});
  e.formula = "w = exp(q·k/√d_k − max) / Σ exp(q·k/√d_k − max)";
  if (const Step* score = find_step(t, StepKind::score, head_))
    if (const CellTerms* terms = find_terms(*score, cell))
      e.inputs.push_back({"q·k", products_text(*terms) + " = " + format_number(terms->value)});
  if (const Step* scale = find_step(t, StepKind::scale, head_))
    e.inputs.push_back({"× " + scale->scalar_name, format_number(scale->result.values(cell.row, cell.col))});
  if (const Step* mask = find_step(t, StepKind::mask, head_)) {
    e.inputs.push_back({tr("heatmap.after_mask"), format_number(mask->result.values(cell.row, cell.col))});
    if (t.mask.hides(cell.row, cell.col)) e.text = narrate(t, *mask, cell) + " ";
  }
  if (const Step* softmax = find_step(t, StepKind::softmax, head_)) {
    if (const CellTerms* terms = find_terms(*softmax, cell); terms && !terms->terms.empty()) {
      e.inputs.push_back({"exp(s − max)", format_number(terms->terms.front().a)});
      e.inputs.push_back({tr("heatmap.one_over_sum"), format_number(terms->terms.front().b)});
    }
    e.text += narrate(t, *softmax, cell);
  }
  return e;
}

Explanation HeatmapModel::explain_row_sum(int row) const {
  const Trace& t = *trace_;
  Explanation e;
  e.title = tr("heatmap.row_title", {{"query", quote_token(t.labels[static_cast<std::size_t>(row)])},
                                     {"sum", format_percent(row_sums_[row])}});
  e.formula = tr("heatmap.row_formula");
  for (int j = 0; j < weights_.cols(); ++j)
    e.inputs.push_back({quote_token(t.labels[static_cast<std::size_t>(j)]), format_percent(weights_(row, j))});
  e.text = tr("heatmap.row_text");
  return e;
}

Explanation HeatmapModel::explain_step(const Step& step, Cell cell) const {
  Explanation e;
  e.title = step.title;
  e.text = narrate(*trace_, step, cell);
  if (const CellTerms* terms = find_terms(step, cell); terms && step.kind == StepKind::score)
    e.inputs.push_back({step.term_a + "×" + step.term_b, products_text(*terms, 8)});
  return e;
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json HeatmapModel::state() const {
  json s = {{"kind", kKind},
            {"causal", causal_},
            {"mask", causal_ ? "causal" : "none"},
            {"bert_switch", settings_.bert_switch}};
  if (!error_.empty()) s["error"] = error_;
  if (!trace_) return s;
  s["sentence"] = sentence_;
  s["tokens"] = trace_->labels;
  s["head"] = head_;
  s["heads"] = trace_->heads;
  json rows = json::array(), masked = json::array();
  for (int i = 0; i < weights_.rows(); ++i) {
    rows.push_back(std::vector<float>(weights_.row(i).data(), weights_.row(i).data() + weights_.cols()));
    for (int j = 0; j < weights_.cols(); ++j)
      if (trace_->mask.hides(i, j)) masked.push_back({i, j});
  }
  s["weights"] = rows;
  s["masked"] = masked;
  s["row_sums"] = std::vector<float>(row_sums_.data(), row_sums_.data() + row_sums_.size());
  s["selected"] = selected_ ? json{{"row", selected_->row}, {"col", selected_->col}} : json(nullptr);
  s["summary"] = summary();
  s["table"] = table().to_json();
  return s;
}

json HeatmapModel::snapshot() const {
  json s = {{"s", trace_ ? sentence_ : settings_.sentence}, {"c", causal_}, {"h", head_}};
  if (selected_) s["sel"] = {selected_->row, selected_->col};
  return s;
}

CommandResult HeatmapModel::restore(const json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("s") || !snapshot["s"].is_string())
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  const bool causal = snapshot.value("c", settings_.causal);
  if (causal != settings_.causal && !settings_.bert_switch) return tr("heatmap.no_switch");
  if (auto problem = run(snapshot["s"].get<std::string>(), causal)) return problem;
  if (snapshot.contains("h") && snapshot["h"].is_number_integer()) (void)apply(SetHead{snapshot["h"].get<int>()});
  if (snapshot.contains("sel") && snapshot["sel"].is_array() && snapshot["sel"].size() == 2 &&
      snapshot["sel"][0].is_number_integer() && snapshot["sel"][1].is_number_integer())
    (void)apply(SelectCell{{snapshot["sel"][0].get<int>(), snapshot["sel"][1].get<int>()}});
  return {};
}

std::string HeatmapModel::summary() const {
  const Trace& t = *trace_;
  // The strongest link between two different words.
  int best_row = -1, best_col = -1;
  for (int r = 0; r < weights_.rows(); ++r)
    for (int c = 0; c < weights_.cols(); ++c)
      if (r != c && std::isfinite(weights_(r, c)) && (best_row < 0 || weights_(r, c) > weights_(best_row, best_col))) {
        best_row = r;
        best_col = c;
      }
  const std::string link =
      best_row < 0 ? std::string()
                   : tr("heatmap.summary_link", {{"from", quoted(t.labels[static_cast<std::size_t>(best_row)])},
                                                 {"weight", format_percent(weights_(best_row, best_col))},
                                                 {"to", quoted(t.labels[static_cast<std::size_t>(best_col)])}});
  return tr_n("heatmap.summary", static_cast<long long>(t.tokens.size()),
              {{"sentence", quoted(sentence_)},
               {"n", std::to_string(t.tokens.size())},
               {"mask", tr(causal_ ? "heatmap.summary_causal" : "heatmap.summary_none")},
               {"link", link}});
}

TextTable HeatmapModel::table() const {
  const Trace& t = *trace_;
  TextTable table;
  table.caption = tr("heatmap.table_caption", {{"rows", tr("widgets.table_rows")}});
  table.columns.push_back("");
  for (const std::string& label : t.labels) table.columns.push_back(label);
  for (int r = 0; r < weights_.rows(); ++r) {
    TextTable::Row row{t.labels[static_cast<std::size_t>(r)], {}};
    for (int c = 0; c < weights_.cols(); ++c)
      row.cells.push_back(t.mask.hides(r, c) ? tr("widgets.masked_cell") : format_percent(weights_(r, c)));
    table.rows.push_back(std::move(row));
  }
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

namespace {

json mask_choice(const char* mask, const char* label) {
  return choice(tr(label), {{"type", "setMask"}, {"mask", mask}}, {{"mask", mask}});
}

}  // namespace

void HeatmapModel::describe(const HeatmapSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  out["bert_switch"] = w.bert_switch;
  out["takes_sentence"] = true;
  if (w.bert_switch)
    out["choices"] =
        choices(tr("widgets.mask"),
                json::array({mask_choice("causal", "widgets.mask_causal"), mask_choice("none", "widgets.mask_none")}));
}

const WidgetKind& heatmap_widget_kind() { return folder_widget_kind<HeatmapModel>(); }

}  // namespace neuralpath::widgets
