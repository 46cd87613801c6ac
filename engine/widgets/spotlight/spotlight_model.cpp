// spotlight_model.cpp: the spotlight's engine runs, sentences, commands, state and explanations
// (spotlight_model.h).
#include "engine/widgets/spotlight/spotlight_model.h"

#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"
#include "engine/widgets/command_result.h"
#include "engine/widgets/widget_kinds.h"
#include "engine/widgets/drawable.h"
#include "engine/lesson/limits.h"

#include <algorithm>
#include <numeric>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

constexpr int kMaxBlendTerms = 3;         // terms written out before "others"
constexpr float kBlendTermFloor = 0.05f;  // smaller weights go into "others"

std::string first_key(const std::string& word) {
  try {
    const std::vector<Token> tokens = tokenize(word);
    return tokens.empty() ? std::string() : tokens.front().key;
  } catch (const InputError&) {
    return {};
  }
}

}  // namespace

// [SECTION] Sentences and the engine run -------------------------------------------------------

SpotlightModel::SpotlightModel(const SpotlightSettings& settings, const lesson::Inline& caption, const ModelSpec& spec)
    : TraceModel(settings, caption, spec) {
  sentences_.push_back(settings.sentence);
  for (const std::string& s : settings.alternatives)
    if (!s.empty() && std::find(sentences_.begin(), sentences_.end(), s) == sentences_.end()) sentences_.push_back(s);
  query_key_ = first_key(settings.query.empty() ? std::string("it") : settings.query);

  // Each sentence is named by the words that set it apart: A by those the first alternative
  // lacks, every alternative by those the block's sentence lacks ("A · tired", "C · dog, sleepy").
  for (std::size_t i = 0; i < sentences_.size(); ++i) {
    std::string label(1, static_cast<char>('A' + std::min<std::size_t>(i, 25)));
    try {
      const auto mine = tokenize(sentences_[i]);
      const auto other = tokenize(sentences_[i == 0 ? (sentences_.size() > 1 ? 1 : 0) : 0]);
      int words = 0;
      for (const Token& t : mine)
        if (!t.is_punctuation && words < 3 &&
            std::none_of(other.begin(), other.end(), [&](const Token& o) { return o.key == t.key; }))
          label += (words++ ? ", " : " · ") + t.text;
    } catch (const InputError&) {
    }
    labels_.push_back(label);
  }
  if (auto problem = show(settings.sentence)) error_ = *problem;
}

std::optional<std::string> SpotlightModel::show(const std::string& text) {
  const int limit = kMaxTokens;
  auto ran = run_sentence(spec_, text, Mask::none(), limit, kKind);
  if (auto* why = std::get_if<std::string>(&ran)) return *why;
  Trace& trace = std::get<Trace>(ran);
  const std::string previous = trace_ ? trace_->tokens[static_cast<std::size_t>(query_)].key : query_key_;
  trace_ = std::move(trace);
  query_ = default_query(previous);
  head_ = trace_->heads == 1 ? 0 : std::clamp(head_, -1, trace_->heads - 1);
  refresh();
  error_.clear();
  return std::nullopt;
}

bool SpotlightModel::has_query_word() const { return trace_ && find_token(query_key_) >= 0; }

int SpotlightModel::find_token(const std::string& key) const {
  for (std::size_t i = 0; i < trace_->tokens.size(); ++i)
    if (trace_->tokens[i].key == key) return static_cast<int>(i);
  return -1;
}

int SpotlightModel::token_of(const std::variant<int, std::string>& token) const {
  if (const int* index = std::get_if<int>(&token)) return *index;
  return find_token(first_key(std::get<std::string>(token)));
}

int SpotlightModel::default_query(const std::string& key) const {
  if (int t = find_token(key); t >= 0) return t;
  if (int t = find_token(query_key_); t >= 0) return t;
  for (int t = static_cast<int>(trace_->tokens.size()) - 1; t >= 0; --t)
    if (!trace_->tokens[static_cast<std::size_t>(t)].is_punctuation) return t;
  return 0;
}

