// playback_widget.cpp: the board's model side — running the block, commands, state, events,
// the frame's layout and the keyboard. The parts of the board draw in board_view.cpp and
// playback_controls.cpp.
//
// [SECTION] Construction and the sentence
// [SECTION] Commands and state
// [SECTION] Frame: update, layout, keys
#include "playback_widget.h"

#include "engine/core/catalogue.h"

#include "board_paint.h"
#include "code_panel.h"
#include "playback_steps.h"

#include "engine/core/block.h"
#include "engine/core/error.h"
#include "engine/core/tokenizer.h"
#include "engine/ui/widgets/registry.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace neuralpath::ui {

using nlohmann::json;
using namespace playback;

// [SECTION] Construction and the sentence ------------------------------------------------------

PlaybackWidget::PlaybackWidget(const lesson::Playback& config, const lesson::Lesson& lesson, const ModelSpec& spec)
    : config_(config), spec_(spec) {
  if (config_.heads > 0) spec_.attention.heads = config_.heads;  // the block's "heads:" wins over the weights'
  if (!config_.code.empty())
    if (const lesson::Block* block = lesson::find_block(lesson, config_.code))
      if (const auto* code = std::get_if<lesson::CodeBlock>(&block->content)) code_ = *code;
  set_sentence(config_.sentence);  // a bad lesson sentence leaves the board empty, saying why
  controller_.take_events();  // the first caption is on the board; nothing changed for the page yet
}

std::optional<std::string> PlaybackWidget::set_sentence(const std::string& sentence) { return run(sentence, true); }

