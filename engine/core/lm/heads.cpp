// heads.cpp: head scores on repeated random sequences, and the add-one bigram (heads.h).
#include "engine/core/lm/heads.h"

#include "engine/core/error.h"
#include "engine/core/lm/corpus.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::lm {

std::vector<std::vector<int>> probe_sequences(const LmConfig& c) {
  const int n = (c.context - 1) / 2;
  // merged tokens when there are enough of them (bytes such as control codes are rare in
  // text and poorly trained); otherwise any id but the document token
  const bool merged = c.vocab_size - kFirstMerge >= 2 * n;
  SplitMix64 rng{kProbeSeed};
  std::vector<std::vector<int>> out;
  for (int s = 0; s < kProbeSequences; ++s) {
    std::vector<int> seq{kDocumentToken};
    for (int i = 0; i < n; ++i) {
      int id = 0;
      if (merged) {
        id = kFirstMerge + static_cast<int>(rng.below(static_cast<std::uint64_t>(c.vocab_size - kFirstMerge)));
      } else {
        do id = static_cast<int>(rng.below(static_cast<std::uint64_t>(c.vocab_size)));
        while (id == kDocumentToken);
      }
      seq.push_back(id);
    }
    for (int i = 0; i < n; ++i) seq.push_back(seq[static_cast<std::size_t>(1 + i)]);  // the copy
    out.push_back(std::move(seq));
  }
  return out;
}

const HeadScore& HeadReport::best_induction() const {
  return *std::max_element(heads.begin(), heads.end(),
                           [](const HeadScore& a, const HeadScore& b) { return a.induction < b.induction; });
}
const HeadScore& HeadReport::best_previous_token() const {
  return *std::max_element(heads.begin(), heads.end(),
                           [](const HeadScore& a, const HeadScore& b) { return a.previous_token < b.previous_token; });
}

HeadReport score_heads(const LmModel& m) {
  const LmConfig& c = m.config;
  const int H = c.heads, V = c.vocab_size;
  HeadReport r;
  r.repeat_length = (c.context - 1) / 2;
  const int n = r.repeat_length;
  for (int l = 0; l < c.layers; ++l)
    for (int h = 0; h < H; ++h) r.heads.push_back({l, h, 0.0f, 0.0f, 0.0f});
  double first = 0.0, second = 0.0;
  const auto sequences = probe_sequences(c);
  for (const std::vector<int>& seq : sequences) {
    const Inspection in = inspect(m, seq);
    const int T = in.T;
    for (std::size_t k = 0; k < r.heads.size(); ++k) {
      const std::vector<float>& w = in.weights[k];  // [T][T] of layer·H + head
      auto at = [&](int q, int key) { return static_cast<double>(w[static_cast<std::size_t>(q * T + key)]); };
      double prev = 0.0, rest = 0.0, induct = 0.0;
      for (int t = 1; t < T; ++t) {
        prev += at(t, t - 1);  // weight on the previous token
        rest += at(t, 0);      // weight on the first token
      }
      for (int i = 0; i < n; ++i) induct += at(1 + n + i, 2 + i);  // on what followed it last time
      r.heads[k].previous_token += static_cast<float>(prev / (T - 1) / kProbeSequences);
      r.heads[k].first_token += static_cast<float>(rest / (T - 1) / kProbeSequences);
      r.heads[k].induction += static_cast<float>(induct / n / kProbeSequences);
    }
    // position t predicts token t + 1: r[i] sits at 1 + i (first copy) and 1 + n + i (second)
    for (int i = 1; i < n; ++i) {
      first -=
          std::log(std::max(in.probs[static_cast<std::size_t>(i * V + seq[static_cast<std::size_t>(1 + i)])], 1e-30f));
      second -= std::log(
          std::max(in.probs[static_cast<std::size_t>((n + i) * V + seq[static_cast<std::size_t>(1 + n + i)])], 1e-30f));
    }
  }
  r.first_copy_loss = static_cast<float>(first / ((n - 1) * kProbeSequences));
  r.second_copy_loss = static_cast<float>(second / ((n - 1) * kProbeSequences));
  return r;
}

BigramModel::BigramModel(const std::vector<int>& train, int vocab_size) : vocab_(vocab_size) {
  if (vocab_size > 8192) throw InputError("the bigram baseline holds at most 8192 ids");
  pair_counts_.assign(static_cast<std::size_t>(vocab_size) * static_cast<std::size_t>(vocab_size), 0);
  counts_.assign(static_cast<std::size_t>(vocab_size), 0);
  for (std::size_t i = 0; i + 1 < train.size(); ++i) {
    ++pair_counts_[static_cast<std::size_t>(train[i]) * static_cast<std::size_t>(vocab_) +
                   static_cast<std::size_t>(train[i + 1])];
    ++counts_[static_cast<std::size_t>(train[i])];
  }
}

double BigramModel::probability(int a, int b) const {
  const double pair =
      pair_counts_[static_cast<std::size_t>(a) * static_cast<std::size_t>(vocab_) + static_cast<std::size_t>(b)];
  return (pair + 1.0) / (static_cast<double>(counts_[static_cast<std::size_t>(a)]) + vocab_);  // (c(a,b)+1)/(c(a)+V)
}

double BigramModel::mean_loss(const std::vector<int>& stream) const {
  if (stream.size() < 2) return 0.0;
  double sum = 0.0;
  for (std::size_t i = 0; i + 1 < stream.size(); ++i) sum -= std::log(probability(stream[i], stream[i + 1]));
  return sum / static_cast<double>(stream.size() - 1);
}

}  // namespace neuralpath::lm
