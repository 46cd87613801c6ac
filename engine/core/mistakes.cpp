// mistakes.cpp: the three mistakes of mistakes.h, each the engine's own functions misapplied.
#include "mistakes.h"

#include "embedding.h"
#include "error.h"
#include "softmax.h"

#include <cmath>

namespace neuralpath {

MaskAfterSoftmax mask_after_softmax(const Matrix& scaled, const Mask& mask) {
  // scaled [T][T] -> weights [T][T], row_sums [T]
  MaskAfterSoftmax out;
  out.weights = softmax_rows(scaled);             // pass 1: softmax over every key (no M)
  for (Index i = 0; i < out.weights.rows(); ++i)  // pass 2: hidden cells zeroed afterwards
    for (Index j = 0; j < out.weights.cols(); ++j)
      if (mask.hides(i, j)) out.weights(i, j) = 0.0f;
  out.row_sums = out.weights.rowwise().sum();  // Σ_j w_ij: the share thrown away is missing
  return out;
}

ScaleDemo scale_demo(int d, int keys, std::uint64_t seed) {
  // q [1][d], k [keys][d]; entries uniform in ±√3 have variance a²/3 = 1.
  if (d < 1 || keys < 1) throw InputError("scale_demo needs d >= 1 and at least one key");
  std::uint64_t state = seed ^ static_cast<std::uint64_t>(d);
  const float a = std::sqrt(3.0f);
  Matrix q(1, d), k(keys, d);
  for (Index c = 0; c < d; ++c) q(0, c) = uniform_from(state, -a, a);
  for (Index r = 0; r < keys; ++r)
    for (Index c = 0; c < d; ++c) k(r, c) = uniform_from(state, -a, a);
  const AttentionResult r = attention_naive(q, k, k, Mask::none());
  ScaleDemo demo;
  demo.d = d;
  demo.with_scale = r.weights.row(0).transpose();                  // softmax(q·kᵀ / √d_k)
  demo.without_scale = softmax_rows(r.scores).row(0).transpose();  // softmax(q·kᵀ): no 1/√d_k
  demo.max_with = demo.with_scale.maxCoeff();
  demo.max_without = demo.without_scale.maxCoeff();
  return demo;
}

WrongTranspose wrong_transpose(const Matrix& q, const Matrix& k, const Mask& mask, const Matrix& right_weights) {
  // q [T][d_k], k [T][d_k]; the mistake passes kᵀ [d_k][T] as both keys and values.
  const Matrix kt = k.transpose();
  WrongTranspose out{{}, 0.0f};
  try {
    validate_attention_inputs(q, kt, kt, mask);  // Q's d_k must equal Kᵀ's columns... unless T = d_k
    const AttentionResult wrong = attention_naive(q, kt, kt, mask);
    out.max_difference = (wrong.weights - right_weights).cwiseAbs().maxCoeff();
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace neuralpath
