// playback_controller.h: the clock of a course playback, with no drawing in it. It knows the
// captions in order, which one is current, whether the board is playing, at what speed, and
// whether a voice is reading the captions aloud. The board's model (playback_model.h) owns it;
// the tests drive it directly.
//
//   play / pause / toggle     start or stop advancing (play at the finished end restarts; a
//                             pause shows the step's cells whole)
//   step(n) / seek(i)         move n steps (±) or to step i; restart() = seek(0)
//   set_speed(rate)           0.5× .. 2×; scales the timed duration and the fill animation
//   set_voice(on)             on: advance when the caption's utterance ends (speech_ended)
//                             off: advance after timed_duration(caption, speed)
//   update(dt)                once per frame: animation time, timed advance
//   take_events()             {"type": "caption", text, step, index, ...} on every step change,
//                             {"type": "playback", playing, step, speed, voice, caption, ...}
//                             when playing, speed or voice change (the speech module listens)
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace neuralpath::widgets::playback {

struct CaptionStep {
  std::string caption;  // the narration sentence, spoken and shown as is
  std::string kind;     // step_kind_name(): "score", "softmax", ...
  std::string title;    // "Scores (head 1)"
  int index = 0;        // position in the full Trace (neuralpath-cli trace's steps[].index)
};

inline constexpr float kMinSpeed = 0.5f;
inline constexpr float kMaxSpeed = 2.0f;

// Seconds a caption stays up without a voice: time to read it (about 15 characters a second,
// plus a beat to look at the board), divided by the speed.
float timed_duration(const std::string& caption, float speed);

class PlaybackController {
 public:
  explicit PlaybackController(std::vector<CaptionStep> steps = {});

  // New captions (another sentence): keeps the position (clamped) and the playing state, and
  // emits the caption now under the board.
  void set_steps(std::vector<CaptionStep> steps);
  // The same steps with new numbers (a new focus word or temperature): keeps the step, the
  // timing and the animation; `announce` sends a caption event when the current one changed.
  void replace_captions(std::vector<CaptionStep> steps, bool announce);

  void play();
  void pause();
  void toggle() { playing_ ? pause() : play(); }
  void step(int n);
  void seek(int index);
  void restart() { seek(0); }
  void set_speed(float rate);
  void set_voice(bool on);
  // The utterance of step `step` (or of the current caption, when absent) has ended. Returns
  // true when it moved the board on: only with the voice on, while playing, for the current step.
  bool speech_ended(std::optional<int> step = std::nullopt);
  void update(float dt);

  int index() const { return index_; }
  int count() const { return static_cast<int>(steps_.size()); }
  bool playing() const { return playing_; }
  bool finished() const { return finished_; }
  float speed() const { return speed_; }
  bool voice() const { return voice_; }
  const CaptionStep* current() const;  // nullptr when there are no steps
  float duration() const;              // timed duration of the current caption
  float fill_progress() const;         // 0..1: how far the current step's cells have filled
  // Changes with time alone: playing, or the step's cells still filling (a pause fills them at once).
  bool animating() const { return playing_ || fill_progress() < 1.0f; }
  float play_time() const { return play_elapsed_; }

  std::vector<nlohmann::json> take_events();

 private:
  void enter(int index);  // make `index` current, restart its clocks, emit its caption
  void emit_caption();
  void emit_state();
  void advance();           // the automatic move to the next step (or the end)
  float fill_time() const;  // seconds the current step's cells take to fill

  std::vector<CaptionStep> steps_;
  int index_ = 0;
  bool playing_ = false;
  bool finished_ = false;  // played through the last step's duration/utterance
  float speed_ = 1.0f;
  bool voice_ = false;
  float play_elapsed_ = 0;  // seconds the current step has been playing
  float fill_elapsed_ = 0;  // seconds of the current step's fill animation
  std::vector<nlohmann::json> events_;
};

}  // namespace neuralpath::widgets::playback
