// playback_model.h: the course-playback board's model (widget kind "playback"; no ImGui). It runs
// the whole transformer block on a sentence once (run_block -> Trace) and walks through the
// trace's steps with a PlaybackController. The view (playback_view.h) draws it; what the
// learner does there comes back as the commands below.
//
//   commands   play, pause, toggle, step{n}, restart, seek{step}, seekStage (view only),
//              speed{rate}, voice{on}, speechEnded{step?}, setSentence{text},
//              draft{text: what the sentence field holds, typed and not run yet},
//              head{head (0-based)}, focus{token (0-based): the word the captions follow},
//              temperature{value 0.1..5: next-token softmax(z/τ)}
//   events     caption{text, step, index, kind, title, ...} on every step change;
//              playback{playing, finished, step, speed, voice, caption} on play/pause/speed/voice
//   state()    {kind, step, steps, step_kind, title, index (trace step), stage, playing,
//               finished, caption, speed, voice, head, heads, sentence, tokens, focus,
//               temperature, code, code_lines (1-based, lit now), summary, draft ("" = none),
//               field (what the sentence field holds), error (last refused sentence, or why it cannot run)}
//   snapshot   {"sentence"?, "draft"?, "step", "head", "focus"?, "temperature"?}: what the learner
//              changed; a shared link carries the words typed in the field even before they run
#pragma once
#include "engine/trace/trace.h"
#include "engine/widgets/playback/playback_settings.h"
#include "engine/widgets/widget_model.h"
#include "engine/widgets/playback/playback_controller.h"
#include "engine/lesson/limits.h"

namespace neuralpath::widgets {

// The longest sentence the board shows (its grids are T×T; more tokens would not be legible):
inline constexpr int kPlaybackMaxTokens = 16;  // the checker's figure too (read() hands it over)
// The sentence field's size (the view's buffer, less its NUL): a longer draft is cut there.
inline constexpr std::size_t kPlaybackMaxDraftBytes = 511;
// The temperature slider's range on the next-token step: a weights block's temperature is
// checked against the same (engine/lesson/limits.h).
using lesson::kMaxTemperature;
using lesson::kMinTemperature;

class PlaybackModel : public WidgetModelBase<PlaybackSettings> {
 public:
  static constexpr const char* kKind = "playback";

  struct Play {};
  struct Toggle {};
  struct StepBy {
    int n = 1;
  };
  struct Seek {
    int step = 0;
  };
  struct SeekStage {
    int stage = 0;
  };  // the flow diagram's box: the stage's step in this head
  struct Speed {
    float rate = 1;
  };
  struct Voice {
    bool on = false;
  };
  struct SpeechEnded {
    std::optional<int> step;
  };
  struct Draft {
    std::string text;
  };
  struct Focus {
    int token = 0;
  };
  struct Temperature {
    float value = 1;
  };
  struct Head {
    int head = 0;
  };
  using Command = std::variant<Play, Pause, Toggle, Restart, StepBy, Seek, SeekStage, Speed, Voice, SpeechEnded,
                               SetSentence, Draft, Focus, Temperature, Head>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;  // summary(): step n of N, its title and caption

  PlaybackModel(const PlaybackSettings& config, const lesson::Lesson& lesson, const ModelSpec& spec);

  void update(float dt);
  bool wants_another_frame() const { return controller_.animating(); }  // advance, fill
  std::vector<nlohmann::json> take_events() { return controller_.take_events(); }

  // The board is a transport (a timeline played through): {step, steps, playing, caption,
  // speed}. The page keeps its step in the learner's progress and shows it as state().playback.
  nlohmann::json transport() const;

  // For the view and the tests.
  const lesson::CodeBlock* code() const { return code_ ? &*code_ : nullptr; }
  const Trace* trace() const { return trace_ ? &*trace_ : nullptr; }
  const Step* current_step() const;
  const playback::PlaybackController& controller() const { return controller_; }
  const std::vector<int>& step_indices() const { return steps_; }  // trace indices shown, in order
  const std::string& sentence() const { return sentence_; }
  // What the sentence field holds: the words typed and not run (even none at all), the sentence
  // just refused (so the field and the message under it agree), else the sentence on the board.
  const std::string& field() const { return draft_ ? *draft_ : sentence_; }
  const std::string& error() const { return error_; }
  int head() const { return head_; }

  // Runs the block on `sentence`; on bad input returns the message and keeps the old sentence.
  std::optional<std::string> set_sentence(const std::string& sentence);

 private:
  std::optional<std::string> run(const std::string& sentence, bool announce);  // set_sentence's work
  void set_focus(int token);          // re-runs the block so the narration follows `token`
  void set_temperature(float value);  // re-runs the block at this next-token temperature
  void select_head(int head);
  void seek_stage(int stage);
  void follow_step_head();  // the head selector follows a step that belongs to one head

  std::optional<lesson::CodeBlock> code_;
  ModelSpec spec_;
  std::optional<Trace> trace_;
  std::vector<int> steps_;
  playback::PlaybackController controller_;
  std::string sentence_;
  std::optional<std::string> draft_;  // typed in the field, not run yet, or refused; a sentence that runs clears it
  std::string error_;                 // why the board is empty, or the last rejected sentence
  int head_ = 0;
  int focus_token_ = -1;      // -1 = the last word
  float temperature_ = 0.0f;  // 0 = the model's own
};

}  // namespace neuralpath::widgets
