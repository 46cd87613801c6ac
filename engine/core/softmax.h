// softmax.h: the numerically stable softmax, softmax(x)_i = exp(x_i - max x) / Σ_j exp(x_j - max x).
//
// Subtracting the max changes nothing mathematically (it cancels between numerator and
// denominator) but keeps every exp() in (0, 1], so logits of 1e4 do not overflow to inf.
// Entries equal to -infinity are masked: they get exactly 0 weight.
// A vector whose entries are all -infinity (a fully masked attention row) has no defined
// softmax; by convention this engine returns all zeros for it (never NaN). Callers that blend
// with those weights therefore produce a zero vector for a query that may see no key.
#pragma once

#include "tensor.h"

namespace neuralpath {

Vector softmax(const Vector& logits);                                      // one vector; all -inf -> zeros
void softmax_rows_in_place(Matrix& logits);                                // each row independently, same rules
Matrix softmax_rows(const Matrix& logits);                                 // copying version of the above
Vector softmax_with_temperature(const Vector& logits, float temperature);  // softmax(x / t), t > 0

}  // namespace neuralpath