void SpotlightModel::refresh() {
  weights_ = trace_->spotlight(query_, head_);
  // The blend's biggest terms by the engine's weights; the rest are summed as "others".
  std::vector<int> order(static_cast<std::size_t>(weights_.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weights_[a] > weights_[b]; });
  top_ = -1;
  heaviest_ = order.empty() ? -1 : order.front();
  for (int t : order)
    if (t != query_) {
      top_ = t;
      break;
    }
  blend_.clear();
  BlendTerm others;
  others.count = 0;
  for (int t : order) {
    const bool keep =
        blend_.empty() || (static_cast<int>(blend_.size()) < kMaxBlendTerms && weights_[t] >= kBlendTermFloor);
    if (keep) {
      blend_.push_back({t, weights_[t], 1});
    } else {
      others.weight += weights_[t];
      ++others.count;
    }
  }
  if (others.count > 0) blend_.push_back(others);
}

std::optional<std::string> SpotlightModel::set_sentence(const std::string& text) {
  for (std::size_t i = 0; i < sentences_.size(); ++i)
    if (sentences_[i] == text && !(has_custom_ && i + 1 == sentences_.size())) {
      choose_sentence(static_cast<int>(i));
      return error_.empty() ? std::nullopt : std::optional<std::string>(error_);
    }
  if (auto problem = show(text)) return problem;
  if (!has_custom_) {
    sentences_.push_back(text);
    labels_.push_back(tr("spotlight.yours"));
    has_custom_ = true;
  }
  sentences_.back() = text;
  sentence_ = static_cast<int>(sentences_.size()) - 1;
  return std::nullopt;
}

void SpotlightModel::choose_sentence(int index) {
  if (index < 0 || index >= static_cast<int>(sentences_.size())) return;
  if (auto problem = show(sentences_[static_cast<std::size_t>(index)])) {
    error_ = *problem;
    return;
  }
  sentence_ = index;
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<SpotlightModel::Command, CommandResult> SpotlightModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  const auto token = [&](const char* field) -> std::optional<std::variant<int, std::string>> {
    if (!message.contains(field)) return std::nullopt;
    if (message[field].is_number_integer()) return message[field].get<int>();
    if (message[field].is_string()) return message[field].get<std::string>();
    return std::nullopt;
  };
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "chooseSentence") return Command(ChooseSentence{int_field(message, "index").value_or(-1)});
  if (type == "setQuery" || type == "explain") {
    const char* field = type == "setQuery" ? "query" : "token";
    const auto t = token(field);
    if (!t) return CommandResult(tr("spotlight.no_token", {{"field", field}}));
    return type == "setQuery" ? Command(SetQuery{*t}) : Command(Explain{*t});
  }
  if (type == "setHead") return Command(SetHead{int_field(message, "head").value_or(-2)});
  return CommandResult::not_taken(type);
}

