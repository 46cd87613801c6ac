// cache_race.h: the same text written twice, once with the KV cache and once re-reading every
// token at every step, each step timed, as a job a page spreads over many frames: step(budget)
// works for at most about `budget` seconds (at least one unit) and returns.
//
//   CacheRace race(model, prompt_ids, /*rounds=*/3);
//   while (!race.finished()) race.step(0.012);
//   race.cached_seconds(t), race.full_seconds(t), race.same_tokens()
//
// One round: the prompt is read once (a prefill, timed apart); then for every position t from
// the prompt's end to the context's, one unit of each kind, side by side so a busy machine slows
// both alike:
//   cached  KvDecoder::step(token): one row through every layer, attention over t+1 cached keys
//   full    model_forward over tokens 0..t (what a model without a cache runs for that token)
// The tokens are the greedy continuation the cached run writes; the full run checks its own
// argmax at each position against it. Each position keeps its fastest time over the rounds
// (the least disturbed by other work).
#pragma once

#include "engine/core/lm/decode/kv_cache.h"

#include <chrono>
#include <vector>

namespace neuralpath::lm {

class CacheRace {
 public:
  // prompt: 1..context−1 ids (with the document token first, as the writer encodes). Throws
  // InputError otherwise, or for rounds outside 1..20.
  CacheRace(const LmModel& model, std::vector<int> prompt, int rounds = 3);

  bool step(double budget_seconds);  // true once every round is done
  bool finished() const { return round_ >= rounds_; }

  int prompt_length() const { return static_cast<int>(prompt_.size()); }
  int positions() const { return static_cast<int>(cached_.size()); }  // timed positions (prompt end .. context−1)
  int rounds() const { return rounds_; }
  int rounds_done() const { return round_; }
  int units_done() const { return units_; }  // units run so far, all rounds
  int units_total() const { return rounds_ * (1 + 2 * positions()); }
  // Fastest time so far at the i-th timed position (position prompt_length() + i), or −1 if not yet run.
  double cached_seconds(int i) const { return cached_[static_cast<std::size_t>(i)]; }
  double full_seconds(int i) const { return full_[static_cast<std::size_t>(i)]; }
  double prefill_seconds() const { return prefill_; }
  double cached_total() const;  // Σ over the timed positions (−1 until the first round is done)
  double full_total() const;
  const std::vector<int>& tokens() const { return tokens_; }  // the greedy continuation
  bool same_tokens() const { return mismatches_ == 0; }       // the full run's argmax agreed every time
  int mismatches() const { return mismatches_; }

 private:
  using Clock = std::chrono::steady_clock;
  void run_unit();

  const LmModel& model_;
  std::vector<int> prompt_;
  int rounds_;
  KvDecoder decoder_;
  Activations acts_;
  ParameterLayout layout_;
  std::vector<int> sequence_;  // prompt, then the continuation so far (this round)
  std::vector<int> tokens_;    // the continuation (first round's; later rounds replay it)
  std::vector<double> cached_, full_;
  double prefill_ = -1.0;
  int round_ = 0, index_ = -1, units_ = 0, mismatches_ = 0;
  bool full_next_ = false;  // within a position: cached first, then full
};

}  // namespace neuralpath::lm
