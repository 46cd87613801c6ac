// model_view_model.cpp: the model view's engine run, commands, state and explanations
// (model_view_model.h). Every weight is the engine's softmax result, read from the trace.
#include "engine/widgets/model_view/model_view_model.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/model_view/head_weights.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <string_view>

namespace neuralpath::widgets {

using nlohmann::json;

// [SECTION] The engine run ---------------------------------------------------------------------

ModelViewModel::ModelViewModel(const ModelViewSettings& settings, const lesson::Inline& caption, const ModelSpec& spec)
    : TraceModel(settings, caption, spec) {
  if (auto problem = run(settings.sentence)) error_ = *problem;
}

std::optional<std::string> ModelViewModel::run(const std::string& sentence) {
  if (auto why = run_trace(sentence, settings_.causal ? Mask::causal_mask() : Mask::none(), kMaxTokens, kKind))
    return why;
  sentence_ = sentence;
  error_.clear();
  weights_.clear();
  for (int l = 0; l < layer_count(*trace_); ++l) {
    std::vector<Matrix> heads;
    for (const AttentionResult& head : layer_result(*trace_, l).heads) heads.push_back(head.weights);
    weights_.push_back(std::move(heads));
  }
  // What was open stays open when it still exists; a cell only while the sentence is as long.
  if (open_ && !check_head(*open_).done()) open_.reset();
  const int t = static_cast<int>(trace_->tokens.size());
  if (!open_ || (selected_ && (selected_->row >= t || selected_->col >= t))) selected_.reset();
  return std::nullopt;
}

std::string ModelViewModel::label(Head h) const { return head_label(*trace_, h.layer, h.head); }

CommandResult ModelViewModel::check_head(Head h) const {
  if (h.layer < 0 || h.layer >= layers()) return tr("model-view.layer_range", {{"last", std::to_string(layers() - 1)}});
  if (h.head < 0 || h.head >= heads(h.layer))
    return tr("model-view.head_range",
              {{"last", std::to_string(heads(h.layer) - 1)}, {"layer", std::to_string(h.layer)}});
  return {};
}

std::vector<ModelViewModel::Head> ModelViewModel::reading_order() const {
  std::vector<Head> order;
  for (int l = 0; l < layers(); ++l)
    for (int h = 0; h < heads(l); ++h) order.push_back({l, h});
  return order;
}

Explanation ModelViewModel::explain_cell(Head head, Cell cell) const {
  return explain_weight(*trace_, head.layer, head.head, cell);
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<ModelViewModel::Command, CommandResult> ModelViewModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  const auto head = [&] {
    return Head{int_field(message, "layer").value_or(0), int_field(message, "head").value_or(-1)};
  };
  const auto cell = [&] {
    return Cell{int_field(message, "row").value_or(-1), int_field(message, "col").value_or(-1)};
  };
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "open") return Command(Open{head()});
  if (type == "close") return Command(Close{});
  if (type == "step") {
    const int by = int_field(message, "by").value_or(0);
    if (by != 1 && by != -1) return CommandResult(tr("model-view.needs_by"));
    return Command(StepHead{by});
  }
  if (type == "selectCell") return Command(SelectCell{cell()});
  if (type == "explain") return Command(Explain{head(), cell()});
  return CommandResult::not_taken(type);
}

CommandResult ModelViewModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) return keep_input_error(run(c->text));
  if (!trace_) return tr("model-view.no_sentence", {{"error", error_}});
  const int t = static_cast<int>(trace_->tokens.size());
  const auto cell_ok = [t](Cell c) { return c.row >= 0 && c.row < t && c.col >= 0 && c.col < t; };
  if (const auto* c = std::get_if<Open>(&command)) {
    if (CommandResult bad = check_head(c->head); !bad.done()) return bad;
    if (open_ != c->head) selected_.reset();
    open_ = c->head;
    return {};
  }
  if (std::holds_alternative<Close>(command)) {
    open_.reset();
    selected_.reset();
    return {};
  }
  if (const auto* c = std::get_if<StepHead>(&command)) {
    const std::vector<Head> order = reading_order();
    const int n = static_cast<int>(order.size());
    int at = c->by > 0 ? 0 : n - 1;
    if (open_) at = (static_cast<int>(std::find(order.begin(), order.end(), *open_) - order.begin()) + c->by + n) % n;
    open_ = order[static_cast<std::size_t>(at)];
    selected_.reset();
    return {};
  }
  if (const auto* c = std::get_if<SelectCell>(&command)) {
    if (!open_) return tr("model-view.none_open");
    if (!cell_ok(c->cell)) return tr("heatmap.cell_range", {{"last", std::to_string(t - 1)}});
    selected_ = c->cell;
    return {};
  }
  const auto& e = std::get<Explain>(command);
  if (CommandResult bad = check_head(e.head); !bad.done()) return bad;
  if (!cell_ok(e.cell)) return tr("heatmap.cell_range", {{"last", std::to_string(t - 1)}});
  open_ = e.head;  // the explained number is on screen: its head open, its cell selected
  selected_ = e.cell;
  to_explain_ = explain_cell(e.head, e.cell);
  return {};
}

// [SECTION] State, snapshot and the text version ------------------------------------------------