CommandResult SpotlightModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) {
    const auto problem = set_sentence(c->text);
    // The box shows a refused sentence again, as far as a sentence field holds it (a shared
    // link once put 1.9 MB here, and into state()).
    refused_ = problem ? field_prefix(c->text) : std::string();
    return keep_input_error(problem);
  }
  if (!trace_) return tr("spotlight.no_sentence", {{"error", error_}});
  if (const auto* c = std::get_if<ChooseSentence>(&command)) {
    if (c->index < 0 || c->index >= static_cast<int>(sentences_.size()))
      return tr("spotlight.sentence_range", {{"last", std::to_string(sentences_.size() - 1)}});
    choose_sentence(c->index);
    input_error_.clear();  // a chosen sentence replaces the refused one in the box: its message goes too
    refused_.clear();
    return {};
  }
  if (const auto* c = std::get_if<SetHead>(&command)) {
    if (c->head < -1 || c->head >= trace_->heads)
      return tr("spotlight.head_range", {{"last", std::to_string(trace_->heads - 1)}});
    head_ = c->head;
    refresh();
    return {};
  }
  const bool query = std::holds_alternative<SetQuery>(command);
  const int token = token_of(query ? std::get<SetQuery>(command).token : std::get<Explain>(command).token);
  if (token < 0 || token >= static_cast<int>(trace_->tokens.size()))
    return tr("spotlight.no_token", {{"field", query ? "query" : "token"}});
  if (query) {
    query_ = token;
    refresh();
  } else {
    to_explain_ = explain_weight(token);
  }
  return {};
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation SpotlightModel::explain_weight(int j) const {
  const Trace& t = *trace_;
  const Cell cell{query_, j};
  Explanation e;
  e.title = tr("spotlight.weight_title", {{"query", quote_token(t.labels[static_cast<std::size_t>(query_)])},
                                          {"key", quote_token(t.labels[static_cast<std::size_t>(j)])},
                                          {"weight", format_percent(weights_[j])}});
  if (head_ < 0) {  // the mean over heads: each head's own weight is an input
    e.title += tr("spotlight.weight_title_mean", {{"heads", std::to_string(t.heads)}});
    e.formula = "w = (w_head1 + … + w_headH) / H";
    for (int h = 0; h < t.heads; ++h)
      if (const Step* softmax = find_step(t, StepKind::softmax, h)) {
        e.inputs.push_back({tr("widgets.head_lower", {{"n", std::to_string(h + 1)}}),
                            format_number(softmax->result.values(query_, j))});
        e.text += (e.text.empty() ? "" : " ") + narrate(t, *softmax, cell);
      }
    return e;
  }
  e.formula = "w = exp(s − max) / Σ exp(s − max),   s = q·k / √d_k";
  if (const Step* score = find_step(t, StepKind::score, head_))
    if (const CellTerms* terms = find_terms(*score, cell))
      e.inputs.push_back({"q·k", products_text(*terms) + " = " + format_number(terms->value)});
  if (const Step* scale = find_step(t, StepKind::scale, head_))
    e.inputs.push_back(
        {tr("spotlight.scaled_s"), "× " + scale->scalar_name + " = " + format_number(scale->result.values(query_, j))});
  if (const Step* softmax = find_step(t, StepKind::softmax, head_)) {
    if (const CellTerms* terms = find_terms(*softmax, cell); terms && !terms->terms.empty()) {
      e.inputs.push_back({"exp(s − max)", format_number(terms->terms.front().a)});
      e.inputs.push_back({tr("spotlight.one_over_sum"), format_number(terms->terms.front().b)});
    }
    e.text = narrate(t, *softmax, cell);
  }
  if (t.heads > 1)
    e.text += tr("spotlight.head_of", {{"n", std::to_string(head_ + 1)}, {"heads", std::to_string(t.heads)}});
  return e;
}

Explanation SpotlightModel::explain_others() const {
  const Trace& t = *trace_;
  const BlendTerm& others = blend_.back();
  Explanation e;
  e.title =
      tr("spotlight.others_title", {{"n", std::to_string(others.count)}, {"weight", format_number(others.weight)}});
  e.formula = tr("spotlight.others_formula");
  for (int j = 0; j < weights_.size(); ++j)
    if (std::none_of(blend_.begin(), blend_.end() - 1, [&](const BlendTerm& b) { return b.token == j; }))
      e.inputs.push_back({quote_token(t.labels[static_cast<std::size_t>(j)]), format_number(weights_[j])});
  e.text = tr("spotlight.others_text");
  return e;
}

Explanation SpotlightModel::explain_entry(int c) const {
  const Trace& t = *trace_;
  Explanation e;
  const Step* blend = find_step(t, StepKind::blend, head_);
  if (!blend) return e;
  e.title = tr("spotlight.entry_title",
               {{"n", std::to_string(c)}, {"value", format_number(blend->result.values(query_, c))}});
  e.formula = "new_i = Σ_j w_ij · v_j";
  if (const CellTerms* terms = find_terms(*blend, {query_, c}))
    e.inputs.push_back({tr("spotlight.weight_times_value"), products_text(*terms, 5)});
  e.text = narrate(t, *blend, {query_, c});
  return e;
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json SpotlightModel::state() const {
  json s = {{"kind", kKind}, {"sentences", sentences_}, {"sentence_index", sentence_}, {"mask", "none"}};
  put_errors(s);
  if (!trace_) return s;
  const Trace& t = *trace_;
  s["sentence"] = sentence();
  s["custom"] = custom();
  s["sentence_choice"] = custom() ? -1 : sentence_;  // which of the block's sentences is shown
  s["tokens"] = t.labels;
  json seeded = json::array();
  for (std::size_t i = 0; i < t.tokens.size(); ++i)
    if (!t.known[i]) seeded.push_back(t.labels[i]);
  s["seeded"] = seeded;
  s["query"] = t.labels[static_cast<std::size_t>(query_)];
  s["query_index"] = query_;
  s["head"] = head_;
  s["heads"] = t.heads;
  s["weights"] = std::vector<float>(weights_.data(), weights_.data() + weights_.size());
  if (top_ >= 0)  // one-token sentences have no other token to look at
    s["top"] = {{"token", t.labels[static_cast<std::size_t>(top_)]}, {"index", top_}, {"weight", weights_[top_]}};
  else
    s["top"] = nullptr;
  json blend = json::array();
  for (const BlendTerm& b : blend_)
    blend.push_back(b.token >= 0 ? json{{"token", t.labels[static_cast<std::size_t>(b.token)]}, {"weight", b.weight}}
                                 : json{{"token", "others"}, {"weight", b.weight}, {"count", b.count}});
  s["blend"] = blend;
  if (const Step* step = find_step(t, StepKind::blend, head_)) {
    const auto row = step->result.values.row(query_);
    s["vector"] = std::vector<float>(row.data(), row.data() + row.size());
  }
  s["summary"] = summary();
  s["table"] = table().to_json();
  return s;
}

json SpotlightModel::snapshot() const {
  return {{"s", trace_ ? sentence() : settings_.sentence}, {"q", query_}, {"h", head_}};
}

CommandResult SpotlightModel::restore(const json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("s") || !snapshot["s"].is_string())
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  if (CommandResult r = apply(SetSentence{snapshot["s"].get<std::string>()}); !r.done()) return r;
  if (snapshot.contains("h") && snapshot["h"].is_number_integer()) (void)apply(SetHead{snapshot["h"].get<int>()});
  if (snapshot.contains("q") && snapshot["q"].is_number_integer()) (void)apply(SetQuery{snapshot["q"].get<int>()});
  return {};
}

