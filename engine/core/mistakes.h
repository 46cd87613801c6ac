// mistakes.h: three common attention mistakes, made for real with the engine's own functions
// applied the wrong way, so a lesson can show what each one does to the numbers (the mask
// steps widget draws these results; it computes none of them).
//
//   mask_after_softmax   weights = softmax(scaled), then the hidden cells zeroed: rows stop summing to 1
//   scale_demo           one query against T keys of unit variance, softmax with and without 1/√d_k:
//                        unscaled, the weights collapse onto one key as d_k grows
//   wrong_transpose      Kᵀ passed where K belongs: the kernel's shape error, or, when T = d_k,
//                        no error and silently different weights
#pragma once

#include "attention.h"
#include "tensor.h"

#include <cstdint>
#include <string>

namespace neuralpath {

// [SECTION] Mask after softmax -----------------------------------------------------------------

struct MaskAfterSoftmax {
  Matrix weights;   // [T][T] softmax_rows(scaled) with the hidden cells set to 0 afterwards
  Vector row_sums;  // [T]    Σ_j weights(i, j): below 1 wherever a key was hidden
};

// scaled [T][T]: the scaled scores before any mask. The mask is applied after the softmax,
// which is the mistake (attention.h applies it before: M is added to the scores).
MaskAfterSoftmax mask_after_softmax(const Matrix& scaled, const Mask& mask);

// [SECTION] Leaving out 1/√d_k -----------------------------------------------------------------

struct ScaleDemo {
  int d = 0;             // d_k
  Vector with_scale;     // [keys] attention_naive's weights: softmax(q·kᵀ / √d_k)
  Vector without_scale;  // [keys] softmax(q·kᵀ): the mistake
  float max_with = 0, max_without = 0;
};

// One query against `keys` keys, every entry uniform in ±√3 (variance 1, as the "why divide by
// √d_k" argument assumes), drawn from the seeded generator: same (d, keys, seed), same numbers.
ScaleDemo scale_demo(int d, int keys, std::uint64_t seed);

// [SECTION] Wrong transpose --------------------------------------------------------------------

struct WrongTranspose {
  std::string error;     // the engine's shape error (InputError's message), or empty
  float max_difference;  // when there is no error: max |w_wrong − w_right|
};

// q [T][d_k], k [T][d_k]: the inputs of a score step; right_weights [T][T] its softmax result.
// Runs attention_naive(q, kᵀ, kᵀ, mask), the mistake, and compares with the right weights.
WrongTranspose wrong_transpose(const Matrix& q, const Matrix& k, const Mask& mask, const Matrix& right_weights);

}  // namespace neuralpath
