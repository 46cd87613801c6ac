// attention_test.cpp: scaled dot-product attention, its masks, and the two kernels agreeing.
#include "helpers.h"

#include "engine/core/attention.h"
#include "engine/core/error.h"
#include "engine/core/softmax.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <random>

using namespace neuralpath;
using neuralpath::test::from_rows;
using neuralpath::test::max_abs_diff;
using neuralpath::test::random_matrix;

namespace {

// The hand-worked example (T = 3, d_k = 4, d_v = 2, so scale = 1/2).
const Matrix kQ = from_rows(3, 4, {1, 0, 1, 0, /**/ 0, 2, 0, 1, /**/ 1, 1, 1, 1});
const Matrix kK = from_rows(3, 4, {1, 1, 0, 0, /**/ 0, 1, 2, 0, /**/ 0.5f, 0, 0, 3});
const Matrix kV = from_rows(3, 2, {1, 2, /**/ 0, -1, /**/ 3, 0.5f});

}  // namespace

TEST_CASE("a hand-worked T=3 example matches the reference to 1e-6") {
  // Expected values from PyTorch 1.13 in float64 (/usr/bin/python3):
  //   S = Q @ K.T; W = torch.softmax(S / 2 + M, dim=-1); O = W @ V
  // with M = 0 (none) or torch.triu(full((3,3), -inf), 1) (causal).
  // By hand: scores = [[1,2,0.5],[2,2,3],[2,3,3.5]], e.g. row 0 of W = softmax([0.5,1,0.25]).
  const Matrix scores = from_rows(3, 3, {1, 2, 0.5f, 2, 2, 3, 2, 3, 3.5f});
  SUBCASE("bidirectional") {
    const AttentionResult r = attention_naive(kQ, kK, kV, Mask::none());
    const Matrix w = from_rows(3, 3,
                               {0.291755964f, 0.481024263f, 0.227219773f, 0.274068619f, 0.274068619f, 0.451862762f,
                                0.209831826f, 0.345954195f, 0.444213979f});
    const Matrix o = from_rows(3, 2, {0.973415283f, 0.216097551f, 1.629656905f, 0.5f, 1.542473764f, 0.295816447f});
    CHECK(r.scale == 0.5f);
    CHECK(max_abs_diff(r.scores, scores) == 0.0f);
    CHECK(max_abs_diff(r.weights, w) <= 1e-6f);
    CHECK(max_abs_diff(r.output, o) <= 1e-6f);
    CHECK(max_abs_diff(attention_tiled(kQ, kK, kV, Mask::none(), 2), o) <= 1e-6f);
  }
  SUBCASE("causal") {
    const AttentionResult r = attention_naive(kQ, kK, kV, Mask::causal_mask());
    const Matrix w = from_rows(3, 3, {1, 0, 0, 0.5f, 0.5f, 0, 0.209831826f, 0.345954195f, 0.444213979f});
    const Matrix o = from_rows(3, 2, {1, 2, 0.5f, 0.5f, 1.542473764f, 0.295816447f});
    CHECK(max_abs_diff(r.weights, w) <= 1e-6f);
    CHECK(max_abs_diff(r.output, o) <= 1e-6f);
    CHECK(max_abs_diff(attention_tiled(kQ, kK, kV, Mask::causal_mask(), 2), o) <= 1e-6f);
  }
}

TEST_CASE("every softmax row sums to 1 and causal weights above the diagonal are exactly 0") {
  std::mt19937 rng(7);
  for (const Mask& mask : {Mask::none(), Mask::causal_mask()}) {
    const Matrix q = random_matrix(rng, 9, 5), k = random_matrix(rng, 9, 5), v = random_matrix(rng, 9, 3);
    const AttentionResult r = attention_naive(q, k, v, mask);
    for (Index i = 0; i < 9; ++i) CHECK(r.weights.row(i).sum() == doctest::Approx(1.0f).epsilon(1e-6));
    if (mask.causal)
      for (Index i = 0; i < 9; ++i)
        for (Index j = i + 1; j < 9; ++j) CHECK(r.weights(i, j) == 0.0f);
  }
}

