// layers_test.cpp: multi-head attention, feed-forward, LayerNorm and next-token probabilities.
#include "helpers.h"

#include "engine/core/error.h"
#include "engine/core/layers.h"

#include <doctest/doctest.h>

#include <random>

using namespace neuralpath;
using neuralpath::test::from_rows;
using neuralpath::test::max_abs_diff;
using neuralpath::test::random_matrix;

namespace {

// The multi-head example. Expected numbers from torch.nn.MultiheadAttention(4, 2, bias=False)
// in float64 (PyTorch 1.13), with in_proj_weight = cat(W_Q.T, W_K.T, W_V.T) and
// out_proj.weight = W_O.T (torch multiplies by the transpose; the lessons write X·W).
AttentionLayer example_layer() {
  AttentionLayer layer;
  layer.heads = 2;
  layer.w_q = from_rows(4, 4, {1, 0, 0.5f, 0, 0, 1, 0, -0.5f, 0.5f, 0, 1, 0, 0, 0.25f, 0, 1});
  layer.w_k = from_rows(4, 4, {0, 1, 0, 0, 1, 0, 0, 0.5f, 0, 0, 1, 0, 0.5f, 0, 0, 1});
  layer.w_v = from_rows(4, 4, {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1});
  layer.w_o = from_rows(4, 4, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0});
  return layer;
}
// Dynamic-size vectors (fixed-size ones trip GCC 12's -Warray-bounds inside Eigen).
Vector vec(std::initializer_list<float> values) {
  Vector v(static_cast<Index>(values.size()));
  Index i = 0;
  for (const float x : values) v(i++) = x;
  return v;
}
const Matrix kX = from_rows(3, 4, {0.5f, -1, 0.25f, 2, 1.5f, 0, -0.5f, 1, -1, 0.75f, 1, 0});

}  // namespace

TEST_CASE("multi-head attention matches PyTorch's MultiheadAttention to 1e-6") {
  const AttentionLayer layer = example_layer();
  SUBCASE("bidirectional") {
    const MultiHeadResult r = multi_head_attention(kX, layer, Mask::none());
    const Matrix expected =
        from_rows(3, 4,
                  {-0.130476488f, 0.365543199f, 1.729942447f, 0.180530040f, 0.413428356f, 0.053556164f, 1.442416741f,
                   0.214917650f, 0.826593938f, -0.534467230f, 1.223554751f, 0.431881631f});
    REQUIRE(r.heads.size() == 2);
    CHECK(max_abs_diff(r.output, expected) <= 1e-6f);
    const float head2_row2[] = {0.275285027f, 0.241103066f, 0.483611907f};
    for (Index j = 0; j < 3; ++j) CHECK(std::abs(r.heads[1].weights(2, j) - head2_row2[j]) <= 1e-6f);
    CHECK(r.heads[0].scale == doctest::Approx(1.0f / std::sqrt(2.0f)));  // d_head = 2
  }
  SUBCASE("causal") {
    const MultiHeadResult r = multi_head_attention(kX, layer, Mask::causal_mask());
    const Matrix expected = from_rows(3, 4,
                                      {0.5f, -2, 2.25f, 0.25f, 1.149927020f, -0.700145960f, 1.583592528f, -0.035603202f,
                                       0.826593938f, -0.534467230f, 1.223554751f, 0.431881631f});
    CHECK(max_abs_diff(r.output, expected) <= 1e-6f);
  }
}

