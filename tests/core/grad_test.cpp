// grad_test.cpp: every layer's backward against finite differences, and the tiled attention
// backward against the naive one. Each check prints its largest error (doctest MESSAGE).
//
// The finite difference is central: (L(θ + ε) − L(θ − ε)) / 2ε with ε = 1e-3, on a scalar
// L = Σ output ⊙ R for a fixed random R (so ∂L/∂output = R). In float32 that estimate is good
// to about 1e-3 for the O(1) values used here, hence the tolerance.
#include "finite_difference.h"
#include "helpers.h"

#include "engine/core/backward.h"
#include "engine/core/embedding.h"
#include "engine/core/softmax.h"
#include "engine/core/training.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <random>

using namespace neuralpath;
using neuralpath::test::central_difference;
using neuralpath::test::max_abs_diff;
using neuralpath::test::random_matrix;

namespace {

constexpr float kEps = 1e-3f;
constexpr float kTolerance = 3e-3f;

double dot(const Matrix& a, const Matrix& r) { return a.cast<double>().cwiseProduct(r.cast<double>()).sum(); }

// The largest |analytic − numeric| over every entry of the buffer `value` (size n).
float fd_error(const std::function<double()>& loss, float* value, const float* analytic, Index n) {
  float worst = 0.0f;
  for (Index i = 0; i < n; ++i) {
    const float numeric = central_difference(loss, value[i], kEps);
    worst = std::max(worst, std::abs(numeric - analytic[i]));
  }
  return worst;
}

template <typename Buffer>
float fd_error(const std::function<double()>& loss, Buffer& value, const Buffer& analytic) {
  return fd_error(loss, value.data(), analytic.data(), value.size());
}

Mask padding_mask(Index t, bool causal) {
  std::vector<bool> padded(static_cast<std::size_t>(t), false);
  padded.back() = true;  // the last key is padding
  if (t > 2) padded[1] = true;
  return Mask::padding(padded, causal);
}

}  // namespace

TEST_CASE("embedding lookup: the gradient of a row is the sum of the rows that used it") {
  std::mt19937 rng(1);
  Matrix table = random_matrix(rng, 5, 3);
  const std::vector<int> ids = {2, 0, 2, 4};  // word 2 used twice
  const Matrix r = random_matrix(rng, 4, 3);
  Matrix dtable = Matrix::Zero(5, 3);
  embedding_backward(dtable, r, ids);
  const float err = fd_error([&] { return dot(embedding_forward(table, ids), r); }, table, dtable);
  MESSAGE("embedding max |analytic - numeric| = " << err);
  CHECK(err <= kTolerance);
  CHECK(dtable.row(1).isZero());  // an unused word gets no gradient
}

TEST_CASE("positions: x = e + s·PE passes dx to e and Σ dx⊙PE to the scale") {
  std::mt19937 rng(2);
  Matrix e = random_matrix(rng, 4, 6);
  const Matrix pe = positional_encoding(4, 6);
  Matrix scale(1, 1);
  scale(0, 0) = 0.3f;
  const Matrix r = random_matrix(rng, 4, 6);
  Matrix de = Matrix::Zero(4, 6), dscale = Matrix::Zero(1, 1);
  positions_backward(de, dscale(0, 0), r, pe);
  auto loss = [&] { return dot(positions_forward(e, pe, scale(0, 0)), r); };
  const float err = std::max(fd_error(loss, e, de), fd_error(loss, scale, dscale));
  MESSAGE("positions max error = " << err);
  CHECK(err <= kTolerance);
}

TEST_CASE("linear layer y = x·W + b: dx, dW and db match finite differences") {
  std::mt19937 rng(3);
  Matrix x = random_matrix(rng, 3, 4), w = random_matrix(rng, 4, 5);
  Vector b = random_matrix(rng, 5, 1);
  const Matrix r = random_matrix(rng, 3, 5);
  Matrix dx = Matrix::Zero(3, 4), dw = Matrix::Zero(4, 5);
  Vector db = Vector::Zero(5);
  linear_backward(&dx, dw, &db, r, x, w);
  auto loss = [&] { return dot(linear_forward(x, w, b), r); };
  const float err = std::max({fd_error(loss, x, dx), fd_error(loss, w, dw), fd_error(loss, b, db)});
  MESSAGE("linear max error = " << err);
  CHECK(err <= kTolerance);
}

