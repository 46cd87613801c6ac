// train_worker.cpp: the attention trainer, message by message (train_worker.h).
#include "engine/widgets/train/train_worker.h"

#include "engine/core/error.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"
#include "engine/text/catalogue.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <chrono>

namespace neuralpath::widgets::trainworker {

TrainWorker::TrainWorker(std::function<double()> now_ms, double progress_every_ms, double steps_per_second)
    : now_ms_(std::move(now_ms)), progress_every_ms_(progress_every_ms), steps_per_second_(steps_per_second) {
  if (!now_ms_)
    now_ms_ = [] {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
}

std::vector<Reply> TrainWorker::handle(const Request& request) {
  if (const auto* train = std::get_if<Train>(&request)) return start(*train);
  if (const auto* prepare = std::get_if<Prepare>(&request)) {
    if (running()) return {};  // a run is on: its session is the one to keep
    std::optional<std::string> why = build(prepare->lesson, prepare->task, prepare->probe, prepare->query);
    if (why) return {Error{0, *why}};
    warm_up();
    return {};
  }
  const Pause& pause = std::get<Pause>(request);
  if (pause.run != run_ || !running()) return {};  // that run is over: the page has its last progress
  session_->pause();
  return {progress()};
}

// The session is built as the page's engine builds it (App::load_lesson, TrainModel::from_lesson):
// the same text, loaded the same way, gives the same model, examples and schedule. Kept for the
// next train of the same fields (a prepare builds it ahead of the first).
std::optional<std::string> TrainWorker::build(const std::string& text, const std::string& task_id,
                                              const std::string& probe, const std::string& query) {
  if (session_ && text == lesson_ && task_id == task_ && probe == probe_ && query == query_) return std::nullopt;
  session_.reset();
  lesson::LoadOptions options = with_widgets();
  options.train_lesson_weights = false;  // shipped with the text, never trained here (as the page)
  options.engine_checks = false;         // the page's engine has loaded this very text
  lesson::LoadResult loaded = lesson::load_lesson_text(text, "lessons/trained.md", options);
  if (!loaded.ok())
    return loaded.diagnostics.empty() ? tr("commands.lesson_unreadable") : loaded.diagnostics.front().to_string();
  const lesson::TaskData* task = lesson::find_task(*loaded.lesson, task_id);
  if (!task) return tr("train.no_task", {{"task", task_id}});
  try {
    session_.emplace(lesson::model_spec_for(*loaded.lesson), lesson::training_set(*loaded.lesson, *task),
                     lesson::train_options(*task), probe, query);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  lesson_ = text;
  task_ = task_id;
  probe_ = probe;
  query_ = query;
  return std::nullopt;
}

// A few steps, thrown away: the browser compiles a WebAssembly function with its quick compiler
// first and its optimising one once the function has run a while, on the same cores as the
// page's frames. Run here, while the learner reads, that second compile is done before Train.
void TrainWorker::warm_up() {
  const double until = now_ms_() + kWarmUpMs;
  session_->start();
  do {
    session_->run_steps(1);
  } while (session_->running() && now_ms_() < until);
  session_->reset();  // step 0 again: the next train starts from its seed as if nothing ran
}

std::vector<Reply> TrainWorker::start(const Train& t) {
  run_ = t.run;
  if (std::optional<std::string> why = build(t.lesson, t.task, t.probe, t.query)) return {Error{t.run, *why}};
  session_->set_seed(static_cast<std::uint64_t>(t.seed));  // step 0 of this seed
  if (t.state) {
    try {
      session_->adopt(*t.state);
    } catch (const InputError& e) {
      return {Error{t.run, e.what()}};
    }
  }
  points_sent_ = session_->curve().size();  // the page has every point up to its state
  steps_timed_ = 0;
  ms_timed_ = 0.0;
  last_progress_ms_ = run_started_ms_ = now_ms_();
  session_->start();
  if (!session_->running()) return {progress()};  // nothing left to train
  return {};
}

// The run's k-th step (from 0) is due k / pace seconds after its start: the first at once, and
// a worker that fell behind catches up within its budget.
double TrainWorker::wait_at(double now) const {
  if (steps_per_second_ <= 0.0) return 0.0;
  const double due_at = run_started_ms_ + 1000.0 * steps_timed_ / steps_per_second_;
  return std::max(0.0, due_at - now);
}

double TrainWorker::wait_ms() const { return running() ? wait_at(now_ms_()) : 0.0; }

std::vector<Reply> TrainWorker::work(double budget_ms) {
  std::vector<Reply> out;
  if (!running()) return out;
  const double start = now_ms_();
  if (wait_at(start) > 0.0) return out;
  double now = start;
  do {
    session_->run_steps(1);
    ++steps_timed_;
    now = now_ms_();
    const bool due = session_->curve().size() > points_sent_ && now - last_progress_ms_ >= progress_every_ms_;
    if (due || !session_->running()) {
      last_progress_ms_ = now;
      ms_timed_ += now - start;  // the rate so far, this slice included
      out.emplace_back(progress());
      ms_timed_ -= now - start;
    }
  } while (session_->running() && now - start < budget_ms && wait_at(now) <= 0.0);
  ms_timed_ += now - start;
  return out;
}

Progress TrainWorker::progress() {
  Progress p;
  p.run = run_;
  p.running = session_->running();
  p.steps_per_second = ms_timed_ > 0.0 ? 1000.0 * steps_timed_ / ms_timed_ : 0.0;
  p.state = session_->trainer_state();
  const std::vector<CurvePoint>& curve = session_->curve();
  p.points.assign(curve.begin() + static_cast<std::ptrdiff_t>(points_sent_), curve.end());
  points_sent_ = curve.size();
  return p;
}

}  // namespace neuralpath::widgets::trainworker