json ModelViewModel::state() const {
  json s = sentence_state(kKind, sentence_, settings_.causal);
  if (!trace_) return s;
  s["layers"] = layers();
  json head_counts = json::array(), every_weight = json::array();
  for (int l = 0; l < layers(); ++l) {
    head_counts.push_back(heads(l));
    json layer = json::array();
    for (int h = 0; h < heads(l); ++h) layer.push_back(matrix_rows(weights({l, h})));
    every_weight.push_back(std::move(layer));
  }
  s["heads"] = head_counts;
  s["weights"] = every_weight;
  s["open"] = open_ ? json{{"layer", open_->layer}, {"head", open_->head}, {"label", label(*open_)}} : json(nullptr);
  s["selected"] = selected_ ? json{{"row", selected_->row},
                                   {"col", selected_->col},
                                   {"weight", weights(*open_)(selected_->row, selected_->col)}}
                            : json(nullptr);
  s["summary"] = summary();
  s["table"] = table().to_json();
  return s;
}

json ModelViewModel::snapshot() const {
  return {{"s", sentence_},
          {"o", open_ ? json::array({open_->layer, open_->head}) : json(nullptr)},
          {"sel", selected_ ? json::array({selected_->row, selected_->col}) : json(nullptr)}};
}

CommandResult ModelViewModel::restore(const json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("s") || !snapshot["s"].is_string())
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  if (auto problem = run(snapshot["s"].get<std::string>())) return problem;
  open_.reset();
  selected_.reset();
  const auto pair = [&](const char* key) -> std::optional<std::pair<int, int>> {
    if (!snapshot.contains(key) || !snapshot[key].is_array() || snapshot[key].size() != 2) return std::nullopt;
    const json& v = snapshot[key];
    if (!v[0].is_number_integer() || !v[1].is_number_integer()) return std::nullopt;
    return std::pair{v[0].get<int>(), v[1].get<int>()};
  };
  if (auto o = pair("o")) (void)apply(Open{{o->first, o->second}});  // a head this model lacks stays closed
  if (auto sel = pair("sel")) (void)apply(SelectCell{{sel->first, sel->second}});
  return {};
}

std::string ModelViewModel::summary() const {
  if (!trace_) return error_;
  int all = 0;
  for (int l = 0; l < layers(); ++l) all += heads(l);
  // The sentence ends the summary's first sentence: its own full stop, or one added.
  const bool stops = !sentence_.empty() && std::string_view(".!?").find(sentence_.back()) != std::string_view::npos;
  std::string out =
      tr("model-view.summary", {{"sentence", stops ? sentence_ : sentence_ + "."},
                                {"layers", tr_n("model-view.layers", layers(), {{"n", std::to_string(layers())}})},
                                {"heads", tr_n("model-view.heads", all, {{"n", std::to_string(all)}})}});
  if (!open_) return out + " " + tr("model-view.summary_grid");
  // The open head's strongest link between two different words says what the head does.
  const Matrix& w = weights(*open_);
  int best_r = -1, best_c = -1;
  for (int r = 0; r < w.rows(); ++r)
    for (int c = 0; c < w.cols(); ++c)
      if (r != c && (best_r < 0 || w(r, c) > w(best_r, best_c))) best_r = r, best_c = c;
  out += " " + tr("model-view.summary_open", {{"head", label(*open_)}});
  if (best_r >= 0)
    out += " " + tr("model-view.summary_link", {{"from", quoted(trace_->labels[static_cast<std::size_t>(best_r)])},
                                                {"to", quoted(trace_->labels[static_cast<std::size_t>(best_c)])},
                                                {"weight", format_percent(w(best_r, best_c))}});
  if (selected_) {
    const Explanation e = explain_cell(*open_, *selected_);
    out += " " + tr("model-view.summary_selected", {{"title", e.title}, {"text", e.text}});
  }
  return out;
}

TextTable ModelViewModel::table() const {
  TextTable table;
  if (!trace_) return table;
  const int t = static_cast<int>(trace_->tokens.size());
  table.columns.push_back("");
  for (const auto& label : trace_->labels) table.columns.push_back(label);
  if (open_) {  // the open head's whole grid: one row per asking word
    table.caption = tr("model-view.table_open", {{"head", label(*open_)}});
    const Matrix& w = weights(*open_);
    for (int i = 0; i < t; ++i) {
      TextTable::Row row{trace_->labels[static_cast<std::size_t>(i)], {}};
      for (int j = 0; j < t; ++j) row.cells.push_back(format_percent(w(i, j)));
      table.rows.push_back(std::move(row));
    }
    return table;
  }
  // Every head: each word's heaviest other word, one row per layer and head.
  table.caption = tr("model-view.table_grid");
  for (const Head& h : reading_order()) {
    TextTable::Row row{label(h), {}};
    const Matrix& w = weights(h);
    for (int i = 0; i < t; ++i) row.cells.push_back(heaviest_other_cell(*trace_, w, i));
    table.rows.push_back(std::move(row));
  }
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void ModelViewModel::describe(const ModelViewSettings& s, json& out) {
  out["sentence"] = s.sentence;
  out["causal"] = s.causal;
  out["takes_sentence"] = true;
  out["choices"] = choices(tr("model-view.choices"),
                           json::array({choice(tr("model-view.previous"), {{"type", "step"}, {"by", -1}}),
                                        choice(tr("model-view.next"), {{"type", "step"}, {"by", 1}}),
                                        choice(tr("model-view.all_heads"), {{"type", "close"}}, {{"open", nullptr}})}));
}

const WidgetKind& model_view_widget_kind() { return folder_widget_kind<ModelViewModel>(); }

}  // namespace neuralpath::widgets
