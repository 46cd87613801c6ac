// train_session.cpp: see train_session.h.
#include "engine/ui/widgets/train/train_session.h"

#include "engine/core/block.h"
#include "engine/core/error.h"

#include <algorithm>
#include <chrono>
#include <cctype>

namespace neuralpath::ui {

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
  record(0.0f);
}

const ModelSpec& TrainSession::model() const { return use_trained_ ? trainer_.model() : hand_set_; }

void TrainSession::reset() {
  trainer_ = Trainer(hand_set_, set_, options_);
  running_ = false;
  longest_slice_ms_ = 0.0;
  curve_.clear();
  record(0.0f);
}

void TrainSession::set_seed(std::uint64_t seed) {
  options_.seed = seed;
  reset();
}

int TrainSession::advance(double budget_ms, int max_steps) {
  if (!running_) return 0;
  const double start = now_ms_();
  int steps = 0;
  do {
    const float loss = trainer_.step();
    ++steps;
    if (trainer_.steps_done() % kRecordEvery == 0 || trainer_.finished()) record(loss);
  } while (!trainer_.finished() && steps < max_steps && now_ms_() - start < budget_ms);
  const double spent = now_ms_() - start;
  if (spent > 0.0) steps_per_second_ = 1000.0 * steps / spent;
  longest_slice_ms_ = std::max(longest_slice_ms_, spent);
  if (trainer_.finished()) running_ = false;
  return steps;
}

int TrainSession::run_steps(int n) {
  int steps = 0;
  for (; steps < n && !trainer_.finished(); ++steps) {
    const float loss = trainer_.step();
    if (trainer_.steps_done() % kRecordEvery == 0 || trainer_.finished()) record(loss);
  }
  if (trainer_.finished()) running_ = false;
  return steps;
}

void TrainSession::record(float batch_loss) {
  const Evaluation e = trainer_.evaluate_held_out();
  curve_.push_back({trainer_.steps_done(), batch_loss, e.loss, e.accuracy});
  spotlight_ = spotlight_of(trainer_.model(), probe_);
}

SpotlightNow TrainSession::spotlight_of(const ModelSpec& m, const std::string& sentence) const {
  TraceOptions options;
  options.mask = is_point(set_.objective) ? Mask::none() : Mask::causal_mask();
  const Trace trace = run_block(m, sentence, options);
  SpotlightNow s;
  for (std::size_t i = 0; i < trace.tokens.size(); ++i) {
    s.tokens.push_back(trace.tokens[i].text);
    if (s.query < 0 && trace.tokens[i].key == query_) s.query = static_cast<int>(i);
  }
  if (s.query < 0) return s;
  const Vector w = trace.spotlight(s.query);
  for (Index i = 0; i < w.size(); ++i) {
    s.weights.push_back(w(i));
    if (static_cast<int>(i) != s.query && (s.top < 0 || w(i) > s.weights[static_cast<std::size_t>(s.top)]))
      s.top = static_cast<int>(i);
  }
  return s;
}

std::optional<SpotlightNow> TrainSession::spotlight_in(const std::string& sentence, bool trained) const {
  SpotlightNow s = spotlight_of(trained ? trainer_.model() : hand_set_, sentence);
  if (s.query < 0) return std::nullopt;
  return s;
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

}  // namespace neuralpath::ui
