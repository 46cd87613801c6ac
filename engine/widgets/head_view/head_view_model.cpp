// head_view_model.cpp: the head view's engine run, commands, state and explanations
// (head_view_model.h). Every weight is the softmax step's result in the engine's trace.
#include "engine/widgets/head_view/head_view_model.h"

#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/widgets/drawable.h"
#include "engine/widgets/model_view/head_weights.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {
std::string head_name(int head) { return tr("widgets.head", {{"n", std::to_string(head + 1)}}); }
}  // namespace

// [SECTION] The engine run ---------------------------------------------------------------------

HeadViewModel::HeadViewModel(const HeadViewSettings& settings, const lesson::Inline& caption, const ModelSpec& spec)
    : TraceModel(settings, caption, spec) {
  if (auto problem = run(settings.sentence)) {
    error_ = *problem;
    return;
  }
  if (!settings.query.empty()) focus_ = std::max(-1, token_of(settings.query));
}

std::optional<std::string> HeadViewModel::run(const std::string& sentence) {
  // A refusal in the heatmap's words ("heatmap.empty", "heatmap.too_long"): the two kinds share them.
  if (auto why = run_trace(sentence, settings_.causal ? Mask::causal_mask() : Mask::none(), kMaxTokens, "heatmap"))
    return why;
  sentence_ = sentence;
  weights_.clear();
  for (int h = 0; h < trace_->heads; ++h) {
    const Step* softmax = find_step(*trace_, StepKind::softmax, h);
    weights_.push_back(softmax ? softmax->result.values : trace_->weights(h));
  }
  if (static_cast<int>(shown_.size()) != trace_->heads) shown_.assign(static_cast<std::size_t>(trace_->heads), true);
  if (focus_ >= static_cast<int>(trace_->tokens.size())) focus_ = -1;
  return std::nullopt;
}

int HeadViewModel::token_of(const std::variant<int, std::string>& token) const {
  const int t = static_cast<int>(trace_->tokens.size());
  if (const int* i = std::get_if<int>(&token)) return *i >= -1 && *i < t ? *i : -2;
  std::string key = std::get<std::string>(token);
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (int j = 0; j < t; ++j)
    if (trace_->tokens[static_cast<std::size_t>(j)].key == key) return j;
  return -2;
}

std::vector<HeadViewModel::Top> HeadViewModel::top() const {
  std::vector<Top> out;
  if (!trace_ || focus_ < 0) return out;
  for (int h = 0; h < heads(); ++h) {
    if (!shown(h)) continue;
    Top top{h, -1, 0.0f};
    const Matrix& w = weights(h);
    for (int j = 0; j < w.cols(); ++j)
      if (j != focus_ && (top.index < 0 || w(focus_, j) > top.weight)) top = {h, j, w(focus_, j)};
    out.push_back(top);
  }
  return out;
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<HeadViewModel::Command, CommandResult> HeadViewModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "toggleHead") return Command(ToggleHead{int_field(message, "head").value_or(-1)});
  if (type == "showHeads") {
    ShowHeads show;
    if (message.contains("heads") && message["heads"].is_array()) {
      for (const json& v : message["heads"]) {
        if (!v.is_boolean()) return CommandResult(tr("multihead.needs_heads"));
        show.shown.push_back(v.get<bool>());
      }
    } else if (!(message.contains("heads") && message["heads"] == "all")) {
      return CommandResult(tr("multihead.needs_heads"));
    }
    return Command(show);
  }
  if (type == "focus") {
    if (message.contains("token") && message["token"].is_string())
      return Command(Focus{message["token"].get<std::string>()});
    if (auto i = int_field(message, "token")) return Command(Focus{*i});
    return CommandResult(tr("multihead.needs_token"));
  }
  if (type == "explain")
    return Command(Explain{int_field(message, "head").value_or(-1), int_field(message, "row").value_or(-1),
                           int_field(message, "col").value_or(-1)});
  return CommandResult::not_taken(type);
}

CommandResult HeadViewModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) return keep_input_error(run(c->text));
  if (!trace_) return tr("heatmap.no_sentence", {{"error", error_}});
  const int t = static_cast<int>(trace_->tokens.size());
  if (const auto* c = std::get_if<ToggleHead>(&command)) {
    if (auto why = refuse_head(c->head)) return *why;
    shown_[static_cast<std::size_t>(c->head)] = !shown_[static_cast<std::size_t>(c->head)];
    return {};
  }
  if (const auto* c = std::get_if<ShowHeads>(&command)) {
    if (!c->shown.empty() && static_cast<int>(c->shown.size()) != heads()) return tr("multihead.needs_heads");
    shown_ = c->shown.empty() ? std::vector<bool>(static_cast<std::size_t>(heads()), true) : c->shown;
    return {};
  }
  if (const auto* c = std::get_if<Focus>(&command)) {
    const int token = token_of(c->token);
    if (token < -1) return tr("multihead.no_token", {{"last", std::to_string(t - 1)}});
    focus_ = token;
    return {};
  }
  const auto& e = std::get<Explain>(command);
  if (auto why = refuse_head(e.head)) return *why;
  if (e.row < 0 || e.row >= t || e.col < 0 || e.col >= t)
    return tr("heatmap.cell_range", {{"last", std::to_string(t - 1)}});
  to_explain_ = explain_cell(e.head, e.row, e.col);
  return {};
}

