// train_session.h: the train widget's model (no ImGui): a Trainer stepped a slice at a time,
// within a per-frame time budget, so the page never freezes while a model learns.
//
//   start / pause / resume / reset   reset re-draws the weights from the seed (set_seed first)
//   advance(budget_ms)               trains a piece (one example) at a time until the budget is
//                                    spent (at least one piece); a step may span several frames
//   curve                            every kRecordEvery steps: batch loss, held-out loss and accuracy.
//                                    While running, a point's held-out evaluation (a forward pass
//                                    per held-out sentence, the costly part in WebAssembly) is
//                                    spread over the following slices, on a copy of that step's
//                                    weights, so no frame carries it whole
//   spotlight                        where the probe sentence's query word looks: at the last
//                                    curve point while running, at the current step once paused
//                                    (spotlight_step says which)
//   hand_set_point                   the hand-set weights' held-out loss and accuracy, measured
//                                    on the same sentences as the curve (once, when first asked)
//   use_trained / hand-set           which weights `model()` and `try_sentence` use
//   snapshot / restore               {seed, steps, running, trained}: training is deterministic,
//                                    so restoring replays the steps and lands on the same weights
#pragma once

#include "engine/core/model.h"
#include "engine/core/training.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::widgets {

struct CurvePoint {
  int step = 0;
  float batch_loss = 0.0f;  // the minibatch loss of the recorded step (0 at step 0)
  float held_out_loss = 0.0f;
  float held_out_accuracy = 0.0f;
};

struct SpotlightNow {
  std::vector<std::string> tokens;
  std::vector<float> weights;  // the query's row, mean over heads
  int query = -1;
  int top = -1;  // the most-attended token other than the query
  // With more than one head, each head's own row and its top (the multi-head lesson shows
  // heads specialising); empty with one head.
  std::vector<std::vector<float>> heads;
  std::vector<int> head_tops;
};

class TrainSession {
 public:
  static constexpr int kRecordEvery = 10;
  // A curve point measures at most this many held-out sentences (every k-th, in the task's
  // order, when it holds more): enough for a percentage, and a point costs the page a few
  // frames' spare time rather than a second (the multi-head task holds out 1,928).
  static constexpr std::size_t kMaxMeasured = 240;

  // `architecture`: the lesson's model (its hand-set weights, for the switch, and its shape).
  // `probe`/`query`: the sentence whose spotlight the widget shows as training goes.
  TrainSession(ModelSpec architecture, TrainingSet set, TrainOptions options, std::string probe, std::string query,
               std::function<double()> now_ms = {});

  void start() { running_ = !finished(); }
  void pause();                       // stops, and the spotlight catches up with the weights of this step
  void reset();                       // back to step 0 with the current seed
  void set_seed(std::uint64_t seed);  // takes effect now (a reset)
  void use_trained(bool trained) { use_trained_ = trained; }

  // Trains while running, a piece at a time (one example of a step, or one held-out sentence of
  // a curve point), until budget_ms has passed or max_steps were completed; always at least one
  // piece, so a slow machine still progresses. Returns the steps completed this call.
  int advance(double budget_ms, int max_steps = 1 << 30);
  // Runs n steps now, running or not, without a budget (a command asked for them); returns
  // the steps taken (fewer at the end of training).
  int run_steps(int n);

  bool running() const { return running_; }
  // Every step taken and the last curve point measured (a slice may still be evaluating it).
  bool finished() const { return trainer_.finished() && !pending_; }
  bool showing_trained() const { return use_trained_; }
  int step() const { return trainer_.steps_done(); }
  int total_steps() const { return trainer_.options().steps; }
  float learning_rate() const { return trainer_.learning_rate(); }
  std::uint64_t seed() const { return trainer_.options().seed; }
  Objective objective() const { return set_.objective; }
  const std::vector<CurvePoint>& curve() const { return curve_; }
  const SpotlightNow& spotlight() const { return spotlight_; }
  int spotlight_step() const { return spotlight_step_; }  // the step whose weights spotlight() shows
  // The hand-set (or the lesson's own trained) weights measured like a curve point (step 0):
  // what the switch's other side scores on the held-out sentences. Measured on the first call.
  const CurvePoint& hand_set_point() const;
  const ModelSpec& model() const;  // trained or hand-set, per the switch
  double steps_per_second() const { return steps_per_second_; }
  double longest_slice_ms() const { return longest_slice_ms_; }    // of advance(), since the last reset
  std::size_t held_out_count() const { return measured_.size(); }  // the examples accuracy is measured on

  // The query word's spotlight in any sentence, with the weights the switch selects.
  // nullopt when the sentence has no such word; throws InputError for sentences the engine refuses.
  std::optional<SpotlightNow> try_sentence(const std::string& sentence) const {
    return spotlight_in(sentence, use_trained_);
  }
  // The same with the weights named here, whatever the switch says.
  std::optional<SpotlightNow> spotlight_in(const std::string& sentence, bool trained) const;
  const std::string& probe() const { return probe_; }
  const std::string& query() const { return query_; }

  struct Snapshot {
    std::uint64_t seed = 0;
    int steps = 0;
    bool running = false;
    bool trained = true;
  };
  Snapshot snapshot() const { return {seed(), step(), running_, use_trained_}; }
  void restore(const Snapshot& s);

  // The trainer elsewhere (the page's trainer worker, train_worker.h): it builds the same
  // session, loads trainer_state() and sends back its own; adopt() puts this session where that
  // one is. `points`: the curve points it measured (those after this curve's last are added).
  // The spotlight follows the new weights. Throws InputError for a state that does not fit,
  // and then changes nothing.
  Trainer::State trainer_state() const { return trainer_.state(); }
  void adopt(const Trainer::State& state, const std::vector<CurvePoint>& points = {});

 private:
  // A curve point being measured: the weights of its step, the held-out examples done so far.
  struct PendingPoint {
    ModelSpec model;
    int step = 0;
    float batch_loss = 0.0f;
    std::size_t next = 0;
    double loss = 0.0;
    int right = 0, counted = 0;
  };
  const std::vector<Example>& measured() const { return measured_; }
  void after_step();              // at a record step: a pending point (or a point measured now)
  bool measure_one();             // one held-out example of the pending point; true when it is done
  void finish_point();            // the pending point into the curve, with its spotlight
  void flush();                   // measures the pending point whole, if there is one
  void record(float batch_loss);  // a point measured now, whole
  bool spread_ = false;           // inside advance(): points are measured over later slices
  SpotlightNow spotlight_of(const ModelSpec& model, const std::string& sentence) const;

  ModelSpec hand_set_;
  TrainingSet set_;
  std::vector<Example> measured_;  // the held-out sentences the curve is measured on
  TrainOptions options_;
  Trainer trainer_;
  std::string probe_, query_;
  std::function<double()> now_ms_;
  bool running_ = false;
  bool use_trained_ = true;
  std::vector<CurvePoint> curve_;
  SpotlightNow spotlight_;
  int spotlight_step_ = 0;
  mutable std::optional<CurvePoint> hand_set_point_;  // measured once: those weights never change
  std::optional<PendingPoint> pending_;
  double steps_per_second_ = 0.0;  // timed_steps_ over training_ms_, since the last reset
  double training_ms_ = 0.0;
  int timed_steps_ = 0;
  double longest_slice_ms_ = 0.0;
};

}  // namespace neuralpath::widgets