std::string SpotlightModel::summary() const {
  const Trace& t = *trace_;
  const std::string query = quoted(t.labels[static_cast<std::size_t>(query_)]);
  if (top_ < 0) return tr("spotlight.summary_alone", {{"query", query}});
  // The two heaviest other tokens after the top one, in falling order; the query's weight on
  // itself is said apart, when it is more than the top's (#34: "11.3% to 'bird', then 'it'
  // 11.6%" listed the words out of order).
  std::vector<int> order;
  for (int j = 0; j < weights_.size(); ++j)
    if (j != top_ && j != query_) order.push_back(j);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weights_[a] > weights_[b]; });
  const auto term = [&](int j) {
    return tr("spotlight.summary_term",
              {{"token", quoted(t.labels[static_cast<std::size_t>(j)])}, {"weight", format_percent(weights_[j])}});
  };
  std::string rest;
  if (order.size() == 1) rest = tr("spotlight.summary_then_one", {{"a", term(order[0])}});
  if (order.size() >= 2) rest = tr("spotlight.summary_then_two", {{"a", term(order[0])}, {"b", term(order[1])}});
  if (weights_[query_] > weights_[top_])
    rest += tr("spotlight.summary_self", {{"weight", format_percent(weights_[query_])}});
  return tr("spotlight.summary", {{"query", query},
                                  {"weight", format_percent(weights_[top_])},
                                  {"top", quoted(t.labels[static_cast<std::size_t>(top_)])},
                                  {"rest", rest}});
}

TextTable SpotlightModel::table() const {
  const Trace& t = *trace_;
  TextTable table;
  table.caption = tr("spotlight.table_caption", {{"query", quoted(t.labels[static_cast<std::size_t>(query_)])}});
  table.columns = {tr("spotlight.table_word"), tr("spotlight.table_attention")};
  for (int j = 0; j < weights_.size(); ++j)
    table.rows.push_back({t.labels[static_cast<std::size_t>(j)], {format_percent(weights_[j])}});
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void SpotlightModel::describe(const SpotlightSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["query"] = w.query;
  out["alternatives"] = w.alternatives;
  out["takes_sentence"] = true;
  if (w.alternatives.empty()) return;
  std::vector<std::string> sentences = {w.sentence};
  sentences.insert(sentences.end(), w.alternatives.begin(), w.alternatives.end());
  json items = json::array();
  for (std::size_t i = 0; i < sentences.size(); ++i)
    items.push_back(choice(tr("widgets.quoted_sentence", {{"sentence", sentences[i]}}),
                           {{"type", "setSentence"}, {"text", sentences[i]}}, {{"sentence_choice", i}}));
  out["choices"] = choices(tr("widgets.sentences"), std::move(items));
}

const WidgetKind& spotlight_widget_kind() { return folder_widget_kind<SpotlightModel>(); }

}  // namespace neuralpath::widgets
