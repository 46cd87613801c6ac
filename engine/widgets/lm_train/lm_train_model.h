// lm_train_model.h: the in-page language-model trainer's model (no ImGui). The training runs
// in a Web Worker (engine/lm_worker's TrainerWorker, web/lm_trainer.cpp): this model only asks
// for it and keeps what comes back. Requests leave as events {type: "lm-worker", message}
// (web/shell/np-lm.js posts them to the widget's worker); replies come back as the command
// {type: "worker", message} (engine/lm_worker/protocol.h, checked strictly). Every number it
// holds is the worker's: losses, head scores, milestones, samples, attention.
//
//   commands   train  pause  resetTraining{seed?}  setSentence{text}  setHead{layer, head}
//              worker{message}
//   state()    {kind, status, data, download, run, training{step, steps, running, loss,
//               val_loss, bigram_loss}, heads[{layer, head, previous_token, induction}],
//               phase{previous_token, induction}, curve[], samples[], sample, text, head,
//               attention{text, probe}, copy_loss{first, second}, catching_up, error, summary,
//               table, input_error?}
//   snapshot   {"seed", "step", "running", "text", "head"}: what a reload or a shared link
//              replays (training is deterministic: the worker retrains to that step)
//   events     lm-worker{message}; lmInduction{step, layer, head, score} when an induction head
//              first forms in a run, lmTrained{step, steps, loss, val_loss, induction} when a run
//              reaches its last step (a learning platform's statements); never for a replay
#pragma once
#include "engine/lm_worker/protocol.h"
#include "engine/widgets/lm_train/lm_train_settings.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/widget_model.h"

namespace neuralpath::widgets {

class LmTrainModel : public WidgetModelBase<LmTrainSettings> {
 public:
  static constexpr const char* kKind = "lm-train";

  struct ResetTraining {
    std::optional<std::int64_t> seed;
  };
  struct SetLayerHead {
    int layer = 0, head = 0;
  };
  struct Worker {  // a reply from the trainer worker
    lmworker::Reply reply;
  };
  using Command = std::variant<Train, Pause, ResetTraining, SetSentence, SetLayerHead, Worker>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  LmTrainModel(const LmTrainSettings& settings, const lesson::Inline& caption);

  TextTable table() const;

  // [SECTION] For the view
  enum class Status { idle, loading, training, paused, finished, error };
  Status status() const { return status_; }
  const std::optional<lmworker::Progress>& download() const { return download_; }
  const std::optional<lmworker::Ready>& ready() const { return ready_; }
  const lmworker::Snapshot& latest() const { return latest_; }  // losses, heads, milestones now
  const std::vector<lmworker::CurvePoint>& curve() const { return curve_; }
  const std::vector<lmworker::SampleText>& samples() const { return samples_; }
  const std::optional<lmworker::Attention>& text_attention() const { return text_attention_; }
  const std::optional<lmworker::Attention>& probe_attention() const { return probe_attention_; }
  const std::string& text() const { return text_; }
  const std::string& error() const { return error_; }
  std::int64_t seed() const { return seed_; }
  int steps() const;                    // the schedule's length (the worker's once ready)
  int layer() const { return layer_; }  // the head whose attention is shown
  int head() const { return head_; }
  int catching_up() const { return replay_until_.value_or(0); }  // the saved step being replayed to
  std::string data_url() const;                                  // models/train-<lang>.nptok

 private:
  void send(const lmworker::Request& request);
  void open_run();  // open (first time) or start (a new run), with seed_
  CommandResult on_reply(const lmworker::Reply& reply);
  void follow_milestone();      // shows the induction head once one has formed
  void report(bool replaying);  // the lmInduction and lmTrained events, once per run

  Status status_ = Status::idle;
  bool opened_ = false;  // the worker has been sent an open
  int run_ = 0;          // the current run's number (replies of others are stale)
  std::int64_t seed_ = 1;
  std::string text_, prompt_;
  std::string error_;
  std::optional<lmworker::Progress> download_;
  std::optional<lmworker::Ready> ready_;
  lmworker::Snapshot latest_;
  std::vector<lmworker::CurvePoint> curve_;
  std::vector<lmworker::HeadsRow> history_;
  std::vector<lmworker::SampleText> samples_;
  std::optional<lmworker::Attention> text_attention_, probe_attention_;
  int layer_ = 1, head_ = 0;
  bool head_chosen_ = false;                                   // the learner picked a head: milestones do not move it
  std::optional<int> replay_until_;                            // a restored run retraining to its saved step
  bool resume_after_replay_ = false;                           // ... and then training on, as it was when saved
  bool train_asked_ = false;                                   // a Train is on its way to the worker
  bool induction_reported_ = false, finish_reported_ = false;  // this run's events are sent
};

}  // namespace neuralpath::widgets