TEST_CASE("naive attention backward matches finite differences for every mask") {
  std::mt19937 rng(4);
  const Index tq = 5, tk = 5, dk = 3, dv = 4;
  for (const auto& [name, mask] : {std::pair<std::string, Mask>{"none", Mask::none()},
                                   {"causal", Mask::causal_mask()},
                                   {"padding", padding_mask(tk, false)},
                                   {"causal+padding", padding_mask(tk, true)}}) {
    CAPTURE(name);
    Matrix q = random_matrix(rng, tq, dk), k = random_matrix(rng, tk, dk), v = random_matrix(rng, tk, dv);
    const Matrix r = random_matrix(rng, tq, dv);
    const AttentionResult fwd = attention_naive(q, k, v, mask);
    Matrix dq = Matrix::Zero(tq, dk), dk_ = Matrix::Zero(tk, dk), dv_ = Matrix::Zero(tk, dv);
    attention_naive_backward(dq, dk_, dv_, r, nullptr, q, k, v, fwd);
    auto loss = [&] { return dot(attention_naive(q, k, v, mask).output, r); };
    const float err = std::max({fd_error(loss, q, dq), fd_error(loss, k, dk_), fd_error(loss, v, dv_)});
    MESSAGE("attention (" << name << ") max error = " << err);
    CHECK(err <= kTolerance);
    if (mask.causal && mask.padded_keys.empty())  // only the last query sees the last key
      CHECK(max_abs_diff(dv_.row(tk - 1), fwd.weights(tq - 1, tk - 1) * r.row(tq - 1)) <= 1e-6f);
  }
}

TEST_CASE("naive attention backward takes a gradient on the weights themselves") {
  std::mt19937 rng(5);
  Matrix q = random_matrix(rng, 4, 2), k = random_matrix(rng, 4, 2), v = random_matrix(rng, 4, 3);
  const Matrix r = random_matrix(rng, 4, 3), rw = random_matrix(rng, 4, 4);
  const AttentionResult fwd = attention_naive(q, k, v, Mask::none());
  Matrix dq = Matrix::Zero(4, 2), dk = Matrix::Zero(4, 2), dv = Matrix::Zero(4, 3);
  attention_naive_backward(dq, dk, dv, r, &rw, q, k, v, fwd);
  auto loss = [&] {
    const AttentionResult a = attention_naive(q, k, v, Mask::none());
    return dot(a.output, r) + dot(a.weights, rw);
  };
  const float err = std::max({fd_error(loss, q, dq), fd_error(loss, k, dk), fd_error(loss, v, dv)});
  MESSAGE("attention with a weights gradient max error = " << err);
  CHECK(err <= kTolerance);
}

TEST_CASE("tiled attention backward equals the naive one within 1e-5 across shapes, blocks and masks" *
          doctest::test_suite("slow")) {
  std::mt19937 rng(6);
  std::uniform_int_distribution<int> len(1, 40), width(1, 9), blocks(1, 17);
  float worst = 0.0f;
  for (int trial = 0; trial < 60; ++trial) {
    const Index tq = len(rng), dk = width(rng), dv = width(rng);
    const bool square = trial % 3 != 0;  // causal masks are usually square; also test Tq != Tk
    const Index tk = square ? tq : len(rng);
    const int block = blocks(rng);
    Mask mask;
    switch (trial % 4) {
      case 0: mask = Mask::none(); break;
      case 1: mask = Mask::causal_mask(); break;
      case 2: mask = padding_mask(tk, false); break;
      default: mask = padding_mask(tk, true); break;
    }
    if (tk < 2 && !mask.padded_keys.empty()) mask = Mask::causal_mask();
    CAPTURE(tq);
    CAPTURE(tk);
    CAPTURE(block);
    const Matrix q = random_matrix(rng, tq, dk), k = random_matrix(rng, tk, dk), v = random_matrix(rng, tk, dv);
    const Matrix r = random_matrix(rng, tq, dv);
    const AttentionResult fwd = attention_naive(q, k, v, mask);
    Matrix dq = Matrix::Zero(tq, dk), dk_n = Matrix::Zero(tk, dk), dv_n = Matrix::Zero(tk, dv);
    attention_naive_backward(dq, dk_n, dv_n, r, nullptr, q, k, v, fwd);

    const Matrix out = attention_tiled(q, k, v, mask, block);
    const Vector lse = attention_row_logsumexp(q, k, mask, block);
    Matrix dq_t = Matrix::Zero(tq, dk), dk_t = Matrix::Zero(tk, dk), dv_t = Matrix::Zero(tk, dv);
    attention_tiled_backward(dq_t, dk_t, dv_t, r, q, k, v, mask, out, lse, block);
    const float diff = std::max({max_abs_diff(dq, dq_t), max_abs_diff(dk_n, dk_t), max_abs_diff(dv_n, dv_t)});
    worst = std::max(worst, diff);
    CHECK(diff <= 1e-5f);
  }
  MESSAGE("tiled vs naive backward, worst max |diff| over 60 shapes = " << worst);
}

