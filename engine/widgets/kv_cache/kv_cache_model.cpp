// kv_cache_model.cpp: the KV cache's model (kv_cache_model.h). Every byte count is the engine's
// formula (kv_memory.h) or its cache's own count (KvDecoder), every time the engine's race
// (cache_race.h): this file keeps the learner's choices and reads them out for the view.
#include "engine/widgets/kv_cache/kv_cache_model.h"

#include "engine/core/error.h"
#include "engine/core/lm/decode/kv_cache.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/drawable.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>

namespace neuralpath::widgets {

using nlohmann::json;

// [SECTION] Commands -----------------------------------------------------------------------------

std::variant<KvCacheModel::Command, CommandResult> KvCacheModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "loadModel") return Command(LoadModel{});
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "setTokens") {
    if (!message.contains("T") || !message["T"].is_number_integer()) return CommandResult(tr("kv-cache.tokens_range"));
    return Command(SetTokens{message["T"].get<long long>()});
  }
  if (type == "setKvHeads")
    return command_with<Command, SetKvHeads>(int_field(message, "heads"), tr("kv-cache.kv_heads_needed"));
  if (type == "setBytes")
    return command_with<Command, SetBytes>(int_field(message, "bytes"), tr("kv-cache.bytes_range"));
  if (type == "race") return Command(Race{});
  if (type == "stop") return Command(Stop{});
  return CommandResult::not_taken(type);
}

KvCacheModel::KvCacheModel(const KvCacheSettings& settings, const lesson::Inline& caption)
    : WidgetModelBase(settings, caption), handle_(settings.model), prompt_(settings.prompt), tokens_(settings.tokens) {
  if (handle_.here_already()) arrived();  // another widget of the page has loaded it
}

std::vector<int> KvCacheModel::prompt_ids(const std::string& prompt) const {
  std::vector<int> ids{lm::kDocumentToken};  // as the writer encodes: every document began with it
  const std::vector<int> encoded = model_->tokenizer.encode(prompt);
  ids.insert(ids.end(), encoded.begin(), encoded.end());
  return ids;
}

CommandResult KvCacheModel::need_model(bool race_then) {
  handle_.ask(events_);
  pending_ = true;
  race_when_ready_ = race_when_ready_ || race_then;
  return {};
}

void KvCacheModel::arrived() {
  model_ = handle_.shared();
  const lm::LmConfig& c = model_->config;
  if (kv_heads_ <= 0 || c.heads % kv_heads_ != 0) kv_heads_ = c.heads;
  if (!read_prompt_cache().done()) {  // a restored prompt too long for this model: the block's own
    prompt_ = settings_.prompt;
    (void)read_prompt_cache();
  }
}

// The engine's cache after the prompt: the decoder reads it (a prefill) and counts its bytes.
CommandResult KvCacheModel::read_prompt_cache() {
  const std::vector<int> ids = prompt_ids(prompt_);
  const int context = model_->config.context;
  if (static_cast<int>(ids.size()) >= context)
    return tr("kv-cache.prompt_too_long", {{"n", format_count(static_cast<std::uint64_t>(context - 2))}});
  lm::KvDecoder decoder(*model_);
  decoder.prefill(ids);
  cached_tokens_ = decoder.length();
  cached_bytes_ = static_cast<std::int64_t>(decoder.cache().used_bytes());
  return {};
}