TEST_CASE("masking after the softmax breaks the row sums, and the engine masks before it") {
  std::mt19937 rng(11);
  const Matrix q = random_matrix(rng, 5, 4), k = random_matrix(rng, 5, 4), v = random_matrix(rng, 5, 2);
  const AttentionResult r = attention_naive(q, k, v, Mask::causal_mask());

  // The classic mistake: softmax over all keys, then zero the future.
  Matrix wrong = softmax_rows(r.scaled);
  for (Index i = 0; i < 5; ++i)
    for (Index j = i + 1; j < 5; ++j) wrong(i, j) = 0.0f;
  for (Index i = 0; i + 1 < 5; ++i) CHECK(wrong.row(i).sum() < 0.999f);  // probability mass lost

  // The engine: -infinity before the softmax, so each row still sums to 1.
  for (Index i = 0; i < 5; ++i) CHECK(r.weights.row(i).sum() == doctest::Approx(1.0f).epsilon(1e-6));
  CHECK(std::isinf(r.masked(0, 1)));
  CHECK(max_abs_diff(r.weights, wrong) > 1e-3f);
}

TEST_CASE("bidirectional attention is permutation-equivariant") {
  std::mt19937 rng(3);
  const Index T = 6;
  const Matrix q = random_matrix(rng, T, 4), k = random_matrix(rng, T, 4), v = random_matrix(rng, T, 3);
  Eigen::PermutationMatrix<Eigen::Dynamic> p(T);
  p.indices() << 3, 0, 5, 1, 4, 2;
  const AttentionResult r = attention_naive(q, k, v, Mask::none());
  const AttentionResult rp = attention_naive(p * q, p * k, p * v, Mask::none());
  CHECK(max_abs_diff(rp.output, p * r.output) <= 1e-6f);
  CHECK(max_abs_diff(rp.weights, p * r.weights * p.transpose()) <= 1e-6f);
  CHECK(max_abs_diff(attention_tiled(p * q, p * k, p * v, Mask::none(), 4), p * r.output) <= 1e-5f);
}

TEST_CASE("scaling by 1/sqrt(d_k) is applied exactly once") {
  std::mt19937 rng(5);
  const Index dk = 16;
  const Matrix q = random_matrix(rng, 4, dk, 2.0f), k = random_matrix(rng, 4, dk, 2.0f), v = random_matrix(rng, 4, 2);
  const AttentionResult r = attention_naive(q, k, v, Mask::none());
  CHECK(r.scale == 0.25f);
  CHECK(max_abs_diff(r.scaled, r.scores * 0.25f) == 0.0f);
  const Matrix once = softmax_rows(q * k.transpose() / 4.0f);
  const Matrix twice = softmax_rows(q * k.transpose() / 16.0f);
  CHECK(max_abs_diff(r.weights, once) <= 1e-6f);
  CHECK(max_abs_diff(r.weights, twice) > 1e-2f);
  CHECK(max_abs_diff(attention_tiled(q, k, v, Mask::none(), 3), once * v) <= 1e-5f);
}

TEST_CASE("tiled equals naive within 1e-5 across random T, d, blocks and masks" * doctest::test_suite("slow")) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int> coin(0, 1);
  float worst = 0.0f;
  int cases = 0;
  for (const int T : {1, 2, 3, 5, 7, 16, 31, 64, 65, 100, 129}) {
    for (const int d : {1, 3, 8, 16, 64}) {
      for (const int block : {1, 2, 3, 7, 16, 64, 128}) {
        for (int m = 0; m < 4; ++m) {
          Mask mask = (m % 2) ? Mask::causal_mask() : Mask::none();
          if (m >= 2) {  // padding: about a third of the keys, sometimes all of them
            mask.padded_keys.resize(static_cast<std::size_t>(T));
            for (auto&& flag : mask.padded_keys) flag = coin(rng) && coin(rng);
          }
          const Matrix q = random_matrix(rng, T, d), k = random_matrix(rng, T, d);
          const Matrix v = random_matrix(rng, T, 1 + (d % 5));
          const Matrix naive = attention_naive(q, k, v, mask).output;
          const Matrix tiled = attention_tiled(q, k, v, mask, block);
          const float diff = max_abs_diff(naive, tiled);
          worst = std::max(worst, diff);
          ++cases;
          if (diff > 1e-5f) {
            CHECK_MESSAGE(diff <= 1e-5f, "T=" << T << " d=" << d << " block=" << block << " mask=" << mask.name());
          }
          CHECK(tiled.allFinite());
        }
      }
    }
  }
  std::printf("tiled vs naive: %d cases, max abs diff %.3g\n", cases, static_cast<double>(worst));
  CHECK(worst <= 1e-5f);
}

