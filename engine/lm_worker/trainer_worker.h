// trainer_worker.h: what the page's trainer worker does with each message (protocol.h), apart
// from the browser: web/lm_trainer.cpp wraps it for the Web Worker, `neuralpath-cli lm page`
// runs it natively, and the tests drive it directly.
//
//   TrainerWorker w;
//   w.open(bytes_of_the_data_file, Open{...})  -> ready + the step-0 snapshot (or an error)
//   w.handle(Train{run})                       -> nothing yet: the run is now running
//   w.work(max_steps, budget_ms)               -> trains while running, up to max_steps steps or
//                                                 until budget_ms of the clock have passed (at
//                                                 least one step); a snapshot at every measured
//                                                 step and when the run stops
//   w.handle(Pause{run}) / Text / Start        -> a snapshot
//
// A message for another run than the current one is answered with an error and changes nothing.
// Nothing here blocks or waits: the caller decides when to call work() again (the worker yields
// to its event loop between calls, so a Pause arriving meanwhile is handled before the next).
#pragma once

#include "engine/core/lm/page/page_run.h"
#include "engine/lm_worker/protocol.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lmworker {

class TrainerWorker {
 public:
  // now_ms: a clock for work()'s budget (default: std::chrono::steady_clock).
  explicit TrainerWorker(std::function<double()> now_ms = {});
  ~TrainerWorker();

  // The data file's bytes (page_data.h) and the open message: ready and a snapshot, or an error.
  std::vector<Reply> open(std::string_view data_bytes, const Open& open);
  std::vector<Reply> handle(const Request& request);  // open is refused here: it needs the bytes
  std::vector<Reply> work(int max_steps, double budget_ms);

  bool running() const { return running_; }
  bool has_run() const { return run_ != nullptr; }
  const lm::PageRun& run() const { return *run_; }  // only when has_run()
  int run_number() const { return run_number_; }

 private:
  std::vector<Reply> restart(int run, std::int64_t seed);
  Snapshot snapshot();  // everything not yet sent, with the attention of the weights now
  Error refuse(int run, std::string message) const { return Error{run, std::move(message)}; }

  std::function<double()> now_ms_;
  std::unique_ptr<lm::PageData> data_;
  lm::LmConfig config_;
  Open settings_;  // the open message (data, config, steps, prompt) and the text now
  std::unique_ptr<lm::PageRun> run_;
  int run_number_ = 0;
  bool running_ = false;
  std::optional<int> until_;
  std::size_t sent_curve_ = 0, sent_history_ = 0, sent_samples_ = 0;  // what snapshots have carried
};

// Turns one measured PageRun state into the lists a snapshot carries (exposed for the CLI).
HeadsRow heads_row(const lm::HeadsPoint& point);
Attention attention_message(const lm::AttentionOn& on);

}  // namespace neuralpath::lmworker