CommandResult KvCacheModel::apply(const Command& command) {
  input_error_.clear();
  if (std::holds_alternative<LoadModel>(command)) return ready() ? CommandResult{} : need_model(false);
  if (const auto* c = std::get_if<SetSentence>(&command)) {
    std::optional<std::string> why = refuse_prompt(c->text, kMaxPromptBytes, "kv-cache.too_long");
    if (!why && ready()) {
      const std::string before = std::exchange(prompt_, c->text);
      const CommandResult r = read_prompt_cache();
      if (!r.done()) {
        prompt_ = before;
        why = r.reason();
      }
    }
    if (why) return keep_input_error(why);  // the widget keeps its prompt; the message says why
    prompt_ = c->text;
    race_.reset();  // the times were for the old prompt
    racing_ = false;
    return ready() ? CommandResult{} : need_model(false);
  }
  if (const auto* c = std::get_if<SetTokens>(&command)) {
    if (c->tokens < 1 || c->tokens > kMaxTokens) return tr("kv-cache.tokens_range");
    tokens_ = c->tokens;
    return {};
  }
  if (const auto* c = std::get_if<SetKvHeads>(&command)) {
    if (!ready()) return tr("kv-cache.needs_model");
    const int h = model_->config.heads;
    if (c->heads < 1 || c->heads > h || h % c->heads != 0)
      return tr("kv-cache.kv_heads_range", {{"heads", format_count(static_cast<std::uint64_t>(h))}});
    kv_heads_ = c->heads;
    return {};
  }
  if (const auto* c = std::get_if<SetBytes>(&command)) {
    if (c->bytes != 2 && c->bytes != 4) return tr("kv-cache.bytes_range");
    bytes_ = c->bytes;
    return {};
  }
  if (std::holds_alternative<Race>(command)) {
    if (!ready()) return need_model(true);
    race_ = std::make_unique<lm::CacheRace>(*model_, prompt_ids(prompt_), settings_.rounds);
    racing_ = true;
    return {};
  }
  if (std::holds_alternative<Stop>(command)) {
    racing_ = false;
    pending_ = race_when_ready_ = false;
    return {};
  }
  return {};
}

// [SECTION] Frames -------------------------------------------------------------------------------

void KvCacheModel::update(float /*dt*/) {
  const ModelHandle::Arrival arrival = handle_.arrival(model_ != nullptr);
  if (arrival == ModelHandle::Arrival::ready) {
    arrived();
    pending_ = false;
    if (std::exchange(race_when_ready_, false)) (void)apply(Race{});
  } else if (arrival == ModelHandle::Arrival::failed) {
    pending_ = race_when_ready_ = false;
  }
  if (racing_ && race_ && race_->step(kFrameBudget)) {
    racing_ = false;
    // The race ran to its end (a learning platform's "raced" statement), with its measured times.
    const lm::CacheRace& r = *race_;
    if (r.finished() && r.rounds_done() > 0)
      events_.push_back({{"type", "kvRace"},
                         {"positions", r.positions()},
                         {"cached_s", r.cached_total()},
                         {"full_s", r.full_total()},
                         {"speedup", r.full_total() / r.cached_total()},
                         {"same_tokens", r.same_tokens()}});
  }
}

bool KvCacheModel::wants_another_frame() const { return racing_ || handle_.wants_frame(pending_, model_ != nullptr); }

// [SECTION] Numbers ------------------------------------------------------------------------------

std::vector<int> KvCacheModel::kv_head_choices() const {
  std::vector<int> choices;
  if (!model_) return choices;
  for (int g = model_->config.heads; g >= 1; --g)
    if (model_->config.heads % g == 0) choices.push_back(g);
  return choices;
}

std::optional<lm::KvMemory> KvCacheModel::memory_with(int kv_heads) const {
  if (!model_) return std::nullopt;
  return lm::kv_memory(model_->config, tokens_, kv_heads, bytes_);
}

std::optional<lm::KvMemory> KvCacheModel::memory() const { return memory_with(kv_heads_); }

json KvCacheModel::state() const {
  json s = {{"kind", kKind},        {"model", handle_.state()},  {"prompt", whole_utf8(prompt_)},
            {"tokens", tokens_},    {"kv_heads", kv_heads_},     {"bytes_per_number", bytes_},
            {"summary", summary()}, {"table", table().to_json()}};
  s["shape"] = nullptr;
  s["memory"] = nullptr;
  s["cache"] = nullptr;
  if (model_) {
    const lm::LmConfig& c = model_->config;
    s["shape"] = {{"layers", c.layers},
                  {"heads", c.heads},
                  {"head_dim", c.head_dim()},
                  {"context", c.context},
                  {"kv_head_choices", kv_head_choices()}};
    const lm::KvMemory m = *memory();
    s["memory"] = {{"per_head_per_token", m.per_head_per_token},
                   {"per_layer_per_token", m.per_layer_per_token},
                   {"per_token", m.per_token},
                   {"total", m.total},
                   {"multi_head_total", memory_with(c.heads)->total}};
    s["cache"] = {{"tokens", cached_tokens_},
                  {"bytes", cached_bytes_},
                  {"formula_bytes", lm::kv_memory(c, cached_tokens_, c.heads, 4).total}};
  }
  s["race"] = nullptr;
  if (race_) {
    const lm::CacheRace& r = *race_;
    json cached = json::array(), full = json::array();
    for (int i = 0; i < r.positions(); ++i) {
      cached.push_back(r.cached_seconds(i));
      full.push_back(r.full_seconds(i));
    }
    const bool timed = r.rounds_done() > 0;
    s["race"] = {{"running", racing_},
                 {"finished", r.finished()},
                 {"done", r.units_done()},
                 {"total", r.units_total()},
                 {"prompt_tokens", r.prompt_length()},
                 {"positions", r.positions()},
                 {"cached_s", timed ? json(r.cached_total()) : json(nullptr)},
                 {"full_s", timed ? json(r.full_total()) : json(nullptr)},
                 {"speedup", timed ? json(r.full_total() / r.cached_total()) : json(nullptr)},
                 {"same_tokens", r.same_tokens()},
                 {"cached", cached},
                 {"full", full}};
  }
  if (!input_error_.empty()) s["input_error"] = input_error_;
  return s;
}

