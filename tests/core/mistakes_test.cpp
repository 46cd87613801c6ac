// mistakes_test.cpp: the three attention mistakes (engine/core/mistakes.h) and the frame-budgeted
// kernel race (engine/core/kernel_race.h), checked against numbers worked out independently.
#include "engine/core/kernel_race.h"
#include "engine/core/mistakes.h"
#include "helpers.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace neuralpath;

TEST_CASE("masking after the softmax leaves rows that no longer sum to 1") {
  const Matrix scaled = test::from_rows(2, 2, {1.0f, 2.0f, 3.0f, 4.0f});
  const MaskAfterSoftmax m = mask_after_softmax(scaled, Mask::causal_mask());
  // Row 0: softmax([1, 2]) = [1, e] / (1 + e); the hidden key's share e/(1+e) is thrown away.
  const float e = std::exp(1.0f);
  CHECK(m.weights(0, 0) == doctest::Approx(1.0f / (1.0f + e)));
  CHECK(m.weights(0, 1) == 0.0f);
  CHECK(m.row_sums[0] == doctest::Approx(1.0f / (1.0f + e)));
  // Row 1 sees both keys: untouched, sums to 1.
  CHECK(m.weights(1, 1) == doctest::Approx(e / (1.0f + e)));
  CHECK(m.row_sums[1] == doctest::Approx(1.0f));
}

TEST_CASE("without 1/sqrt(d_k) the weights collapse onto one key as d_k grows; with it they stay spread") {
  const ScaleDemo small = scale_demo(2, 8, 2024);
  const ScaleDemo large = scale_demo(1024, 8, 2024);
  CHECK(large.d == 1024);
  REQUIRE(large.with_scale.size() == 8);
  CHECK(large.max_without > 0.9f);
  CHECK(large.max_with < 0.6f);
  CHECK(large.max_without > small.max_without);
  CHECK(large.with_scale.sum() == doctest::Approx(1.0f));
  CHECK(large.without_scale.sum() == doctest::Approx(1.0f));
  // The scaled weights are the unscaled ones' logits divided by √d_k, through the same
  // softmax: recover the logits as log w (softmax is blind to the constant log Σ) and rescale
  // them by hand. d_k = 64 keeps every unscaled weight far from float underflow.
  const ScaleDemo mid = scale_demo(64, 8, 2024);
  REQUIRE(mid.without_scale.minCoeff() > 1e-30f);
  Vector logits = mid.without_scale.array().log().matrix() / 8.0f;  // √64 = 8
  Vector expected = (logits.array() - logits.maxCoeff()).exp().matrix();
  expected /= expected.sum();
  for (Index j = 0; j < expected.size(); ++j) CHECK(mid.with_scale[j] == doctest::Approx(expected[j]).epsilon(1e-3));
  // Same seed, same numbers; another seed, others.
  CHECK(scale_demo(1024, 8, 2024).without_scale.isApprox(large.without_scale));
  CHECK_FALSE(scale_demo(1024, 8, 7).with_scale.isApprox(large.with_scale));
}

TEST_CASE("passing K transposed stops at the shape check unless T equals d_k, then the weights are silently wrong") {
  std::mt19937 rng(3);
  const Matrix q = test::random_matrix(rng, 3, 2), k = test::random_matrix(rng, 3, 2);
  const AttentionResult right = attention_naive(q, k, k, Mask::causal_mask());
  const WrongTranspose shaped = wrong_transpose(q, k, Mask::causal_mask(), right.weights);
  CHECK_FALSE(shaped.error.empty());
  CHECK(shaped.max_difference == 0.0f);

  const Matrix q2 = test::random_matrix(rng, 2, 2), k2 = test::random_matrix(rng, 2, 2);
  const AttentionResult right2 = attention_naive(q2, k2, k2, Mask::none());
  const WrongTranspose square = wrong_transpose(q2, k2, Mask::none(), right2.weights);
  CHECK(square.error.empty());
  const Matrix wrong = attention_naive(q2, k2.transpose(), k2.transpose(), Mask::none()).weights;
  CHECK(square.max_difference == doctest::Approx((wrong - right2.weights).cwiseAbs().maxCoeff()));
  CHECK(square.max_difference > 0.0f);
}

TEST_CASE("the kernel race spread over many tiny steps gives both kernels' whole outputs, agreeing") {
  KernelRace race(96, 16, 8, 7, /*naive_allowed=*/true);
  CHECK(kernel_status_name(race.naive().status) == std::string("waiting"));
  int steps = 0;
  while (!race.step(0.0) && steps < 10000) ++steps;  // a zero budget: one slice per step
  CHECK(steps > 3);
  REQUIRE(race.finished());
  CHECK(race.compared());
  CHECK(race.naive().status == KernelStatus::done);
  CHECK(race.tiled().status == KernelStatus::done);
  CHECK(race.naive().rows_done == 96);
  CHECK(race.tiled().rows_done == 96);
  CHECK(race.max_difference() < 1e-5f);
  CHECK(race.gflops(race.tiled()) > 0.0);
}

TEST_CASE("a race whose naive kernel is refused runs the tiled kernel alone; stop ends a race early") {
  KernelRace alone(40, 8, 4, 7, /*naive_allowed=*/false);
  while (!alone.step(1.0)) {
  }
  CHECK(alone.naive().status == KernelStatus::refused);
  CHECK(alone.naive().rows_done == 0);
  CHECK(alone.tiled().status == KernelStatus::done);

  KernelRace stopped(4000, 64, 64, 7, true);
  stopped.step(0.0);
  stopped.stop();
  CHECK(stopped.finished());
  CHECK_FALSE(stopped.compared());
  CHECK(stopped.naive().status == KernelStatus::stopped);
  CHECK(stopped.tiled().status == KernelStatus::stopped);
  CHECK(stopped.step(1.0));  // nothing left to do
}

TEST_CASE("a kernel's speed counts the query rows it computed, so a stopped run is not credited with all T") {
  KernelRace race(2048, 64, 64, 7, /*naive_allowed=*/false);
  while (race.tiled().rows_done == 0) race.step(0.001);  // inputs first, then a first slice
  race.stop();
  const KernelRun& tiled = race.tiled();
  REQUIRE(tiled.status == KernelStatus::stopped);
  REQUIRE(tiled.rows_done > 0);
  REQUIRE(tiled.rows_done < 2048);
  REQUIRE(tiled.seconds > 0.0);
  // each row: its 2048 scores (2048·64 multiply-adds) and its weighted sum of V (as many)
  const double operations = 4.0 * static_cast<double>(tiled.rows_done) * 2048 * 64;
  CHECK(race.gflops(tiled) == doctest::Approx(operations / tiled.seconds / 1e9));
}
