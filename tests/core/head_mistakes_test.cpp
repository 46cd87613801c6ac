// head_mistakes_test.cpp: a head's scores scaled by the layer's width instead of its own
// (head_mistakes.h) — the right width gives the kernel's own weights, the wrong one flatter rows.
#include "engine/core/attention.h"
#include "engine/core/error.h"
#include "engine/core/head_mistakes.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace neuralpath;

TEST_CASE("scaled by its own width the head's weights are the kernel's; by d_model they come out flatter") {
  Matrix q(3, 2), k(3, 2), v = Matrix::Identity(3, 3);
  q << 2.0f, 1.0f, -1.0f, 3.0f, 0.5f, 0.5f;
  k << 1.5f, -1.0f, 0.0f, 2.0f, 1.0f, 1.0f;
  const AttentionResult right = attention_naive(q, k, v, Mask::none());
  const ScaledByWidth own = scale_by_width(q * k.transpose(), 2, Mask::none());
  CHECK(own.weights.isApprox(right.weights, 1e-6f));
  const ScaledByWidth wide = scale_by_width(q * k.transpose(), 8, Mask::none());  // d_model = 4 heads × 2
  CHECK(wide.factor == doctest::Approx(1.0 / std::sqrt(8.0)));
  for (Index i = 0; i < 3; ++i) {
    CHECK(wide.weights.row(i).maxCoeff() < right.weights.row(i).maxCoeff());  // flatter
    CHECK(wide.weights.row(i).sum() == doctest::Approx(1.0f));
  }
}

TEST_CASE("the mistake keeps the mask: hidden keys get no weight") {
  const Matrix scores = Matrix::Constant(3, 3, 1.0f);
  const ScaledByWidth out = scale_by_width(scores, 8, Mask::causal_mask());
  CHECK(out.weights(0, 1) == 0.0f);
  CHECK(out.weights(0, 0) == doctest::Approx(1.0f));
  CHECK(out.weights(2, 1) == doctest::Approx(1.0f / 3.0f));
  CHECK_THROWS_AS(scale_by_width(scores, 0, Mask::none()), InputError);
  CHECK_THROWS_AS(scale_by_width(Matrix::Zero(2, 3), 4, Mask::none()), InputError);
}
