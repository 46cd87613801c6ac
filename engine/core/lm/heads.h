// heads.h: what each attention head does, measured, and the baselines the model must beat.
//
// Head scores are measured on repeated random token sequences: the document token, then n
// tokens drawn at random (seeded, from the merged tokens), then the same n tokens again
// (1 + 2n <= context). Random tokens carry no meaning, so a head can only find the right place by
// position or by matching tokens. Per head (mean over kProbeSequences sequences):
//   previous_token  mean over queries t >= 1 of the weight on key t − 1
//   induction       mean over queries in the second copy (t = 1 + n + i) of the weight on the
//                   token AFTER the same token's earlier occurrence (key 2 + i = t − n + 1)
//   first_token     mean over queries t >= 1 of the weight on key 0 (where heads "rest")
// and for the model: the mean loss predicting the tokens of the first copy (r[1..n−1], which
// nothing predicts) and of the second copy (the same tokens, now seen before).
#pragma once

#include "engine/core/lm/model.h"

#include <vector>

namespace neuralpath::lm {

inline constexpr int kProbeSequences = 4;
inline constexpr std::uint64_t kProbeSeed = 0x6e657572616c7061ull;  // fixed: every model is probed alike

struct HeadScore {
  int layer = 0, head = 0;
  float previous_token = 0.0f, induction = 0.0f, first_token = 0.0f;
};

struct HeadReport {
  std::vector<HeadScore> heads;  // layer by layer, head by head
  float first_copy_loss = 0.0f;  // nats per token
  float second_copy_loss = 0.0f;
  int repeat_length = 0;  // n
  const HeadScore& best_induction() const;
  const HeadScore& best_previous_token() const;
};

HeadReport score_heads(const LmModel& model);

// The probe sequences themselves (for views that show a head on one).
std::vector<std::vector<int>> probe_sequences(const LmConfig& config);

// An add-one (Laplace) smoothed bigram model on a token stream: P(b | a) = (c(a,b) + 1) / (c(a) + V).
class BigramModel {
 public:
  BigramModel(const std::vector<int>& train_stream, int vocab_size);
  // Mean −log P(stream[i+1] | stream[i]) over every neighbouring pair of the stream.
  double mean_loss(const std::vector<int>& stream) const;
  double probability(int a, int b) const;

 private:
  int vocab_ = 0;
  std::vector<std::uint32_t> pair_counts_;  // [V][V]
  std::vector<std::uint32_t> counts_;       // c(a) as a first token
};

}  // namespace neuralpath::lm
