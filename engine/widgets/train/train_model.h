// train_model.h: the train widget's model (no ImGui). The learner trains the lesson's model on
// one of its ```task blocks and watches attention form: a TrainSession (train_session.h) that
// update() advances a few steps a frame within a time budget, the held-out loss and accuracy
// curves, where the query word of the block's sentence looks (trained or hand-set weights), and
// the learner's own sentence.
//
//   commands   train (start or resume)  pause  resetTraining  setSeed{seed}
//              useTrained{trained: bool}  setSentence{text}  trainSteps{n}  explain{what}
//              worker{message} (a reply of the trainer worker, train_protocol.h)
//              prepareTrainer (the view sends it when the widget comes on screen: the worker
//              loads and builds its trainer before the first Train; nothing without workers)
//              ("reset" is the App's: it clears the learner's progress; "step" is the playback's)
//   state()    {kind, task, sentence, query, step, total_steps, running, finished, seed,
//               learning_rate, trained, steps_per_second, longest_slice_ms, slice_budget_ms, held_out,
//               loss, accuracy,
//               curve[{step, loss, accuracy}], spotlight{tokens, weights, query, top,
//               heads?[head][token], head_tops?[head]} (heads: with several),
//               custom{sentence, tokens, weights, query, top, note?}|null, summary, table,
//               error?, input_error?}
//   snapshot   {"seed", "steps", "trained", "sentence"?}: training is deterministic, so restore
//              replays the steps and lands on the same weights
//   events     {"type": "trained", step, total_steps, loss, accuracy, seed} once a run reaches
//              its last step (a learning platform's "trained" statement); not for a restored run
//              {"type": "train-worker", message} a request for the trainer worker (below)
//
// Where the steps run. Natively (tests, the CLI) and in a page without workers, update() trains
// a slice per frame. A page that has the trainer worker says so once, train_in_workers(true):
// then Train sends the worker this session's state (train_protocol.h; the page's script adds
// the lesson's text and posts it), the worker trains, and each of its progress replies, handed
// back as the command worker{message}, puts this session where the worker is (adopt). No frame
// trains. Pause keeps the step on screen (what the worker took since its last progress is
// dropped); commands that need the weights now (trainSteps, reset, a new seed, a restore) stop
// the worker's run first and work here, as natively. A worker that fails (its script did not load,
// the lesson would not build there) is said once in state().worker_error, and the run goes on
// in the frames from where it was.
#pragma once
#include "engine/widgets/widget_model.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/train/train_protocol.h"
#include "engine/widgets/train/train_session.h"
#include "engine/widgets/train/train_settings.h"
#include "engine/lesson/limits.h"

#include <cstdint>
#include <utility>

namespace neuralpath::widgets {

class TrainModel : public WidgetModelBase<TrainSettings> {
 public:
  static constexpr const char* kKind = "train";
  static constexpr int kMaxTokens =
      48;  // a row of weights with each cell's terms; the checker's figure too (read() hands it over)
  // Per frame: at most kStepsPerFrame steps (slow enough to watch the curves and the spotlight
  // move: the default 300 steps take about 2.5 s at 60 frames a second), and never more than
  // kFrameBudgetMs of work (a slow phone takes fewer steps, never a longer frame).
  static constexpr double kFrameBudgetMs = 8.0;
  static constexpr int kStepsPerFrame = 2;
  // The budget follows the frames (update's dt): a frame later than kLateFrame (a 30 fps frame
  // is 33.3 ms; the browser's frames come at multiples of 16.7) halves it, down to kMinBudgetMs;
  // frames on time let it grow back by 1 ms a frame. The page's own drawing costs differ from
  // machine to machine (SwiftShader draws on the CPU); this keeps the sum within a 30 fps frame.
  static constexpr float kLateFrame = 0.040f;
  static constexpr double kMinBudgetMs = 1.0;
  static constexpr int kMaxStepsAtOnce = 100000;
  static constexpr std::int64_t kMaxSeed = 2147483647;  // the seed field holds an int