// [SECTION] State, snapshot and the text version ------------------------------------------------

json HeadViewModel::state() const {
  json s = sentence_state(kKind, sentence_, settings_.causal);
  if (!trace_) return s;
  s["heads"] = heads();
  s["shown"] = shown_;
  s["focus"] = focus_;
  s["focus_word"] = focus_ >= 0 ? json(trace_->labels[static_cast<std::size_t>(focus_)]) : json(nullptr);
  json weights = json::array();
  for (const Matrix& w : weights_) weights.push_back(matrix_rows(w));
  s["weights"] = weights;
  json tops = json::array();
  for (const Top& top : this->top())
    tops.push_back(
        {{"head", top.head},
         {"index", top.index},
         {"token", top.index >= 0 ? json(trace_->labels[static_cast<std::size_t>(top.index)]) : json(nullptr)},
         {"weight", top.weight}});
  s["top"] = tops;
  s["summary"] = summary();
  s["table"] = table().to_json();
  return s;
}

json HeadViewModel::snapshot() const { return {{"s", sentence_}, {"shown", shown_}, {"f", focus_}}; }

CommandResult HeadViewModel::restore(const json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("s") || !snapshot["s"].is_string())
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  if (auto problem = run(snapshot["s"].get<std::string>())) return problem;
  if (snapshot.contains("shown") && snapshot["shown"].is_array()) {
    ShowHeads show;
    for (const json& v : snapshot["shown"]) show.shown.push_back(v.is_boolean() && v.get<bool>());
    (void)apply(show);  // a different head count keeps every head shown
  }
  if (snapshot.contains("f") && snapshot["f"].is_number_integer()) (void)apply(Focus{snapshot["f"].get<int>()});
  return {};
}

std::string HeadViewModel::summary() const {
  if (!trace_) return error_;
  const int shown_count = static_cast<int>(std::count(shown_.begin(), shown_.end(), true));
  std::string out =
      tr_n("multihead.head_view_summary", heads(),
           {{"sentence", sentence_}, {"n", std::to_string(heads())}, {"shown", std::to_string(shown_count)}});
  if (focus_ < 0) return out + " " + tr("multihead.head_view_every_word");
  std::string looks;
  for (const Top& top : this->top()) {
    if (top.index < 0) continue;
    looks += (looks.empty() ? "" : "; ") +
             tr("multihead.head_looks", {{"head", head_name(top.head)},
                                         {"key", quoted(trace_->labels[static_cast<std::size_t>(top.index)])},
                                         {"weight", format_percent(top.weight)}});
  }
  return out + " " +
         tr("multihead.head_view_focus",
            {{"query", quoted(trace_->labels[static_cast<std::size_t>(focus_)])}, {"looks", looks}});
}

TextTable HeadViewModel::table() const {
  TextTable table;
  if (!trace_) return table;
  const int t = static_cast<int>(trace_->tokens.size());
  if (focus_ >= 0) {  // one row per head: the focus word's weights on every word
    table.caption = tr("multihead.table_focus", {{"query", quoted(trace_->labels[static_cast<std::size_t>(focus_)])}});
    table.columns.push_back("");
    for (const auto& label : trace_->labels) table.columns.push_back(label);
    for (int h = 0; h < heads(); ++h) {
      if (!shown(h)) continue;
      TextTable::Row row{head_name(h), {}};
      for (int j = 0; j < t; ++j) row.cells.push_back(format_percent(weights(h)(focus_, j)));
      table.rows.push_back(std::move(row));
    }
    return table;
  }
  // Every word: one row per head, each word's heaviest key (itself excluded).
  table.caption = tr("multihead.table_every_word");
  table.columns.push_back("");
  for (const auto& label : trace_->labels) table.columns.push_back(label);
  for (int h = 0; h < heads(); ++h) {
    if (!shown(h)) continue;
    TextTable::Row row{head_name(h), {}};
    const Matrix& w = weights(h);
    for (int i = 0; i < t; ++i) row.cells.push_back(heaviest_other_cell(*trace_, w, i));
    table.rows.push_back(std::move(row));
  }
  return table;
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation HeadViewModel::explain_cell(int head, int row, int col) const {
  // The same words as the model view's for the same number: the shown layer is the model's last.
  return explain_weight(*trace_, layer_count(*trace_) - 1, head, {row, col});
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void HeadViewModel::describe(const HeadViewSettings& s, json& out) {
  out["sentence"] = s.sentence;
  out["query"] = s.query;
  out["takes_sentence"] = true;
  out["choices"] =
      choices(tr("multihead.focus_label"),
              json::array({choice(tr("multihead.every_word"), {{"type", "focus"}, {"token", -1}}, {{"focus", -1}})}));
}

const WidgetKind& head_view_widget_kind() { return folder_widget_kind<HeadViewModel>(); }

}  // namespace neuralpath::widgets
