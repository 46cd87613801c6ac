// helpers.h: small shared helpers for the core suite (random matrices, max abs diff).
#pragma once

#include "engine/core/tensor.h"

#include <random>

namespace neuralpath::test {

inline Matrix random_matrix(std::mt19937& rng, Index rows, Index cols, float stddev = 1.0f) {
  std::normal_distribution<float> normal(0.0f, stddev);
  Matrix m(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) m(i, j) = normal(rng);
  return m;
}

inline float max_abs_diff(const Matrix& a, const Matrix& b) { return (a - b).cwiseAbs().maxCoeff(); }

inline Matrix from_rows(Index rows, Index cols, std::initializer_list<float> values) {
  Matrix m(rows, cols);
  auto it = values.begin();
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) m(i, j) = *it++;
  return m;
}

}  // namespace neuralpath::test
