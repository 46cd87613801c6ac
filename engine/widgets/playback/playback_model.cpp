// playback_model.cpp: running the block, the commands, state and snapshot of the board.
//
// [SECTION] Construction and the sentence
// [SECTION] Commands
// [SECTION] State and snapshot
#include "playback_model.h"

#include "playback_steps.h"
#include "engine/widgets/widget_kinds.h"

#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/core/tokenizer.h"
#include "engine/widgets/drawable.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::widgets {

using nlohmann::json;
using namespace playback;

// [SECTION] Construction and the sentence ------------------------------------------------------

PlaybackModel::PlaybackModel(const PlaybackSettings& config, const lesson::Lesson& lesson, const ModelSpec& spec)
    : WidgetModelBase(config, {}), spec_(spec) {                     // the board has no caption: its code block speaks
  if (settings_.heads > 0) spec_.attention.heads = settings_.heads;  // the block's "heads:" wins over the weights'
  if (!settings_.code.empty())
    if (const lesson::Block* block = lesson::find_block(lesson, settings_.code))
      if (const auto* code = std::get_if<lesson::CodeBlock>(&block->content)) code_ = *code;
  set_sentence(settings_.sentence);  // a bad lesson sentence leaves the board empty, saying why
  controller_.take_events();         // the first caption is on the board; nothing changed for the page yet
}

std::optional<std::string> PlaybackModel::set_sentence(const std::string& sentence) { return run(sentence, true); }

std::optional<std::string> PlaybackModel::run(const std::string& sentence, bool announce) {
  const bool rerun = trace_.has_value() && sentence == sentence_;  // same words, new focus or temperature
  Trace trace;
  try {
    if (auto why = refuse_undrawable(sentence)) throw InputError(*why);  // shown as "?" or "�" otherwise
    const std::size_t tokens = tokenize(sentence).size();
    if (tokens == 0) throw InputError(tr("playback-ui.empty"));
    if (tokens > static_cast<std::size_t>(kPlaybackMaxTokens))
      throw InputError(
          tr("playback.too_long", {{"n", std::to_string(tokens)}, {"max", std::to_string(kPlaybackMaxTokens)}}));
    TraceOptions options;
    options.mask = settings_.causal ? Mask::causal_mask() : Mask::none();
    // The learner's focus word, if this sentence still has it (a new sentence starts at its last word).
    if (sentence == sentence_ && focus_token_ >= 0) options.focus_token = focus_token_;
    ModelSpec spec = spec_;
    spec.temperature = temperature_ > 0.0f ? temperature_ : spec_.temperature;
    trace = run_block(spec, sentence, options);
  } catch (const InputError& e) {
    error_ = e.what();
    return error_;
  }
  trace_ = std::move(trace);
  sentence_ = sentence;
  focus_token_ = trace_->focus_token;
  error_.clear();
  steps_ = select_steps(*trace_, settings_.steps);
  head_ = std::clamp(head_, 0, std::max(trace_->heads - 1, 0));
  std::vector<CaptionStep> captions;
  for (int i : steps_) {
    const Step& s = trace_->steps[static_cast<std::size_t>(i)];
    captions.push_back({s.narration, step_kind_name(s.kind), s.title, i});
  }
  if (rerun)
    controller_.replace_captions(std::move(captions), announce);
  else
    controller_.set_steps(std::move(captions));
  follow_step_head();
  return std::nullopt;
}

const Step* PlaybackModel::current_step() const {
  if (!trace_ || steps_.empty()) return nullptr;
  return &trace_->steps[static_cast<std::size_t>(steps_[static_cast<std::size_t>(controller_.index())])];
}

void PlaybackModel::follow_step_head() {
  if (const Step* s = current_step(); s && s->head >= 0) head_ = s->head;
}

void PlaybackModel::update(float dt) {
  const int before = controller_.index();
  controller_.update(dt);
  if (controller_.index() != before) follow_step_head();
}

// [SECTION] Commands ---------------------------------------------------------------------------