TEST_CASE("tiled and naive agree with a double-precision reference when Tq differs from Tk") {
  std::mt19937 rng(99);
  const Matrix q = random_matrix(rng, 5, 8), k = random_matrix(rng, 9, 8), v = random_matrix(rng, 9, 4);
  for (const Mask& mask : {Mask::none(), Mask::causal_mask()}) {
    MatrixD w;
    const Matrix ref =
        attention_reference(q.cast<double>(), k.cast<double>(), v.cast<double>(), mask, &w).cast<float>();
    const AttentionResult r = attention_naive(q, k, v, mask);
    CHECK(max_abs_diff(r.output, ref) <= 1e-5f);
    CHECK(max_abs_diff(r.weights, w.cast<float>()) <= 1e-6f);
    CHECK(max_abs_diff(attention_tiled(q, k, v, mask, 4), ref) <= 1e-5f);
  }
}

TEST_CASE("huge logits (1e4) give finite output in both kernels") {
  // d = 1, q = k = ±100: scores of ±1e4 (scale 1), far past where exp() overflows float.
  const Matrix q = from_rows(3, 1, {100, -100, 100});
  const Matrix k = from_rows(3, 1, {100, -100, -100});
  const Matrix v = from_rows(3, 2, {1, 2, 3, 4, 5, 6});
  for (const Mask& mask : {Mask::none(), Mask::causal_mask()}) {
    const AttentionResult r = attention_naive(q, k, v, mask);
    CHECK(r.weights.allFinite());
    CHECK(r.output.allFinite());
    CHECK(r.weights(0, 0) == doctest::Approx(1.0f));
    const Matrix tiled = attention_tiled(q, k, v, mask, 1);
    CHECK(tiled.allFinite());
    CHECK(max_abs_diff(tiled, r.output) <= 1e-5f);
  }
}

TEST_CASE("a fully masked row gives zero weights and a zero output, never NaN") {
  std::mt19937 rng(1);
  const Matrix q = random_matrix(rng, 4, 3), k = random_matrix(rng, 4, 3), v = random_matrix(rng, 4, 2);
  SUBCASE("every key is padding") {
    const Mask mask = Mask::padding({true, true, true, true});
    const AttentionResult r = attention_naive(q, k, v, mask);
    CHECK(r.weights.isZero(0.0f));
    CHECK(r.output.isZero(0.0f));
    CHECK(attention_tiled(q, k, v, mask, 3).isZero(0.0f));
  }
  SUBCASE("causal plus a padded first key leaves the first query nothing to see") {
    const Mask mask = Mask::padding({true, false, false, false}, true);
    CHECK(mask.name() == "causal+padding");
    const AttentionResult r = attention_naive(q, k, v, mask);
    CHECK(r.weights.row(0).isZero(0.0f));
    CHECK(r.output.row(0).isZero(0.0f));
    for (Index i = 1; i < 4; ++i) CHECK(r.weights.row(i).sum() == doctest::Approx(1.0f));
    CHECK(r.weights.col(0).isZero(0.0f));
    CHECK(max_abs_diff(attention_tiled(q, k, v, mask, 2), r.output) <= 1e-6f);
  }
}

TEST_CASE("bad attention input is an InputError with a message") {
  const Matrix q = Matrix::Ones(2, 3);
  CHECK_THROWS_WITH(attention_naive(q, Matrix::Ones(2, 4), Matrix::Ones(2, 1), Mask::none()),
                    doctest::Contains("q and k must share d"));
  CHECK_THROWS_WITH(attention_naive(q, Matrix::Ones(2, 3), Matrix::Ones(3, 1), Mask::none()),
                    doctest::Contains("k and v must share T"));
  CHECK_THROWS_WITH(attention_tiled(Matrix(0, 3), Matrix::Ones(2, 3), Matrix::Ones(2, 1), Mask::none()),
                    doctest::Contains("T = 0"));
  Matrix bad = q;
  bad(1, 1) = std::nanf("");
  CHECK_THROWS_AS(attention_naive(bad, q, q, Mask::none()), InputError);
  CHECK_THROWS_AS(attention_tiled(q, q, q, Mask::none(), 0), InputError);
  CHECK_THROWS_AS(attention_naive(q, q, q, Mask::padding({true})), InputError);
  CHECK_THROWS_AS(parse_mask("sideways"), InputError);
}

TEST_CASE("the tiled kernel holds far less memory than the T x T matrices it avoids") {
  CHECK(attention_naive_working_bytes(4096, 4096) == 4u * 4096u * 4096u * 4u);
  // per thread: one block of scores, and the transposed queries (at most 128 KiB of them),
  // running max and sum of a group of strips (simd_attention.cpp): a few hundred KiB for all
  // threads, whatever T is (256 MiB for naive here)
  CHECK(attention_tiled_working_bytes(4096, 4096, 64, 64) < 512u * 1024u);
  CHECK(attention_tiled_working_bytes(65536, 65536, 64, 64) == attention_tiled_working_bytes(4096, 4096, 64, 64));
}