TEST_CASE("multi-head attention backward (split, heads, concat, W_O) matches finite differences") {
  std::mt19937 rng(7);
  AttentionLayer layer;
  layer.heads = 2;
  layer.w_q = random_matrix(rng, 4, 4, 0.7f);
  layer.w_k = random_matrix(rng, 4, 4, 0.7f);
  layer.w_v = random_matrix(rng, 4, 4, 0.7f);
  layer.w_o = random_matrix(rng, 4, 4, 0.7f);
  Matrix x = random_matrix(rng, 5, 4);
  const Matrix r = random_matrix(rng, 5, 4);
  for (const Kernel kernel : {Kernel::naive, Kernel::tiled}) {
    const std::string kernel_label = kernel_name(kernel);
    CAPTURE(kernel_label);
    const Mask mask = Mask::causal_mask();
    const MultiHeadResult fwd = multi_head_attention(x, layer, mask, kernel, 2);
    Matrix dx = Matrix::Zero(5, 4);
    AttentionGrads g = AttentionGrads::zeros(4);
    multi_head_backward(dx, g, r, x, layer, mask, fwd, nullptr, kernel, 2);
    auto loss = [&] { return dot(multi_head_attention(x, layer, mask, kernel, 2).output, r); };
    const float err =
        std::max({fd_error(loss, x, dx), fd_error(loss, layer.w_q, g.w_q), fd_error(loss, layer.w_k, g.w_k),
                  fd_error(loss, layer.w_v, g.w_v), fd_error(loss, layer.w_o, g.w_o)});
    MESSAGE("multi-head (" << kernel_label << ") max error = " << err);
    CHECK(err <= kTolerance);
  }
}

TEST_CASE("split and concat heads are each other's backward") {
  std::mt19937 rng(8);
  const Matrix m = random_matrix(rng, 3, 6);
  CHECK(split_heads_backward(concat_heads_backward(m, 3)) == m);
}

TEST_CASE("residual: the gradient reaches both the input and the sublayer unchanged") {
  std::mt19937 rng(9);
  const Matrix dy = random_matrix(rng, 2, 3);
  Matrix dx = Matrix::Ones(2, 3), ds = Matrix::Zero(2, 3);
  residual_backward(dx, ds, dy);
  CHECK(max_abs_diff(dx, dy + Matrix::Ones(2, 3)) == 0.0f);  // accumulated, not overwritten
  CHECK(max_abs_diff(ds, dy) == 0.0f);
}

TEST_CASE("LayerNorm backward: dx, dgamma and dbeta match finite differences") {
  std::mt19937 rng(10);
  Matrix x = random_matrix(rng, 3, 6);
  LayerNormParams p;
  p.gamma = random_matrix(rng, 6, 1);
  p.beta = random_matrix(rng, 6, 1);
  const Matrix r = random_matrix(rng, 3, 6);
  const LayerNormResult fwd = layer_norm(x, p);
  Matrix dx = Matrix::Zero(3, 6);
  LayerNormGrads g = LayerNormGrads::zeros(6);
  layer_norm_backward(dx, g, r, x, p, fwd);
  auto loss = [&] { return dot(layer_norm(x, p).output, r); };
  const float err = std::max({fd_error(loss, x, dx), fd_error(loss, p.gamma, g.gamma), fd_error(loss, p.beta, g.beta)});
  MESSAGE("LayerNorm max error = " << err);
  CHECK(err <= kTolerance);
}

