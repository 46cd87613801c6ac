// softmax_test.cpp: the stable softmax every attention row and the next token go through.
#include "engine/core/softmax.h"
#include "engine/core/error.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace neuralpath;

TEST_CASE("softmax gives positive weights that sum to 1 and keep the order of the logits") {
  Vector logits(4);
  logits << 2.0f, 1.0f, 0.0f, -1.0f;
  const Vector p = softmax(logits);
  REQUIRE(p.size() == 4);
  CHECK(p.sum() == doctest::Approx(1.0f));
  for (Index i = 0; i + 1 < p.size(); ++i) CHECK(p(i) > p(i + 1));
  CHECK(p.minCoeff() > 0.0f);
}

TEST_CASE("softmax with a temperature matches PyTorch") {
  // torch.softmax(torch.tensor([2., 1., 0., -1.], dtype=torch.float64) / 0.5, 0)
  Vector logits(4);
  logits << 2.0f, 1.0f, 0.0f, -1.0f;
  const Vector p = softmax_with_temperature(logits, 0.5f);
  const float expected[] = {0.864954877f, 0.117058913f, 0.015842201f, 0.002144009f};
  for (Index i = 0; i < 4; ++i) CHECK(std::abs(p(i) - expected[i]) <= 1e-6f);
  CHECK_THROWS_AS(softmax_with_temperature(logits, 0.0f), InputError);
}

TEST_CASE("softmax of huge logits (1e4) is finite and picks the largest") {
  Vector logits(3);
  logits << 1e4f, 0.0f, -1e4f;
  const Vector p = softmax(logits);
  CHECK(p.allFinite());
  CHECK(p(0) == doctest::Approx(1.0f));
  CHECK(p(2) == 0.0f);
}

TEST_CASE("softmax gives masked (-infinity) entries exactly 0 and an all-masked vector all zeros") {
  const float inf = std::numeric_limits<float>::infinity();
  Vector some(3);
  some << 1.0f, -inf, 1.0f;
  const Vector p = softmax(some);
  CHECK(p(1) == 0.0f);
  CHECK(p(0) == doctest::Approx(0.5f));

  const Vector all = Vector::Constant(3, -inf);
  const Vector z = softmax(all);
  CHECK(z.allFinite());
  CHECK(z.isZero(0.0f));
}
