// cache_race.cpp: timing generation with and without the KV cache (cache_race.h).
#include "engine/core/lm/decode/cache_race.h"

#include "engine/core/error.h"

#include <algorithm>

namespace neuralpath::lm {

namespace {
int argmax(const float* x, int n) { return static_cast<int>(std::max_element(x, x + n) - x); }
void keep_fastest(double& best, double seconds) { best = best < 0.0 ? seconds : std::min(best, seconds); }
}  // namespace

CacheRace::CacheRace(const LmModel& model, std::vector<int> prompt, int rounds)
    : model_(model),
      prompt_(std::move(prompt)),
      rounds_(rounds),
      decoder_(model),
      layout_(parameter_layout(model.config)) {
  const int context = model.config.context;
  if (prompt_.empty() || static_cast<int>(prompt_.size()) >= context)
    throw InputError("the prompt must be 1 to " + std::to_string(context - 1) + " tokens");
  if (rounds < 1 || rounds > 20) throw InputError("rounds must be 1 to 20");
  for (int id : prompt_)
    if (id < 0 || id >= model.config.vocab_size)
      throw InputError("token id " + std::to_string(id) + " is not in the vocabulary");
  const std::size_t timed = static_cast<std::size_t>(context - static_cast<int>(prompt_.size()));
  cached_.assign(timed, -1.0);
  full_.assign(timed, -1.0);
}

double CacheRace::cached_total() const {
  if (round_ == 0) return -1.0;
  double sum = 0.0;
  for (double s : cached_) sum += s;
  return sum;
}

double CacheRace::full_total() const {
  if (round_ == 0) return -1.0;
  double sum = 0.0;
  for (double s : full_) sum += s;
  return sum;
}

void CacheRace::run_unit() {
  const int V = model_.config.vocab_size;
  if (index_ < 0) {  // the round begins: read the prompt
    const auto start = Clock::now();
    const std::vector<float>& logits = decoder_.prefill(prompt_);
    keep_fastest(prefill_, std::chrono::duration<double>(Clock::now() - start).count());
    sequence_ = prompt_;
    const int next = round_ == 0 ? argmax(logits.data(), V) : tokens_[0];
    if (round_ == 0) tokens_.push_back(next);
    sequence_.push_back(next);
    index_ = 0;
    full_next_ = false;
    return;
  }
  const std::size_t i = static_cast<std::size_t>(index_);
  const int t = prompt_length() + index_;  // this unit's position
  if (!full_next_) {                       // cached: one row at position t
    const auto start = Clock::now();
    const std::vector<float>& logits = decoder_.step(sequence_[static_cast<std::size_t>(t)]);
    keep_fastest(cached_[i], std::chrono::duration<double>(Clock::now() - start).count());
    if (round_ == 0 && index_ + 1 < positions()) tokens_.push_back(argmax(logits.data(), V));
    full_next_ = true;
    return;
  }
  // full: the whole forward over tokens 0..t, as a model without a cache runs for this token
  const auto start = Clock::now();
  model_forward(model_.config, layout_, model_.weights.data(), acts_, sequence_.data(), nullptr, 1, t + 1);
  keep_fastest(full_[i], std::chrono::duration<double>(Clock::now() - start).count());
  if (round_ == 0 && index_ + 1 < positions()) {  // its argmax must be the cached run's
    const float* last = acts_.probs.data() + static_cast<std::ptrdiff_t>(t) * V;
    if (argmax(last, V) != tokens_[i + 1]) ++mismatches_;
  }
  if (index_ + 1 < positions()) sequence_.push_back(tokens_[i + 1]);
  full_next_ = false;
  if (++index_ == positions()) {  // the round is done
    ++round_;
    index_ = -1;
  }
}

bool CacheRace::step(double budget_seconds) {
  const auto start = Clock::now();
  do {
    if (finished()) break;
    run_unit();
    ++units_;
  } while (std::chrono::duration<double>(Clock::now() - start).count() < budget_seconds);
  return finished();
}

}  // namespace neuralpath::lm