std::optional<std::string> PlaybackWidget::run(const std::string& sentence, bool announce) {
  const bool rerun = trace_.has_value() && sentence == sentence_;  // same words, new focus or temperature
  Trace trace;
  try {
    if (tokenize(sentence).size() > static_cast<std::size_t>(kPlaybackMaxTokens))
      throw InputError(tr("playback.too_long", {{"max", std::to_string(kPlaybackMaxTokens)}}));
    TraceOptions options;
    options.mask = config_.causal ? Mask::causal_mask() : Mask::none();
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
  std::snprintf(input_, sizeof input_, "%s", sentence.c_str());
  error_.clear();
  steps_ = select_steps(*trace_, config_.steps);
  head_ = std::clamp(head_, 0, std::max(trace_->heads - 1, 0));
  std::vector<CaptionStep> captions;
  for (int i : steps_) {
    const Step& s = trace_->steps[static_cast<std::size_t>(i)];
    captions.push_back({s.narration, step_kind_name(s.kind), s.title, i});
  }
  if (rerun) controller_.replace_captions(std::move(captions), announce);
  else controller_.set_steps(std::move(captions));
  if (const Step* s = current_step(); s && s->head >= 0) head_ = s->head;
  return std::nullopt;
}

const Step* PlaybackWidget::current_step() const {
  if (!trace_ || steps_.empty()) return nullptr;
  return &trace_->steps[static_cast<std::size_t>(steps_[static_cast<std::size_t>(controller_.index())])];
}

float PlaybackWidget::fill() const { return reduced_motion_ ? 1.0f : controller_.fill_progress(); }

// [SECTION] Commands and state -----------------------------------------------------------------

namespace {

std::optional<int> integer_field(const json& message, const char* key) {
  if (!message.contains(key) || !message[key].is_number()) return std::nullopt;
  const double v = message[key].get<double>();
  if (!std::isfinite(v) || v != std::floor(v) || std::abs(v) > 1e6) return std::nullopt;
  return static_cast<int>(v);
}

}  // namespace

CommandResult PlaybackWidget::command(const json& message) {
  const std::string type = message.value("type", std::string());
  const int count = controller_.count();
  if (type == "play") { controller_.play(); return std::nullopt; }
  if (type == "pause") { controller_.pause(); return std::nullopt; }
  if (type == "restart") { controller_.restart(); return std::nullopt; }
  if (type == "step") {
    const auto n = message.contains("n") ? integer_field(message, "n") : std::optional<int>(1);
    if (!n) return "step: n must be a whole number of steps, e.g. 1 or -1";
    controller_.step(*n);
    return std::nullopt;
  }
  if (type == "seek") {
    const auto step = integer_field(message, "step");
    if (!step || *step < 0 || *step >= count)
      return "seek: step must be a whole number from 0 to " + std::to_string(std::max(count - 1, 0));
    controller_.seek(*step);
    return std::nullopt;
  }
  if (type == "speed") {
    if (!message.contains("rate") || !message["rate"].is_number()) return "speed: rate must be a number from 0.5 to 2";
    const double rate = message["rate"].get<double>();
    if (!(rate >= kMinSpeed && rate <= kMaxSpeed)) return "speed: rate must be from 0.5 to 2";
    controller_.set_speed(static_cast<float>(rate));
    return std::nullopt;
  }
  if (type == "voice") {
    if (!message.contains("on") || !message["on"].is_boolean()) return "voice: on must be true or false";
    controller_.set_voice(message["on"].get<bool>());
    return std::nullopt;
  }
  if (type == "speechEnded") {
    std::optional<int> step;
    if (message.contains("step")) {
      step = integer_field(message, "step");
      if (!step) return "speechEnded: step must be a whole number";
    }
    controller_.speech_ended(step);  // a stale or paused end is not an error: it just does nothing
    return std::nullopt;
  }
  if (type == "setSentence") {
    if (!message.contains("text") || !message["text"].is_string()) return "setSentence: text must be a string";
    if (auto problem = set_sentence(message["text"].get<std::string>())) return "setSentence: " + *problem;
    return std::nullopt;
  }
  if (type == "focus") {  // the word the narration follows
    const auto token = integer_field(message, "token");
    const int tokens = trace_ ? static_cast<int>(trace_->labels.size()) : 0;
    if (!token || *token < 0 || *token >= tokens)
      return "focus: token must be a whole number from 0 to " + std::to_string(std::max(tokens - 1, 0));
    set_focus(*token);
    return std::nullopt;
  }
  if (type == "temperature") {
    if (!message.contains("value") || !message["value"].is_number())
      return "temperature: value must be a number from 0.1 to 5";
    const double value = message["value"].get<double>();
    if (!(value >= kMinTemperature && value <= kMaxTemperature)) return "temperature: value must be from 0.1 to 5";
    set_temperature(static_cast<float>(value));
    return std::nullopt;
  }
  if (type == "head") {
    const auto head = integer_field(message, "head");
    const int heads = trace_ ? trace_->heads : 0;
    if (!head || *head < 0 || *head >= heads)
      return "head: head must be a whole number from 0 to " + std::to_string(std::max(heads - 1, 0));
    select_head(*head);
    return std::nullopt;
  }
  return CommandResult::not_taken(type);
}

json PlaybackWidget::state() const {
  const CaptionStep* caption = controller_.current();
  const Step* step = current_step();
  json tokens = json::array();
  if (trace_) tokens = trace_->labels;
  json lines = json::array();
  if (step && code_) lines = code_lines_for(*code_, step->kind);
  return {{"kind", "playback"},
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
          {"code", config_.code},
          {"code_lines", lines},
          {"error", error_}};
}

std::vector<json> PlaybackWidget::take_events() {
  for (json& e : controller_.take_events()) events_.push_back(std::move(e));
  std::vector<json> out;
  out.swap(events_);
  return out;
}

void PlaybackWidget::set_focus(int token) {
  if (!trace_ || token == trace_->focus_token) return;
  focus_token_ = token;
  run(sentence_, true);  // same sentence, same step: the captions now follow `token`
}

void PlaybackWidget::set_temperature(float value) {
  if (!trace_ || value == trace_->next.temperature) return;
  temperature_ = value;
  run(sentence_, false);  // live while the slider moves: new numbers, no caption event per frame
}

void PlaybackWidget::select_head(int head) {
  if (!trace_) return;
  head_ = std::clamp(head, 0, trace_->heads - 1);
  const Step* now = current_step();
  if (!now || now->head < 0 || now->head == head_) return;
  // Show the same calculation in the chosen head: the step of the same kind for that head.
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const Step& s = trace_->steps[static_cast<std::size_t>(steps_[k])];
    if (s.kind == now->kind && s.head == head_) { controller_.seek(static_cast<int>(k)); return; }
  }
}

void PlaybackWidget::seek_stage(int stage) {
  if (!trace_) return;
  int first = -1;
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const Step& s = trace_->steps[static_cast<std::size_t>(steps_[k])];
    if (static_cast<int>(stage_of(s.kind)) != stage) continue;
    if (first < 0) first = static_cast<int>(k);
    if (s.head < 0 || s.head == head_) { controller_.seek(static_cast<int>(k)); return; }
  }
  if (first >= 0) controller_.seek(first);
}

// [SECTION] Frame: update, layout, keys --------------------------------------------------------

void PlaybackWidget::update(float dt) {
  const int before = controller_.index();
  controller_.update(dt);
  if (controller_.index() != before)
    if (const Step* s = current_step(); s && s->head >= 0) head_ = s->head;
}

