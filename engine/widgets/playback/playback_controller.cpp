#include "playback_controller.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::widgets::playback {

namespace {

// Characters the reader sees, not bytes: "√16" and "-∞" are one glyph each.
int code_points(const std::string& text) {
  return static_cast<int>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

constexpr float kReadingRate = 15.0f;  // characters per second at 1×
constexpr float kLookTime = 1.0f;      // seconds to look at the board besides reading
constexpr float kFillShare = 0.6f;     // the cells fill during the first 60% of a step...
constexpr float kMaxFill = 5.0f;       // ...but never take longer than this (seconds)

}  // namespace

float timed_duration(const std::string& caption, float speed) {
  const float rate = std::clamp(std::isfinite(speed) ? speed : 1.0f, kMinSpeed, kMaxSpeed);
  return (kLookTime + static_cast<float>(code_points(caption)) / kReadingRate) / rate;
}

PlaybackController::PlaybackController(std::vector<CaptionStep> steps) : steps_(std::move(steps)) {}

const CaptionStep* PlaybackController::current() const {
  return steps_.empty() ? nullptr : &steps_[static_cast<std::size_t>(index_)];
}

float PlaybackController::duration() const {
  const CaptionStep* step = current();
  return step ? timed_duration(step->caption, speed_) : 0.0f;
}

float PlaybackController::fill_time() const { return std::min(kFillShare * duration(), kMaxFill / speed_); }

float PlaybackController::fill_progress() const {
  const float fill = fill_time();
  return fill > 0 ? std::clamp(fill_elapsed_ / fill, 0.0f, 1.0f) : 1.0f;
}

void PlaybackController::set_steps(std::vector<CaptionStep> steps) {
  steps_ = std::move(steps);
  finished_ = false;
  if (steps_.empty()) {
    index_ = 0;
    playing_ = false;
    return;
  }
  enter(std::clamp(index_, 0, count() - 1));
}

void PlaybackController::replace_captions(std::vector<CaptionStep> steps, bool announce) {
  if (steps.size() != steps_.size()) return set_steps(std::move(steps));
  const std::string before = current() ? current()->caption : std::string();
  steps_ = std::move(steps);
  if (announce && current() && current()->caption != before) emit_caption();
}

void PlaybackController::play() {
  if (steps_.empty()) return;
  if (finished_) enter(0);  // playing a finished board starts it again
  if (playing_) return;
  playing_ = true;
  emit_state();
}

void PlaybackController::pause() {
  if (!playing_) return;
  playing_ = false;
  // A paused step shows all its numbers: frozen mid-fill, half a matrix and the very cell the
  // caption quotes stayed empty (#34).
  fill_elapsed_ = std::max(fill_elapsed_, fill_time());
  emit_state();
}

void PlaybackController::step(int n) {
  if (steps_.empty() || n == 0) return;
  seek(index_ + n);
}

void PlaybackController::seek(int index) {
  if (steps_.empty()) return;
  finished_ = false;
  enter(std::clamp(index, 0, count() - 1));
}

void PlaybackController::set_speed(float rate) {
  if (!std::isfinite(rate)) return;
  const float clamped = std::clamp(rate, kMinSpeed, kMaxSpeed);
  if (clamped == speed_) return;
  // Keep the same fraction of the step done, so a speed change never skips or repeats a step.
  const float ratio = speed_ / clamped;
  play_elapsed_ *= ratio;
  fill_elapsed_ *= ratio;
  speed_ = clamped;
  emit_state();
}

void PlaybackController::set_voice(bool on) {
  if (on == voice_) return;
  voice_ = on;
  emit_state();
}

bool PlaybackController::speech_ended(std::optional<int> step) {
  if (!voice_ || !playing_ || steps_.empty()) return false;
  if (step && *step != index_) return false;  // a late end of an utterance the board moved past
  advance();
  return true;
}

void PlaybackController::update(float dt) {
  if (steps_.empty() || !(dt > 0) || !std::isfinite(dt)) return;
  dt = std::min(dt, 0.5f);  // a frame after a background tab must not skip steps
  fill_elapsed_ += dt;
  if (!playing_) return;
  play_elapsed_ += dt;
  const float timed = duration();
  if (!voice_ && play_elapsed_ >= timed) advance();
  // With a voice, the utterance's end moves the board on. Browsers sometimes never report the
  // end of a long utterance (Chrome drops it after ~15 s), so a stuck board moves on by itself
  // once the caption has had far longer than any voice would need.
  else if (voice_ && play_elapsed_ >= std::max(3.0f * timed, timed + 10.0f))
    advance();
}

void PlaybackController::advance() {
  if (index_ + 1 < count()) {
    enter(index_ + 1);
    return;
  }
  playing_ = false;
  finished_ = true;
  emit_state();
}

void PlaybackController::enter(int index) {
  index_ = index;
  play_elapsed_ = 0;
  fill_elapsed_ = 0;
  emit_caption();
}

void PlaybackController::emit_caption() {
  const CaptionStep* step = current();
  if (!step) return;
  events_.push_back({{"type", "caption"},
                     {"text", step->caption},
                     {"step", index_},
                     {"index", step->index},
                     {"steps", count()},
                     {"kind", step->kind},
                     {"title", step->title},
                     {"playing", playing_},
                     {"voice", voice_}});
}

void PlaybackController::emit_state() {
  const CaptionStep* step = current();
  events_.push_back({{"type", "playback"},
                     {"playing", playing_},
                     {"finished", finished_},
                     {"step", index_},
                     {"steps", count()},
                     {"speed", speed_},
                     {"voice", voice_},
                     {"caption", step ? step->caption : std::string()}});
}

std::vector<nlohmann::json> PlaybackController::take_events() {
  std::vector<nlohmann::json> out;
  out.swap(events_);
  return out;
}

}  // namespace neuralpath::widgets::playback