TEST_CASE("multi-head attention with the tiled kernel equals the naive one for 1, 2 and 4 heads") {
  std::mt19937 rng(17);
  for (const int heads : {1, 2, 4}) {
    for (const int T : {1, 9, 33}) {
      AttentionLayer layer;
      layer.heads = heads;
      layer.w_q = random_matrix(rng, 16, 16, 0.3f);
      layer.w_k = random_matrix(rng, 16, 16, 0.3f);
      layer.w_v = random_matrix(rng, 16, 16, 0.3f);
      layer.w_o = random_matrix(rng, 16, 16, 0.3f);
      const Matrix x = random_matrix(rng, T, 16);
      for (const Mask& mask : {Mask::none(), Mask::causal_mask()}) {
        const auto naive = multi_head_attention(x, layer, mask, Kernel::naive);
        const auto tiled = multi_head_attention(x, layer, mask, Kernel::tiled, 4);
        CHECK(max_abs_diff(naive.output, tiled.output) <= 1e-5f);
      }
    }
  }
}

TEST_CASE("splitting into heads and concatenating them gives back the same matrix") {
  std::mt19937 rng(2);
  const Matrix m = random_matrix(rng, 3, 8);
  const auto heads = split_heads(m, 4);
  REQUIRE(heads.size() == 4);
  CHECK(heads[1].cols() == 2);
  CHECK(heads[1](2, 0) == m(2, 2));
  CHECK(concat_heads(heads) == m);
  CHECK_THROWS_AS(split_heads(m, 3), InputError);
}

TEST_CASE("LayerNorm matches PyTorch's layer_norm to 1e-6") {
  // torch.nn.functional.layer_norm(x, (4,), gamma, beta, 1e-5) in float64
  LayerNormParams p;
  p.gamma = vec({1, 2, 1, 0.5f});
  p.beta = vec({0, 0.1f, 0, -0.1f});
  const LayerNormResult r = layer_norm(from_rows(2, 4, {1, 2, 3, 4, 0, 0, 0, 1}), p);
  const Matrix expected = from_rows(2, 4,
                                    {-1.341635420f, -0.794423613f, 0.447211807f, 0.570817710f, -0.577334874f,
                                     -1.054669748f, -0.577334874f, 0.766002311f});
  CHECK(max_abs_diff(r.output, expected) <= 1e-6f);
  CHECK(r.mean(0) == doctest::Approx(2.5f));
  CHECK(r.stddev(1) == doctest::Approx(std::sqrt(0.1875f + 1e-5f)));
}

TEST_CASE("the feed-forward layer is relu(x W1 + b1) W2 + b2") {
  FeedForward ffn;
  ffn.w1 = from_rows(2, 3, {1, -1, 0, 0, 1, 2});
  ffn.b1 = vec({0, 0.5f, -1});
  ffn.w2 = from_rows(3, 2, {1, 0, 0, 1, 1, 1});
  ffn.b2 = vec({0.25f, 0});
  const FeedForwardResult r = feed_forward(from_rows(1, 2, {2, 1}), ffn);
  // pre = [2, -1 + 0.5, 2 - 1] = [2, -0.5, 1]; relu = [2, 0, 1]; out = [2 + 1 + 0.25, 0 + 1]
  CHECK(max_abs_diff(r.pre, from_rows(1, 3, {2, -0.5f, 1})) == 0.0f);
  CHECK(r.hidden(0, 1) == 0.0f);
  CHECK(max_abs_diff(r.output, from_rows(1, 2, {3.25f, 1})) == 0.0f);
}

TEST_CASE("next-token probabilities sum to 1, are ranked, and sharpen as the temperature drops") {
  const Matrix u = from_rows(3, 2, {1, 0, 0, 1, -1, 0});
  const Vector h = vec({2, 1});
  const NextTokenResult warm = next_token(h, u, {"cat", "dog", "mat"}, 1.0f);
  const NextTokenResult cold = next_token(h, u, {"cat", "dog", "mat"}, 0.25f);
  CHECK(warm.probabilities.sum() == doctest::Approx(1.0f));
  CHECK(warm.ranking == std::vector<int>{0, 1, 2});
  CHECK(warm.logits(2) == -2.0f);
  CHECK(cold.probabilities(0) > warm.probabilities(0));
  CHECK_THROWS_AS(next_token(h, u, {"cat"}, 1.0f), InputError);
}