void PlaybackWidget::handle_keys() {
  ImGuiIO& io = ImGui::GetIO();
  if (!focused_ || io.WantTextInput) return;
  // With ImGui's keyboard navigation on and its cursor visible, space and arrows belong to it.
  if ((io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) && io.NavVisible) return;
  const int before = controller_.index();
  // A key the board used is marked as not pressed for the rest of the frame, so the page
  // (which reads keys after its blocks are drawn) does not also scroll on it.
  auto take = [&io](ImGuiKey key, bool repeat) {
    const int index = ImGui::GetKeyIndex(key);
    if (!ImGui::IsKeyPressed(index, repeat)) return false;
    io.KeysDownDuration[index] = -1.0f;
    return true;
  };
  if (take(ImGuiKey_Space, false)) controller_.toggle();
  if (take(ImGuiKey_LeftArrow, true)) controller_.step(-1);
  if (take(ImGuiKey_RightArrow, true)) controller_.step(1);
  if (controller_.index() != before)
    if (const Step* s = current_step(); s && s->head >= 0) head_ = s->head;
}

void PlaybackWidget::draw(const UiContext& ui) {
  ImGui::PushID(this);
  drawn_.clear();
  reduced_motion_ = ui.reduced_motion;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const Painter p{ui, list, &drawn_};
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, p.px(200));
  const float pad = p.px(width < p.px(520) ? 10 : 16);
  const float inner = width - 2 * pad;
  list->ChannelsSplit(2);  // the card goes behind (channel 0) once its height is known
  list->ChannelsSetCurrent(1);

  ImVec2 at(origin.x + pad, origin.y + pad);
  const float gap = p.px(14);
  if (trace_) {
    at.y += draw_flow(p, at, inner) + gap;
    // Wide: the code beside the step. Narrow: under the controls, so the caption and the
    // buttons stay right below the step the learner is watching.
    const bool side_by_side = code_ && inner >= p.px(900);
    const float code_w = side_by_side ? std::min(inner * 0.4f, p.px(560)) : inner;
    const float view_w = side_by_side ? inner - code_w - gap : inner;
    const Step* s = current_step();
    const std::vector<int> lit = code_ && s ? code_lines_for(*code_, s->kind) : std::vector<int>{};
    const float view_h = draw_step_view(p, at, view_w);
    if (side_by_side) {
      const CodeWindow window = code_window(*code_, lit, 18);
      draw_code_panel(p, ImVec2(at.x + view_w + gap, at.y), code_w, *code_, lit, window);
      at.y += std::max(view_h, code_panel_height(p, *code_, window)) + gap;
    } else {
      at.y += view_h + gap;
    }
    at.y += draw_caption(p, at, inner) + gap;
    at.y += draw_focus_picker(p, at, inner) + p.px(8);
    if (s && s->kind == StepKind::next_token) at.y += draw_temperature(p, at, inner) + p.px(8);
    at.y += draw_controls(p, at, inner) + p.px(8);
    at.y += draw_timeline(p, at, inner) + gap;
    if (code_ && !side_by_side) {
      const CodeWindow window = code_window(*code_, lit, 10);
      draw_code_panel(p, at, code_w, *code_, lit, window);
      at.y += code_panel_height(p, *code_, window) + gap;
    }
    at.y += draw_heads(p, at, inner) + gap;
  } else {
    const ImVec2 size = p.text(at, tr("playback.cannot_run", {{"error", error_}}), p.colors().bad, p.body(), 0, inner, false);
    at.y += size.y + gap;
  }
  at.y += draw_sentence_input(p, at, inner) + pad;

  const ImVec2 end(origin.x + width, at.y);
  // The board has the keyboard from a click on it until a click elsewhere (outlined meanwhile).
  if (ImGui::IsMouseClicked(0))
    focused_ = ImGui::IsMouseHoveringRect(origin, end) &&
               ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem | ImGuiHoveredFlags_ChildWindows);
  list->ChannelsSetCurrent(0);
  list->AddRectFilled(origin, end, mix(ui.colors().page, ui.colors().panel, 0.5f), p.px(10));
  list->AddRect(origin, end, focused_ ? ui.colors().accent : ui.colors().border, p.px(10), 0,
                focused_ ? p.px(2) : p.px(1));
  list->ChannelsMerge();

  handle_keys();
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, end.y - origin.y));
  ImGui::PopID();
}

std::unique_ptr<Widget> make_playback_widget(const lesson::Playback& config, const lesson::Lesson& lesson,
                                             const ModelSpec& spec) {
  return std::make_unique<PlaybackWidget>(config, lesson, spec);
}

const WidgetKind& playback_widget_kind() {
  static const WidgetKind kind = {
      "playback",
      [](const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) {
        return make_playback_widget(std::get<lesson::Playback>(block.content), lesson, spec);
      },
      [](const lesson::Block& block, nlohmann::json& out) {
        const auto& w = std::get<lesson::Playback>(block.content);
        out["sentence"] = w.sentence;
        out["causal"] = w.causal;
        out["steps"] = w.steps;
        out["code"] = w.code;
        out["takes_sentence"] = true;
        out["transport"] = true;
      }};
  return kind;
}

}  // namespace neuralpath::ui