  struct ResetTraining {};
  struct SetSeed {
    std::int64_t seed = 0;
  };
  struct UseTrained {
    bool trained = true;
  };
  struct TrainSteps {
    int n = 1;
  };
  struct Explain {
    std::string what;
  };               // "loss", "accuracy", "learning_rate"
  struct Worker {  // a reply from the trainer worker
    trainworker::Reply reply;
  };
  struct PrepareTrainer {};
  using Command = std::variant<Train, Pause, ResetTraining, SetSeed, UseTrained, SetSentence, TrainSteps, Explain,
                               Worker, PrepareTrainer>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  // `session` is nullopt when the widget cannot train (`error` says why, for the learner).
  // `built`: the lesson's own weights were trained (`lesson-weights: trained`, or the block says
  // so), so the switch compares with those, not with hand-set ones.
  TrainModel(const TrainSettings& settings, const lesson::Inline& caption, std::optional<TrainSession> session,
             std::string error = {}, bool built = false);
  // The model for a ```train block of `lesson`: a session on the task the block names.
  static TrainModel from_lesson(const TrainSettings& settings, const lesson::Inline& caption,
                                const lesson::Lesson& lesson, const ModelSpec& spec);

  void update(float dt);  // a running session trains one slice (unless a worker trains it)
  bool wants_another_frame() const { return session_ && session_->running() && !in_worker(); }

  // The page has the trainer worker (web/shell/np-train.js): training runs there. Set once at
  // start, before a lesson loads; a capability of the page, like its canvas.
  static void train_in_workers(bool yes);

  TextTable table() const;

  // For the view (session() only when has_session()).
  bool has_session() const { return session_.has_value(); }
  const TrainSession& session() const { return *session_; }
  const std::string& error() const { return error_; }
  const SpotlightNow& shown() const { return shown_; }  // the block's sentence, weights per the switch
  const std::optional<SpotlightNow>& custom() const { return custom_; }
  const std::string& custom_sentence() const { return custom_sentence_; }
  // Under the learner's sentence when the chips alone do not say it all: a sentence of only the
  // query has no other word to look at (one chip, no percentages). Empty otherwise.
  std::string custom_note() const;
  // The last sentence asked for (typed, or sent by a command or a shared link), accepted or
  // refused, and how many have been asked: the view's box follows it.
  const std::string& asked_sentence() const { return asked_sentence_; }
  std::uint64_t sentences_asked() const { return sentences_asked_; }

  Explanation explain(const std::string& what) const;
  // The catalogue key for the lesson's own weights: `hand_set` ("train.weights_hand_set"), or its
  // "_built" twin when they were trained.
  std::string other_weights(const std::string& hand_set) const { return built_ ? hand_set + "_built" : hand_set; }

 private:
  void follow();           // recomputes the spotlights after the weights or the switch changed
  void report_finished();  // the "trained" event, once per run that reaches its last step
  bool in_worker() const;  // training runs in the worker (the page has one, and it has not failed)
  template <class Request>
  Request worker_request() const;  // a Train or Prepare for this session (task, probe, query)
  void prepare_worker();           // the worker loads and builds its trainer now (once)
  void start_worker();             // a new run there, from this session's state
  void stop_worker();              // its run ends; its replies still in flight are ignored
  CommandResult on_reply(const trainworker::Reply& reply);

  std::optional<TrainSession> session_;
  std::string error_;
  SpotlightNow shown_, hand_set_;
  std::optional<SpotlightNow> custom_;
  std::string custom_sentence_, asked_sentence_;
  std::uint64_t sentences_asked_ = 0;
  std::size_t followed_points_ = 0;  // curve points the spotlights reflect
  bool built_ = false;
  double budget_ms_ = kFrameBudgetMs;  // this frame's slice
  bool finish_reported_ = false;       // this run's "trained" event is sent (or it was restored finished)
  int worker_run_ = 0;                 // the worker's run whose replies are taken (0: none yet)
  bool worker_prepared_ = false;       // a prepare went out (or a train did): the worker is loading
  bool worker_running_ = false;        // that run is training
  std::string worker_error_;           // why the worker failed: training stays in the frames
  double worker_steps_per_second_ = 0.0;
};

}  // namespace neuralpath::widgets