TEST_CASE("feed-forward backward (two linear layers around a ReLU) matches finite differences") {
  std::mt19937 rng(11);
  FeedForward ffn;
  ffn.w1 = random_matrix(rng, 4, 7);
  ffn.w2 = random_matrix(rng, 7, 4);
  ffn.b1 = random_matrix(rng, 7, 1);
  ffn.b2 = random_matrix(rng, 4, 1);
  Matrix x = random_matrix(rng, 3, 4);
  const Matrix r = random_matrix(rng, 3, 4);
  const FeedForwardResult fwd = feed_forward(x, ffn);
  REQUIRE((fwd.pre.array().abs() > 10 * kEps).all());  // no ReLU kink inside the FD step
  Matrix dx = Matrix::Zero(3, 4);
  FeedForwardGrads g = FeedForwardGrads::zeros(4, 7);
  feed_forward_backward(dx, g, r, x, ffn, fwd);
  auto loss = [&] { return dot(feed_forward(x, ffn).output, r); };
  const float err = std::max({fd_error(loss, x, dx), fd_error(loss, ffn.w1, g.w1), fd_error(loss, ffn.b1, g.b1),
                              fd_error(loss, ffn.w2, g.w2), fd_error(loss, ffn.b2, g.b2)});
  MESSAGE("feed-forward max error = " << err);
  CHECK(err <= kTolerance);
}

TEST_CASE("softmax cross-entropy backward matches finite differences, with a temperature") {
  std::mt19937 rng(12);
  Matrix logits = random_matrix(rng, 4, 6);
  const std::vector<int> targets = {2, -1, 5, 0};  // row 1 has no target: no loss, no gradient
  const float temperature = 0.7f;
  Matrix p, dlogits = Matrix::Zero(4, 6);
  cross_entropy_forward(p, logits, targets, temperature);
  cross_entropy_backward(dlogits, p, targets, temperature);
  const float err = fd_error(
      [&] {
        Matrix q;
        return double(cross_entropy_forward(q, logits, targets, temperature));
      },
      logits, dlogits);
  MESSAGE("cross-entropy max error = " << err);
  CHECK(err <= kTolerance);
  CHECK(dlogits.row(1).isZero());
}

namespace {
// A small model with every part switched on: a context layer, two heads, feed-forward.
ModelSpec small_model() {
  ModelSpec spec = default_model_spec();
  spec.attention = AttentionLayer{};
  spec.attention.heads = 2;
  spec.context_layers.assign(1, AttentionLayer{});
  spec.feed_forward.hidden = 6;
  return initial_model(spec, 5);
}
}  // namespace

TEST_CASE("the whole block's gradient matches finite differences, for both objectives" * doctest::test_suite("slow")) {
  ModelSpec model = small_model();
  const std::vector<Token> tokens = tokenize("The animal didn't cross the street because it was too tired.");
  Example next = next_word_example(model.vocabulary, tokens);
  Example answer;
  answer.tokens = tokens;
  answer.query = 7;             // it
  answer.answer = 1;            // animal
  Example one_of_two = answer;  // the street is another answer of the same query: not a candidate
  one_of_two.other_answers = {5};
  for (const auto& [objective, example] : {std::pair<Objective, const Example*>{Objective::next_word, &next},
                                           {Objective::answer, &answer},
                                           {Objective::answer, &one_of_two}}) {
    const std::string objective_label = objective_name(objective);
    CAPTURE(objective_label);
    ModelGrads g = ModelGrads::zeros(model);
    example_loss(model, *example, objective, &g);
    auto loss = [&] { return double(example_loss(model, *example, objective)); };
    float err = 0.0f;
    const auto params = trainable_parameters(model, g);
    for (const ParameterRef& p : params) err = std::max(err, fd_error(loss, p.value, p.grad, p.size));
    MESSAGE("whole block (" << objective_label << ") max error over " << params.size()
                            << " parameter tensors = " << err);
    CHECK(err <= 5e-3f);
  }
}
