// tokenizer_model.cpp: the tokenizer view's merges, cut, commands, state and explanations.
#include "engine/widgets/tokenizer/tokenizer_model.h"

#include "engine/core/error.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/drawable.h"
#include "engine/widgets/language_models.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

// The lines to learn from, one document: the tokenizer never merges across a line (a chunk
// never spans a newline, bpe.h).
std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

}  // namespace

TokenizerModel::TokenizerModel(const TokenizerSettings& settings, const lesson::Inline& caption)
    : WidgetModelBase(settings, caption) {
  learned_ = lm::BpeTokenizer::train(joined(settings_.learn), lm::kFirstMerge + settings_.merges);
  shown_ = learned();
  text_ = settings_.text;
  cut();
}

void TokenizerModel::cut() {
  std::vector<std::pair<int, int>> first(learned_.merges().begin(), learned_.merges().begin() + shown_);
  shown_tokenizer_ = lm::BpeTokenizer::from_merges(std::move(first));
  tokens_.clear();
  for (int id : shown_tokenizer_.encode(text_)) tokens_.push_back({token_label(shown_tokenizer_.token_bytes(id)), id});
}

// [SECTION] Commands -----------------------------------------------------------------------------

std::variant<TokenizerModel::Command, CommandResult> TokenizerModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "setMerges") {
    const std::optional<int> n = int_field(message, "merges");
    if (!n) return CommandResult(tr("tokenizer.needs_merges"));
    return Command(SetMerges{*n});
  }
  if (type == "explain") return Command(Explain{int_field(message, "token").value_or(-1)});
  return CommandResult::not_taken(type);
}

CommandResult TokenizerModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) {
    std::optional<std::string> why;
    if (c->text.empty())
      why = tr("tokenizer.empty");
    else if (c->text.size() > kMaxTextBytes)
      why = tr("tokenizer.too_long", {{"n", format_count(kMaxTextBytes)}});
    else
      why = refuse_undrawable(c->text);
    if (why) {
      input_error_ = *why;  // the widget keeps its own text; the message says why
      return *why;
    }
    input_error_.clear();
    text_ = c->text;
    cut();
    return {};
  }
  if (const auto* c = std::get_if<SetMerges>(&command)) {
    if (c->merges < 0 || c->merges > learned())
      return tr("tokenizer.merges_range", {{"last", std::to_string(learned())}});
    shown_ = c->merges;
    cut();
    return {};
  }
  const int index = std::get<Explain>(command).token;
  if (index < 0 || index >= static_cast<int>(tokens_.size()))
    return tr("tokenizer.token_range", {{"last", std::to_string(static_cast<int>(tokens_.size()) - 1)}});
  to_explain_ = explain_token(index);
  return {};
}

// [SECTION] State and snapshot -------------------------------------------------------------------

json TokenizerModel::state() const {
  json tokens = json::array();
  for (const Token& t : tokens_) tokens.push_back({{"text", t.text}, {"id", t.id}});
  json s = {{"kind", kKind},         {"text", text_},        {"tokens", tokens},
            {"merges", shown_},      {"learned", learned()}, {"vocab_size", shown_tokenizer_.vocab_size()},
            {"bytes", text_.size()}, {"summary", summary()}, {"table", table().to_json()}};
  if (!input_error_.empty()) s["input_error"] = input_error_;
  return s;
}

json TokenizerModel::snapshot() const { return {{"s", text_}, {"m", shown_}}; }

CommandResult TokenizerModel::restore(const json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("s") || !snapshot["s"].is_string() || !snapshot.contains("m") ||
      !snapshot["m"].is_number_integer())
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  if (CommandResult r = apply(SetMerges{snapshot["m"].get<int>()}); !r.done()) return r;
  return apply(SetSentence{snapshot["s"].get<std::string>()});
}

std::string TokenizerModel::summary() const {
  return tr_n("tokenizer.summary", static_cast<long long>(tokens_.size()),
              {{"n", format_count(tokens_.size())},
               {"bytes", format_count(text_.size())},
               {"merges", format_count(static_cast<std::uint64_t>(shown_))}});
}

TextTable TokenizerModel::table() const {
  TextTable table;
  table.caption = tr("tokenizer.table_caption");
  table.columns = {tr("tokenizer.column_token"), tr("tokenizer.column_id")};
  for (const Token& t : tokens_) table.rows.push_back({quoted(t.text), {std::to_string(t.id)}});
  return table;
}

Explanation TokenizerModel::explain_token(int index) const {
  const Token& t = tokens_[static_cast<std::size_t>(index)];
  Explanation e;
  e.title = tr("tokenizer.explain_title", {{"token", quoted(t.text)}, {"id", std::to_string(t.id)}});
  if (t.id < lm::kByteTokens) {
    e.text = tr("tokenizer.explain_byte", {{"id", std::to_string(t.id)}});
  } else {
    const auto [a, b] = shown_tokenizer_.merges()[static_cast<std::size_t>(t.id - lm::kFirstMerge)];
    e.formula = std::to_string(t.id) + " = " + std::to_string(a) + " + " + std::to_string(b);
    e.inputs = {{quoted(token_label(shown_tokenizer_.token_bytes(a))), std::to_string(a)},
                {quoted(token_label(shown_tokenizer_.token_bytes(b))), std::to_string(b)}};
    e.text = tr("tokenizer.explain_merge", {{"n", std::to_string(t.id - lm::kFirstMerge + 1)},
                                            {"a", quoted(token_label(shown_tokenizer_.token_bytes(a)))},
                                            {"b", quoted(token_label(shown_tokenizer_.token_bytes(b)))}});
  }
  return e;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void TokenizerModel::describe(const TokenizerSettings& s, json& out) {
  out["sentence"] = s.text;
  out["merges"] = s.merges;
  out["takes_sentence"] = true;
}

const WidgetKind& tokenizer_widget_kind() { return folder_widget_kind<TokenizerModel>(); }

}  // namespace neuralpath::widgets
