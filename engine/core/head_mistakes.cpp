// head_mistakes.cpp: a head's scores scaled by the wrong width (head_mistakes.h). The same three
// passes as attention_naive after its product: scale, mask, softmax; only the divisor differs.
#include "head_mistakes.h"

#include "error.h"
#include "softmax.h"

#include <cmath>
#include <limits>

namespace neuralpath {

ScaledByWidth scale_by_width(const Matrix& scores, int width, const Mask& mask) {
  // scores [T][T] -> scaled [T][T], weights [T][T]
  if (width < 1) throw InputError("the width to scale by must be at least 1");
  if (scores.rows() != scores.cols()) throw InputError("a head's scores must be T × T");
  ScaledByWidth out;
  out.width = width;
  out.factor = 1.0f / std::sqrt(static_cast<float>(width));  // pass 1: 1/√d_model, the mistake
  out.scaled = scores * out.factor;
  Matrix masked = out.scaled;  // pass 2: M, -∞ where hidden
  for (Index i = 0; i < masked.rows(); ++i)
    for (Index j = 0; j < masked.cols(); ++j)
      if (mask.hides(i, j)) masked(i, j) = -std::numeric_limits<float>::infinity();
  out.weights = softmax_rows(masked);  // pass 3: each row sums to 1
  return out;
}

}  // namespace neuralpath