namespace {

std::optional<int> integer_field(const json& message, const char* key) {
  if (!message.contains(key) || !message[key].is_number()) return std::nullopt;
  const double v = message[key].get<double>();
  if (!std::isfinite(v) || v != std::floor(v) || std::abs(v) > 1e6) return std::nullopt;
  return static_cast<int>(v);
}

// A refusal in the learner's words (the catalogue's [playback-ui] section).
CommandResult refused(const char* key, const TextArgs& args = {}) {
  return CommandResult(tr(std::string("playback-ui.") + key, args));
}

// A number field between `min` and `max`, or its refusal: "<name>_number" when it is not a
// number, "<name>_range" outside.
std::variant<float, CommandResult> number_in(const json& message, const char* key, double min, double max,
                                             const std::string& name) {
  if (!message.contains(key) || !message[key].is_number()) return refused((name + "_number").c_str());
  const double v = message[key].get<double>();
  if (!(v >= min && v <= max)) return refused((name + "_range").c_str());
  return static_cast<float>(v);
}

// What the field keeps of `text`: at most the view's buffer, cut at a character's start.
std::string field_text(const std::string& text) {
  if (text.size() <= kPlaybackMaxDraftBytes) return text;
  std::size_t end = kPlaybackMaxDraftBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace

std::variant<PlaybackModel::Command, CommandResult> PlaybackModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "play") return Play{};
  if (type == "pause") return Pause{};
  if (type == "restart") return Restart{};
  if (type == "step") {
    const auto n = message.contains("n") ? integer_field(message, "n") : std::optional<int>(1);
    if (!n) return refused("step_whole");
    return StepBy{*n};
  }
  if (type == "seek") return command_with<Command, Seek>(integer_field(message, "step"), refused("seek_whole"));
  if (type == "speed") {
    const auto rate = number_in(message, "rate", kMinSpeed, kMaxSpeed, "speed");
    if (const auto* refusal = std::get_if<CommandResult>(&rate)) return *refusal;
    return Speed{std::get<float>(rate)};
  }
  if (type == "voice") {
    if (!message.contains("on") || !message["on"].is_boolean()) return refused("voice_bool");
    return Voice{message["on"].get<bool>()};
  }
  if (type == "speechEnded") {
    std::optional<int> step;
    if (message.contains("step")) {
      step = integer_field(message, "step");
      if (!step) return refused("speech_step");
    }
    return SpeechEnded{step};
  }
  if (type == "setSentence") {
    if (!message.contains("text") || !message["text"].is_string()) return refused("sentence_text");
    return SetSentence{message["text"].get<std::string>()};
  }
  if (type == "draft") {
    if (!message.contains("text") || !message["text"].is_string()) return refused("sentence_text");
    return Draft{message["text"].get<std::string>()};
  }
  if (type == "focus") return command_with<Command, Focus>(integer_field(message, "token"), refused("focus_whole"));
  if (type == "temperature") {
    const auto value = number_in(message, "value", kMinTemperature, kMaxTemperature, "temperature");
    if (const auto* refusal = std::get_if<CommandResult>(&value)) return *refusal;
    return Temperature{std::get<float>(value)};
  }
  if (type == "head") return command_with<Command, Head>(integer_field(message, "head"), refused("head_whole"));
  return CommandResult::not_taken(type);
}

CommandResult PlaybackModel::apply(const Command& command) {
  const int count = controller_.count();
  const int tokens = trace_ ? static_cast<int>(trace_->labels.size()) : 0;
  const int heads = trace_ ? trace_->heads : 0;
  const int before = controller_.index();
  CommandResult result = std::nullopt;
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, Play>)
          controller_.play();
        else if constexpr (std::is_same_v<C, Pause>)
          controller_.pause();
        else if constexpr (std::is_same_v<C, Toggle>)
          controller_.toggle();
        else if constexpr (std::is_same_v<C, Restart>)
          controller_.restart();
        else if constexpr (std::is_same_v<C, StepBy>)
          controller_.step(c.n);
        else if constexpr (std::is_same_v<C, Seek>) {
          if (c.step < 0 || c.step >= count)
            result = refused("seek_range", {{"last", std::to_string(std::max(count - 1, 0))}});
          else
            controller_.seek(c.step);
        } else if constexpr (std::is_same_v<C, SeekStage>)
          seek_stage(c.stage);
        else if constexpr (std::is_same_v<C, Speed>)
          controller_.set_speed(c.rate);
        else if constexpr (std::is_same_v<C, Voice>)
          controller_.set_voice(c.on);
        else if constexpr (std::is_same_v<C, SpeechEnded>)
          controller_.speech_ended(c.step);  // a stale end does nothing
        else if constexpr (std::is_same_v<C, SetSentence>) {
          if (auto problem = set_sentence(c.text)) {
            result = refused("sentence_refused", {{"problem", *problem}});
            draft_ = field_text(c.text);  // the field keeps the refused words, beside the message about them
          } else {
            draft_.reset();
          }
        } else if constexpr (std::is_same_v<C, Draft>) {
          if (c.text == sentence_)
            draft_.reset();
          else
            draft_ = field_text(c.text);
        } else if constexpr (std::is_same_v<C, Focus>) {
          if (c.token < 0 || c.token >= tokens)
            result = refused("focus_range", {{"last", std::to_string(std::max(tokens - 1, 0))}});
          else
            set_focus(c.token);
        } else if constexpr (std::is_same_v<C, Temperature>)
          set_temperature(c.value);
        else if constexpr (std::is_same_v<C, Head>) {
          if (c.head < 0 || c.head >= heads)
            result = refused("head_range", {{"last", std::to_string(std::max(heads - 1, 0))}});
          else
            select_head(c.head);
        }
      },
      command);
  if (controller_.index() != before) follow_step_head();
  return result;
}

void PlaybackModel::set_focus(int token) {
  if (!trace_ || token == trace_->focus_token) return;
  focus_token_ = token;
  run(sentence_, true);  // same sentence, same step: the captions now follow `token`
}

void PlaybackModel::set_temperature(float value) {
  value = std::clamp(value, kMinTemperature, kMaxTemperature);
  if (!trace_ || value == trace_->next.temperature) return;
  temperature_ = value;
  run(sentence_, false);  // live while the slider moves: new numbers, no caption event per frame
}

