// playback_widget.h: the course-playback board (widget kind "playback"). It runs the whole
// transformer block on a sentence once (run_block -> Trace) and walks through the trace's
// steps with a PlaybackController: the flow diagram lights the current stage, the step's
// operands and result fill in cell by cell, the caption under the board is the step's
// narration, and the lesson's code block beside it highlights the step's lines.
//
//   commands   play, pause, step{n}, restart, seek{step}, speed{rate}, setSentence{text},
//              voice{on}, speechEnded{step?}, head{head (0-based)}, focus{token (0-based): the
//              word the captions follow}, temperature{value 0.1..5: next-token softmax(z/τ)}
//   events     caption{text, step, index, kind, title, ...} on every step change;
//              playback{playing, finished, step, speed, voice, caption} on play/pause/speed/voice
//   state()    {kind, step, steps, step_kind, title, index (trace step), stage, playing,
//               finished, caption, speed, voice, head, heads, sentence, tokens, focus,
//               temperature, code,
//               code_lines (1-based, lit now), error (last refused sentence, or why it cannot run)}
//   keys       space play/pause, ← → step: after a click on the board, until a click elsewhere
#pragma once
#include "engine/core/trace.h"
#include "engine/ui/playback/playback_controller.h"
#include "engine/ui/widget.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::ui {

namespace playback { struct Painter; }

// The longest sentence the board shows (its grids are T×T; more tokens would not be legible).
inline constexpr int kPlaybackMaxTokens = 16;
// The temperature slider's range on the next-token step.
inline constexpr float kMinTemperature = 0.1f, kMaxTemperature = 5.0f;

class PlaybackWidget : public Widget {
 public:
  PlaybackWidget(const lesson::Playback& config, const lesson::Lesson& lesson, const ModelSpec& spec);

  const char* kind() const override { return "playback"; }
  void update(float dt) override;
  bool wants_another_frame() const override { return controller_.animating(); }  // advance, fill
  void draw(const UiContext& ui) override;
  nlohmann::json state() const override;
  CommandResult command(const nlohmann::json& message) override;
  std::vector<nlohmann::json> take_events() override;

  // For tests and the board's parts.
  const Trace* trace() const { return trace_ ? &*trace_ : nullptr; }
  const Step*  current_step() const;
  const playback::PlaybackController& controller() const { return controller_; }
  const std::vector<int>& step_indices() const { return steps_; }   // trace indices shown, in order
  const std::vector<std::string>& drawn_strings() const { return drawn_; }  // last frame, caption excluded
  const std::string& error() const { return error_; }
  int head() const { return head_; }

  // Runs the block on `sentence`; on bad input returns the message and keeps the old sentence.
  std::optional<std::string> set_sentence(const std::string& sentence);

 private:
  float draw_flow(const playback::Painter& p, ImVec2 pos, float width);
  float draw_step_view(const playback::Painter& p, ImVec2 pos, float width);
  float draw_caption(const playback::Painter& p, ImVec2 pos, float width);
  float draw_heads(const playback::Painter& p, ImVec2 pos, float width);
  float draw_controls(const playback::Painter& p, ImVec2 pos, float width);
  float draw_timeline(const playback::Painter& p, ImVec2 pos, float width);
  float draw_sentence_input(const playback::Painter& p, ImVec2 pos, float width);
  void  handle_keys();  // space, ←, → while the board has the keyboard
  void  select_head(int head);
  std::optional<std::string> run(const std::string& sentence, bool announce);  // set_sentence's work
  void  set_focus(int token);          // re-runs the block so the narration follows `token`
  void  set_temperature(float value);  // re-runs the block at this next-token temperature
  float draw_focus_picker(const playback::Painter& p, ImVec2 pos, float width);
  float draw_temperature(const playback::Painter& p, ImVec2 pos, float width);
  void  seek_stage(int stage);
  float fill() const;  // the current step's animation, 1 with reduced motion

  lesson::Playback                   config_;
  std::optional<lesson::CodeBlock>   code_;
  ModelSpec                          spec_;
  std::optional<Trace>               trace_;
  std::vector<int>                   steps_;
  playback::PlaybackController       controller_;
  std::string                        sentence_;
  std::string                        error_;          // why the board is empty, or the last rejected sentence
  int                                head_ = 0;
  int                                focus_token_ = -1;   // -1 = the last word
  float                              temperature_ = 0.0f;  // 0 = the model's own
  bool                               reduced_motion_ = false;
  bool                               focused_ = false;   // clicked on last: space and arrows are the board's
  char                               input_[512] = {};
  std::vector<std::string>           drawn_;
  std::vector<nlohmann::json>        events_;
};

// A board for one Playback block (its registry entry, playback_widget_kind(), calls this).
std::unique_ptr<Widget> make_playback_widget(const lesson::Playback& config, const lesson::Lesson& lesson,
                                             const ModelSpec& spec);

}  // namespace neuralpath::ui
