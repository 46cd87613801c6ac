// softmax.cpp: see softmax.h for the rules (stable, -inf = masked, all -inf = zeros).
#include "softmax.h"

#include "error.h"

#include <cmath>
#include <limits>

namespace neuralpath {

namespace {

// One row, in place. Shapes: row [n].
template <typename Row>
void softmax_row(Row&& row) {
  // pass 1: the row max, so that every exp() below is of a number <= 0
  const float max = row.maxCoeff();
  if (max == -std::numeric_limits<float>::infinity()) {  // fully masked: defined as zeros
    row.setZero();
    return;
  }
  // pass 2: exp(x_j - max), vectorised. Eigen's vector exp returns a tiny positive number for
  // -inf instead of 0, so masked entries are set to exactly 0 by hand (select).
  const float inf = std::numeric_limits<float>::infinity();
  row = (row.array() == -inf).select(0.0f, (row.array() - max).exp());
  const float sum = row.sum();
  // pass 3: normalise; sum >= 1 because the max entry contributed exp(0) = 1
  row /= sum;
}

}  // namespace

Vector softmax(const Vector& logits) {
  Vector out = logits;
  if (out.size() > 0) softmax_row(out);
  return out;
}

void softmax_rows_in_place(Matrix& logits) {
  if (logits.cols() == 0) return;
  for (Index i = 0; i < logits.rows(); ++i) softmax_row(logits.row(i));
}

Matrix softmax_rows(const Matrix& logits) {
  Matrix out = logits;
  softmax_rows_in_place(out);
  return out;
}

Vector softmax_with_temperature(const Vector& logits, float temperature) {
  if (!(temperature > 0.0f) || !std::isfinite(temperature)) throw InputError("temperature must be a positive number");
  return softmax(logits / temperature);
}

}  // namespace neuralpath