void PlaybackModel::select_head(int head) {
  if (!trace_) return;
  head_ = std::clamp(head, 0, trace_->heads - 1);
  const Step* now = current_step();
  if (!now || now->head < 0 || now->head == head_) return;
  // Show the same calculation in the chosen head: the step of the same kind for that head.
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const Step& s = trace_->steps[static_cast<std::size_t>(steps_[k])];
    if (s.kind == now->kind && s.head == head_) {
      controller_.seek(static_cast<int>(k));
      return;
    }
  }
}

void PlaybackModel::seek_stage(int stage) {
  if (!trace_) return;
  int first = -1;
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const Step& s = trace_->steps[static_cast<std::size_t>(steps_[k])];
    if (static_cast<int>(stage_of(s.kind)) != stage) continue;
    if (first < 0) first = static_cast<int>(k);
    if (s.head < 0 || s.head == head_) {
      controller_.seek(static_cast<int>(k));
      return;
    }
  }
  if (first >= 0) controller_.seek(first);
}

// [SECTION] State and snapshot -----------------------------------------------------------------

json PlaybackModel::transport() const {
  const CaptionStep* caption = controller_.current();
  return {{"step", controller_.index()},
          {"steps", controller_.count()},
          {"playing", controller_.playing()},
          {"caption", caption ? caption->caption : ""},
          {"speed", controller_.speed()}};
}

json PlaybackModel::state() const {
  const CaptionStep* caption = controller_.current();
  const Step* step = current_step();
  json tokens = json::array();
  if (trace_) tokens = trace_->labels;
  json lines = json::array();
  if (step && code_) lines = code_lines_for(*code_, step->kind);
  return {{"kind", kKind},
          {"step", controller_.index()},
          {"steps", controller_.count()},
          {"step_kind", caption ? caption->kind : ""},
          {"title", caption ? caption->title : ""},
          {"index", caption ? caption->index : -1},
          {"stage", step ? stage_label(stage_of(step->kind)) : ""},
          {"playing", controller_.playing()},
          {"finished", controller_.finished()},
          {"caption", caption ? caption->caption : ""},
          {"speed", controller_.speed()},
          {"voice", controller_.voice()},
          {"head", head_},
          {"heads", trace_ ? trace_->heads : 0},
          {"sentence", sentence_},
          {"tokens", tokens},
          {"focus", trace_ ? trace_->focus_token : -1},
          {"temperature", trace_ ? trace_->next.temperature : spec_.temperature},
          {"code", settings_.code},
          {"code_lines", lines},
          {"summary", summary()},
          {"draft", draft_.value_or(std::string())},
          {"field", field()},
          {"error", error_}};
}

std::string PlaybackModel::summary() const {
  const CaptionStep* caption = controller_.current();
  if (!caption) return tr("playback.cannot_run", {{"error", error_}});
  return tr("playback-ui.summary", {{"n", std::to_string(controller_.index() + 1)},
                                    {"total", std::to_string(controller_.count())},
                                    {"title", caption->title},
                                    {"caption", caption->caption}});
}

json PlaybackModel::snapshot() const {
  json s = {{"step", controller_.index()}, {"head", head_}};
  if (sentence_ != settings_.sentence) s["sentence"] = sentence_;
  if (draft_) s["draft"] = *draft_;  // even "": the learner emptied the field
  if (trace_ && focus_token_ >= 0 && focus_token_ != static_cast<int>(trace_->labels.size()) - 1)
    s["focus"] = focus_token_;
  if (temperature_ > 0.0f) s["temperature"] = temperature_;
  return s;
}

CommandResult PlaybackModel::restore(const json& snapshot) {
  if (!snapshot.is_object()) return refused("snapshot_bad");
  // Each key as the command that sets it, all parsed before anything changes: a snapshot with a
  // field of the wrong kind changes nothing.
  static const std::pair<const char*, std::pair<const char*, const char*>> fields[] = {
      {"sentence", {"setSentence", "text"}}, {"draft", {"draft", "text"}}, {"temperature", {"temperature", "value"}},
      {"focus", {"focus", "token"}},         {"step", {"seek", "step"}},   {"head", {"head", "head"}}};
  std::vector<Command> plan;
  for (const auto& [key, command] : fields) {
    if (!snapshot.contains(key)) continue;
    auto parsed = parse({{"type", command.first}, {command.second, snapshot[key]}});
    if (std::holds_alternative<CommandResult>(parsed)) return refused("snapshot_bad");
    plan.push_back(std::get<Command>(parsed));
  }
  for (const Command& c : plan)
    if (CommandResult r = apply(c); !r.done()) return r;  // e.g. a step past this sentence's end
  return std::nullopt;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void PlaybackModel::describe(const PlaybackSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  out["steps"] = w.steps;
  out["code"] = w.code;
  out["takes_sentence"] = true;
  out["transport"] = true;
}

const WidgetKind& playback_widget_kind() { return folder_widget_kind<PlaybackModel>(); }

}  // namespace neuralpath::widgets
