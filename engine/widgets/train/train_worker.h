// train_worker.h: what the attention trainer's Web Worker does with each message
// (train_protocol.h), apart from the browser: web/attention_trainer.cpp wraps it for the worker,
// and the tests drive it directly.
//
//   TrainWorker w;
//   w.handle(Train{...})   builds the lesson's TrainSession (or reuses the one built for the
//                          same text, task and sentence), from step 0 or the given state, and
//                          starts it; nothing is sent yet (an error when the lesson or the task
//                          cannot train: the page then trains in its own frames)
//   w.work(budget_ms)      trains the steps due by now at the run's pace (kStepsPerSecond),
//                          until budget_ms of the clock have passed: a progress when a curve
//                          point is new and the last progress is kProgressEveryMs old, and when
//                          the run ends. Nothing when no step is due yet
//   w.wait_ms()            while running, how long until the next step is due (0: now); the
//                          worker script sleeps that long between work() calls
//   w.handle(Pause{run})   stops, and sends where it stopped
//   w.handle(Prepare{...}) builds the session a Train of the same fields will use, trains it for
//                          kWarmUpMs and puts it back to step 0 (warm_up), and sends nothing
//                          (an error of run 0 when it cannot); ignored during a run
//
// A message for another run than the current one changes nothing (a pause that arrives after
// its run ended). Nothing here blocks: the worker yields to its event loop between work() calls,
// so a pause arriving meanwhile is handled before the next step.
#pragma once

#include "engine/widgets/train/train_protocol.h"
#include "engine/widgets/train/train_session.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::widgets::trainworker {

class TrainWorker {
 public:
  // Progress while running at most this often: each one costs the page's main thread a state to
  // read and a spotlight to compute (a frame's worth at 80 a second, 2,900 steps/s measured in
  // Chromium); 10 a second still moves the curves smoothly. Its points carry every curve point.
  static constexpr double kProgressEveryMs = 100.0;
  // Steps a prepare trains and throws away, so the first run meets no code for the first time.
  static constexpr double kWarmUpMs = 150.0;
  // A run's pace: the frames' own (TrainModel::kStepsPerFrame at 60 frames a second), so the
  // curves and the spotlight change in front of the learner over a few seconds. Unpaced, the
  // worker took the lesson's 300 steps in a third of a second and the curves appeared whole. A
  // machine slower than the pace trains as fast as it can. 0: unpaced (tests that only need
  // the steps).
  static constexpr double kStepsPerSecond = 120.0;

  explicit TrainWorker(std::function<double()> now_ms = {}, double progress_every_ms = kProgressEveryMs,
                       double steps_per_second = kStepsPerSecond);

  std::vector<Reply> handle(const Request& request);
  std::vector<Reply> work(double budget_ms);
  double wait_ms() const;
  bool running() const { return session_ && session_->running(); }
  bool built() const { return session_.has_value(); }  // a session is ready (by a prepare or a train)
  int run() const { return run_; }

 private:
  std::vector<Reply> start(const Train& train);
  void warm_up();                    // kWarmUpMs of steps, then back to step 0
  double wait_at(double now) const;  // wait_ms() at clock time `now`, running
  // session_ for these fields (kept when it is already theirs), or why it cannot be built
  std::optional<std::string> build(const std::string& text, const std::string& task, const std::string& probe,
                                   const std::string& query);
  Progress progress();  // the session now, with the curve points not yet sent

  std::function<double()> now_ms_;
  double progress_every_ms_;
  double last_progress_ms_ = 0.0;              // when the last progress went out (the run's start at first)
  std::string lesson_, task_, probe_, query_;  // what session_ was built from
  std::optional<TrainSession> session_;
  int run_ = 0;
  std::size_t points_sent_ = 0;  // of session_->curve()
  int steps_timed_ = 0;          // this run's steps and the work() time they took
  double ms_timed_ = 0.0;
  double steps_per_second_;      // the pace (0: none)
  double run_started_ms_ = 0.0;  // the pace counts from here
};

}  // namespace neuralpath::widgets::trainworker