json KvCacheModel::snapshot() const { return {{"p", prompt_}, {"t", tokens_}, {"g", kv_heads_}, {"b", bytes_}}; }

CommandResult KvCacheModel::restore(const json& snapshot) {
  const auto bad = [] { return CommandResult(tr("widgets.bad_snapshot", {{"kind", kKind}})); };
  if (!snapshot.is_object() || !snapshot.contains("p") || !snapshot["p"].is_string()) return bad();
  for (const char* key : {"t", "g", "b"})
    if (!snapshot.contains(key) || !snapshot[key].is_number_integer()) return bad();
  const std::string prompt = snapshot["p"].get<std::string>();
  const long long t = snapshot["t"].get<long long>();
  const int g = snapshot["g"].get<int>(), b = snapshot["b"].get<int>();
  if (t < 1 || t > kMaxTokens || g < 0 || g > 1024 || (b != 2 && b != 4) || prompt.size() > kMaxPromptBytes ||
      refuse_undrawable(prompt))
    return bad();
  if (model_ && (g < 1 || model_->config.heads % g != 0)) return bad();
  const std::string before = std::exchange(prompt_, prompt);
  if (model_ && !read_prompt_cache().done()) {
    prompt_ = before;
    return bad();
  }
  tokens_ = t;
  kv_heads_ = g;  // checked against the model's heads when it arrives
  bytes_ = b;
  race_.reset();
  racing_ = false;
  return {};
}

std::string KvCacheModel::summary() const {
  const auto m = memory();
  if (!m) return tr("kv-cache.summary_waiting");
  std::string s = tr("kv-cache.summary", {{"T", format_count(static_cast<std::uint64_t>(tokens_))},
                                          {"g", format_count(static_cast<std::uint64_t>(kv_heads_))},
                                          {"per_token", format_bytes(static_cast<double>(m->per_token))},
                                          {"total", format_bytes(static_cast<double>(m->total))}});
  if (race_ && race_->rounds_done() > 0) {
    s.push_back(' ');
    s.append(tr("kv-cache.summary_race", {{"cached", format_seconds(race_->cached_total())},
                                          {"full", format_seconds(race_->full_total())},
                                          {"ratio", format_setting(race_->full_total() / race_->cached_total())}}));
  }
  return s;
}

TextTable KvCacheModel::table() const {
  TextTable table;
  if (!model_) return table;
  table.caption = tr("kv-cache.table_caption", {{"T", format_count(static_cast<std::uint64_t>(tokens_))}});
  table.columns = {tr("kv-cache.column_heads"), tr("kv-cache.column_per_token"), tr("kv-cache.column_total")};
  for (int g : kv_head_choices()) {
    const lm::KvMemory m = *memory_with(g);
    table.rows.push_back(
        {format_count(static_cast<std::uint64_t>(g)),
         {format_bytes(static_cast<double>(m.per_token)), format_bytes(static_cast<double>(m.total))}});
  }
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void KvCacheModel::describe(const KvCacheSettings& s, json& out) {
  out["model"] = s.model;
  out["prompt"] = s.prompt;
  out["takes_sentence"] = true;
  out["choices"] = choices(tr("kv-cache.actions"), json::array({choice(tr("kv-cache.race"), {{"type", "race"}})}));
}

const WidgetKind& kv_cache_widget_kind() { return folder_widget_kind<KvCacheModel>(); }

}  // namespace neuralpath::widgets
