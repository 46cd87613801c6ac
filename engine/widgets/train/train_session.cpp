// train_session.cpp: see train_session.h.
#include "engine/widgets/train/train_session.h"

#include "engine/trace/block_trace.h"
#include "engine/core/error.h"

#include <algorithm>
#include <chrono>
#include <cctype>

namespace neuralpath::widgets {

namespace {
double steady_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

TrainSession::TrainSession(ModelSpec architecture, TrainingSet set, TrainOptions options, std::string probe,
                           std::string query, std::function<double()> now_ms)
    : hand_set_(resolve_model(architecture)),
      set_(std::move(set)),
      options_(options),
      trainer_(architecture, set_, options_),
      probe_(std::move(probe)),
      query_(std::move(query)),
      now_ms_(now_ms ? std::move(now_ms) : steady_ms) {
  for (char& c : query_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::vector<Example>& all = set_.held_out.empty() ? set_.train : set_.held_out;
  const std::size_t every = (all.size() + kMaxMeasured - 1) / kMaxMeasured;
  for (std::size_t i = 0; i < all.size(); i += std::max<std::size_t>(1, every)) measured_.push_back(all[i]);
  record(0.0f);
}

const ModelSpec& TrainSession::model() const { return use_trained_ ? trainer_.model() : hand_set_; }

void TrainSession::reset() {
  trainer_ = Trainer(hand_set_, set_, options_);
  running_ = false;
  pending_.reset();
  longest_slice_ms_ = training_ms_ = 0.0;
  timed_steps_ = 0;
  curve_.clear();
  record(0.0f);
}

void TrainSession::pause() {
  if (!running_) return;
  running_ = false;
  // Paused between curve points (step 71, the last point at 70 or still being measured), the
  // spotlight showed the weights of the point before while the page said step 71 (#34): one
  // engine run of the probe sentence brings it to the weights the learner stopped at.
  if (spotlight_step_ != trainer_.steps_done()) {
    spotlight_ = spotlight_of(trainer_.model(), probe_);
    spotlight_step_ = trainer_.steps_done();
  }
}

const CurvePoint& TrainSession::hand_set_point() const {
  if (!hand_set_point_) {
    // The same sums as finish_point, over the same sentences, with the weights that never train.
    double loss = 0.0;
    int right = 0, counted = 0;
    for (const Example& example : measured_) {
      const ExampleEvaluation e = evaluate_example(hand_set_, example, set_.objective);
      loss += e.loss;
      right += e.right;
      counted += e.counted;
    }
    const double n = static_cast<double>(std::max<std::size_t>(1, measured_.size()));
    hand_set_point_ = CurvePoint{0, 0.0f, static_cast<float>(loss / n),
                                 counted ? static_cast<float>(right) / static_cast<float>(counted) : 0.0f};
  }
  return *hand_set_point_;
}

void TrainSession::set_seed(std::uint64_t seed) {
  options_.seed = seed;
  reset();
}

// One slice, a piece of work at a time (one training example of the current step, or one
// held-out sentence of the point being measured), until the budget is spent: training first (at
// most max_steps completed, never a record step while the previous point is still measured),
// then the pending point. A step may run over several slices. The clock is read once a piece;
// the pieces' time toward steps/s.
int TrainSession::advance(double budget_ms, int max_steps) {
  if (!running_) return 0;
  spread_ = true;
  const double start = now_ms_();
  double before = start;
  int steps = 0;
  for (;;) {
    const bool next_records =
        (trainer_.steps_done() + 1) % kRecordEvery == 0 || trainer_.steps_done() + 1 == trainer_.options().steps;
    double now = 0.0;
    if (steps < max_steps && !trainer_.finished() && !(pending_ && next_records)) {
      const bool stepped = trainer_.step_piece();
      now = now_ms_();
      training_ms_ += now - before;
      if (stepped) {
        ++steps;
        ++timed_steps_;
        after_step();
      }
    } else if (pending_) {
      if (measure_one()) finish_point();
      now = now_ms_();
    } else {
      break;
    }
    before = now;
    if (now - start >= budget_ms) break;
  }
  spread_ = false;
  if (timed_steps_ > 0 && training_ms_ > 0.0) steps_per_second_ = 1000.0 * timed_steps_ / training_ms_;
  longest_slice_ms_ = std::max(longest_slice_ms_, before - start);
  if (finished()) running_ = false;
  return steps;
}

int TrainSession::run_steps(int n) {
  flush();
  int steps = 0;
  for (; steps < n && !trainer_.finished(); ++steps) {
    trainer_.step();
    after_step();
  }
  if (finished()) running_ = false;
  return steps;
}

void TrainSession::after_step() {
  const float loss = trainer_.last_batch_loss();
  if (trainer_.steps_done() % kRecordEvery != 0 && !trainer_.finished()) return;
  if (!spread_) return record(loss);
  flush();  // advance() never steps past a record step with a point pending; kept whole anyway
  pending_ = PendingPoint{trainer_.model(), trainer_.steps_done(), loss};
}

bool TrainSession::measure_one() {
  PendingPoint& p = *pending_;
  if (p.next < measured().size()) {
    const ExampleEvaluation e = evaluate_example(p.model, measured()[p.next++], set_.objective);
    p.loss += e.loss;
    p.right += e.right;
    p.counted += e.counted;
  }
  return p.next >= measured().size();
}

void TrainSession::flush() {
  while (pending_)
    if (measure_one()) finish_point();
}

// The same figures as Trainer::evaluate (the same sums in the same order), for the point's step.
void TrainSession::finish_point() {
  const PendingPoint& p = *pending_;
  const double n = static_cast<double>(std::max<std::size_t>(1, measured().size()));
  curve_.push_back({p.step, p.batch_loss, static_cast<float>(p.loss / n),
                    p.counted ? static_cast<float>(p.right) / static_cast<float>(p.counted) : 0.0f});
  spotlight_ = spotlight_of(p.model, probe_);
  spotlight_step_ = p.step;
  pending_.reset();
}

void TrainSession::record(float batch_loss) {
  flush();
  const Evaluation e = trainer_.evaluate(measured_);
  curve_.push_back({trainer_.steps_done(), batch_loss, e.loss, e.accuracy});
  spotlight_ = spotlight_of(trainer_.model(), probe_);
  spotlight_step_ = trainer_.steps_done();
}

SpotlightNow TrainSession::spotlight_of(const ModelSpec& m, const std::string& sentence) const {
  TraceOptions options;
  options.mask = set_.objective == Objective::answer ? Mask::none() : Mask::causal_mask();
  const Trace trace = run_block(m, sentence, options);
  SpotlightNow s;
  for (std::size_t i = 0; i < trace.tokens.size(); ++i) {
    s.tokens.push_back(trace.tokens[i].text);
    if (s.query < 0 && trace.tokens[i].key == query_) s.query = static_cast<int>(i);
  }
  if (s.query < 0) return s;
  // The row's values and the index of its largest, the query itself excluded.
  const auto row_of = [&s](const Vector& w, std::vector<float>& values) {
    int top = -1;
    for (Index i = 0; i < w.size(); ++i) {
      values.push_back(w(i));
      if (static_cast<int>(i) != s.query && (top < 0 || w(i) > values[static_cast<std::size_t>(top)]))
        top = static_cast<int>(i);
    }
    return top;
  };
  s.top = row_of(trace.spotlight(s.query), s.weights);
  if (trace.attention.heads.size() > 1)
    for (int h = 0; h < static_cast<int>(trace.attention.heads.size()); ++h)
      s.head_tops.push_back(row_of(trace.spotlight(s.query, h), s.heads.emplace_back()));
  return s;
}

std::optional<SpotlightNow> TrainSession::spotlight_in(const std::string& sentence, bool trained) const {
  SpotlightNow s = spotlight_of(trained ? trainer_.model() : hand_set_, sentence);
  if (s.query < 0) return std::nullopt;
  return s;
}

void TrainSession::adopt(const Trainer::State& state, const std::vector<CurvePoint>& points) {
  trainer_.load(state);  // throws before anything here changed
  pending_.reset();      // a point measured on weights this session no longer has
  while (!curve_.empty() && curve_.back().step > trainer_.steps_done()) curve_.pop_back();
  for (const CurvePoint& p : points)
    if (p.step <= trainer_.steps_done() && (curve_.empty() || p.step > curve_.back().step)) curve_.push_back(p);
  spotlight_ = spotlight_of(trainer_.model(), probe_);
  spotlight_step_ = trainer_.steps_done();
  if (finished()) running_ = false;
}

void TrainSession::restore(const Snapshot& s) {
  options_.seed = s.seed;
  reset();
  const int target = std::clamp(s.steps, 0, trainer_.options().steps);
  while (trainer_.steps_done() < target) {  // deterministic: the same steps give the same weights
    const float loss = trainer_.step();
    if (trainer_.steps_done() % kRecordEvery == 0 || trainer_.steps_done() == target) record(loss);
  }
  running_ = s.running && !trainer_.finished();
  use_trained_ = s.trained;
}

}  // namespace neuralpath::widgets
