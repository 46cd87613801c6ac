// grad_test.cpp: every layer of the language model against finite differences (llm.c's habit:
// each forward/backward pair checked on its own, then the whole model). Each check prints its
// largest error (doctest MESSAGE).
//
// The finite difference is central, (L(θ + ε) − L(θ − ε)) / 2ε with ε = 1e-3 (1e-2 for the
// whole model, whose loss sums many rows), on a scalar L = Σ output ⊙ R for a fixed random R
// (so ∂L/∂output = R). In float32 that estimate is good to about 1e-3 for the O(1) values used
// here; the tolerance is |analytic − numeric| <= 3e-3 + 2e-2·|numeric|.
#include "engine/core/lm/layers.h"
#include "engine/core/lm/model.h"
#include "finite_difference.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

using namespace neuralpath::lm;
using neuralpath::test::central_difference;

namespace {

using Buffer = neuralpath::lm::Buffer;  // (64-byte aligned, as the model's own)

Buffer random_buffer(std::mt19937& rng, std::size_t n, float stddev = 1.0f) {
  std::normal_distribution<float> normal(0.0f, stddev);
  Buffer b(n);
  for (float& x : b) x = normal(rng);
  return b;
}

double dot(const Buffer& a, const Buffer& r) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * r[i];
  return s;
}

// The worst excess of |analytic − numeric| over the tolerance (<= 0 passes), over the entries
// `which` of `value` (all when empty).
template <typename Values, typename Grads>
float fd_excess(const std::function<double()>& loss, Values& value, const Grads& analytic, float eps = 1e-3f,
                const std::vector<std::size_t>& which = {}) {
  float worst = -1.0f, worst_error = 0.0f;
  const std::size_t n = which.empty() ? value.size() : which.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = which.empty() ? k : which[k];
    const float numeric = central_difference(loss, value[i], eps);
    const float error = std::abs(numeric - analytic[i]);
    worst = std::max(worst, error - (3e-3f + 2e-2f * std::abs(numeric)));
    worst_error = std::max(worst_error, error);
  }
  MESSAGE("largest |analytic - numeric|: " << worst_error);
  return worst;
}

// Each (tensor, its analytic gradient) of one loss against finite differences: every one passes.
void check_gradients(const std::function<double()>& loss,
                     std::initializer_list<std::pair<Buffer*, const Buffer*>> tensors) {
  int tensor = 0;
  for (const auto& [value, analytic] : tensors) {
    CAPTURE(tensor++);
    CHECK(fd_excess(loss, *value, *analytic) <= 0.0f);
  }
}

}  // namespace

TEST_CASE("GELU's backward matches finite differences (its tanh form, over negative and positive inputs)") {
  std::mt19937 rng(1);
  const int n = 64;
  Buffer in = random_buffer(rng, n, 2.0f), r = random_buffer(rng, n), out(n), din(n, 0.0f);
  auto loss = [&] {
    gelu_forward(out.data(), in.data(), n);
    return dot(out, r);
  };
  gelu_backward(din.data(), in.data(), r.data(), n);
  CHECK(fd_excess(loss, in, din) <= 0.0f);
  // GELU(0) = 0, GELU(x) -> x for large x, -> 0 for very negative x
  Buffer probe{0.0f, 8.0f, -8.0f}, value(3);
  gelu_forward(value.data(), probe.data(), 3);
  CHECK(value[0] == doctest::Approx(0.0f));
  CHECK(value[1] == doctest::Approx(8.0f).epsilon(1e-4));
  CHECK(std::abs(value[2]) < 1e-4f);
}

TEST_CASE("the linear layer's backward matches finite differences for input, weights and bias") {
  std::mt19937 rng(2);
  const int N = 6, C = 5, OC = 7;
  Buffer in = random_buffer(rng, N * C), w = random_buffer(rng, C * OC), b = random_buffer(rng, OC),
         r = random_buffer(rng, N * OC), out(N * OC);
  Buffer din(N * C, 0.0f), dw(C * OC, 0.0f), db(OC, 0.0f);
  auto loss = [&] {
    matmul_forward(out.data(), in.data(), w.data(), b.data(), N, C, OC);
    return dot(out, r);
  };
  matmul_backward(din.data(), dw.data(), db.data(), r.data(), in.data(), w.data(), N, C, OC);
  check_gradients(loss, {{&in, &din}, {&w, &dw}, {&b, &db}});
}

TEST_CASE("the MLP (linear, GELU, linear) backward matches finite differences through all four tensors") {
  std::mt19937 rng(3);
  const int N = 5, d = 6, h = 12;
  Buffer x = random_buffer(rng, N * d), w1 = random_buffer(rng, d * h, 0.5f), b1 = random_buffer(rng, h, 0.5f),
         w2 = random_buffer(rng, h * d, 0.5f), b2 = random_buffer(rng, d), r = random_buffer(rng, N * d);
  Buffer pre(N * h), act(N * h), out(N * d);
  auto loss = [&] {
    matmul_forward(pre.data(), x.data(), w1.data(), b1.data(), N, d, h);
    gelu_forward(act.data(), pre.data(), N * h);
    matmul_forward(out.data(), act.data(), w2.data(), b2.data(), N, h, d);
    return dot(out, r);
  };
  loss();
  Buffer dx(N * d, 0.0f), dw1(d * h, 0.0f), db1(h, 0.0f), dw2(h * d, 0.0f), db2(d, 0.0f), dact(N * h, 0.0f),
      dpre(N * h, 0.0f);
  matmul_backward(dact.data(), dw2.data(), db2.data(), r.data(), act.data(), w2.data(), N, h, d);
  gelu_backward(dpre.data(), pre.data(), dact.data(), N * h);
  matmul_backward(dx.data(), dw1.data(), db1.data(), dpre.data(), x.data(), w1.data(), N, d, h);
  check_gradients(loss, {{&x, &dx}, {&w1, &dw1}, {&b1, &db1}, {&w2, &dw2}, {&b2, &db2}});
}

TEST_CASE("token embedding: a token used twice gets both rows' gradients, an unused one none") {
  std::mt19937 rng(4);
  const int N = 8, d = 3, V = 6;
  const std::vector<int> ids{1, 3, 1, 0, 4, 4, 2, 1};  // token 1 three times, 4 twice, 5 never
  Buffer wte = random_buffer(rng, V * d), r = random_buffer(rng, N * d), x(N * d);
  Buffer dwte(V * d, 0.0f);
  auto loss = [&] {
    embedding_forward(x.data(), ids.data(), wte.data(), N, d);
    return dot(x, r);
  };
  embedding_backward(dwte.data(), r.data(), ids.data(), N, d);
  CHECK(fd_excess(loss, wte, dwte) <= 0.0f);
  for (int k = 0; k < d; ++k) {
    CHECK(dwte[3 * d + k] == r[1 * d + k]);  // token 3, used once (row 1): that row's R
    CHECK(dwte[1 * d + k] == doctest::Approx(r[0 * d + k] + r[2 * d + k] + r[7 * d + k]));  // token 1: rows 0, 2, 7
    CHECK(dwte[5 * d + k] == 0.0f);  // token 5, never used: nothing
  }
}

TEST_CASE("rotary positions: backward matches finite differences, and q·k depends on the offset only") {
  std::mt19937 rng(10);
  const int B = 2, T = 7, d = 8, H = 2;
  Buffer qkv = random_buffer(rng, B * T * 3 * d), r = random_buffer(rng, B * T * 3 * d), out;
  auto loss = [&] {
    out = qkv;
    rope_forward(out.data(), B, T, d, H);
    return dot(out, r);
  };
  Buffer grad = r;  // ∂L/∂out = R, rotated back
  rope_backward(grad.data(), B, T, d, H);
  CHECK(fd_excess(loss, qkv, grad) <= 0.0f);
  // The same query and key vector at every position: after rotation, q_t·k_{t−1} is one number.
  Buffer same(T * 3 * d);
  const Buffer row = random_buffer(rng, 3 * d);
  for (int t = 0; t < T; ++t) std::copy(row.begin(), row.end(), same.begin() + t * 3 * d);
  rope_forward(same.data(), 1, T, d, H);
  auto qk = [&](int t, int s) {
    double sum = 0.0;
    for (int i = 0; i < d / H; ++i)
      sum += static_cast<double>(same[t * 3 * d + i]) * same[s * 3 * d + d + i];  // head 0
    return sum;
  };
  for (int t = 2; t < T; ++t) CHECK(qk(t, t - 1) == doctest::Approx(qk(1, 0)).epsilon(1e-4));
  CHECK(qk(3, 0) != doctest::Approx(qk(1, 0)).epsilon(1e-3));  // another offset, another score
  // V is not rotated
  for (int i = 2 * d; i < 3 * d; ++i) CHECK(same[5 * 3 * d + i] == row[static_cast<std::size_t>(i)]);
}

TEST_CASE("LayerNorm's backward matches finite differences for x, gain and bias") {
  std::mt19937 rng(5);
  const int N = 4, d = 8;
  Buffer x = random_buffer(rng, N * d, 2.0f), g = random_buffer(rng, d), b = random_buffer(rng, d),
         r = random_buffer(rng, N * d), out(N * d), mean(N), rstd(N);
  Buffer dx(N * d, 0.0f), dg(d, 0.0f), dbeta(d, 0.0f);
  auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), N, d);
    return dot(out, r);
  };
  loss();
  layernorm_backward(dx.data(), dg.data(), dbeta.data(), r.data(), x.data(), g.data(), mean.data(), rstd.data(), N, d);
  check_gradients(loss, {{&x, &dx}, {&g, &dg}, {&b, &dbeta}});
}

TEST_CASE("causal multi-head attention on the tiled kernels: backward matches finite differences for Q, K and V") {
  std::mt19937 rng(6);
  const int B = 2, T = 5, d = 8, H = 2;
  Buffer qkv = random_buffer(rng, B * T * 3 * d), r = random_buffer(rng, B * T * d), out(B * T * d);
  auto loss = [&] {
    attention_forward(out.data(), qkv.data(), B, T, d, H);
    return dot(out, r);
  };
  loss();
  Buffer dqkv(B * T * 3 * d, 0.0f);
  attention_backward(dqkv.data(), r.data(), qkv.data(), out.data(), B, T, d, H);
  CHECK(fd_excess(loss, qkv, dqkv) <= 0.0f);
  // The naive kernel's output (the one the head scores read) equals the tiled one's.
  Buffer naive(B * T * d);
  std::vector<std::vector<float>> weights;
  attention_forward_with_weights(naive.data(), weights, qkv.data(), B, T, d, H);
  float diff = 0.0f;
  for (std::size_t i = 0; i < out.size(); ++i) diff = std::max(diff, std::abs(out[i] - naive[i]));
  CHECK(diff < 1e-3f);  // (scores of N(0, 1) features: large logits; float32 and the kernel's own exp)
  REQUIRE(weights.size() == static_cast<std::size_t>(B * H));
  CHECK(weights[0][0 * T + 1] == 0.0f);  // causal: token 0 never sees token 1
}

TEST_CASE("the tied output layer's backward matches finite differences for x and the shared embedding") {
  std::mt19937 rng(7);
  const int N = 4, d = 6, V = 9;
  Buffer x = random_buffer(rng, N * d), wte = random_buffer(rng, V * d), r = random_buffer(rng, N * V), logits(N * V);
  Buffer dx(N * d, 0.0f), dwte(V * d, 0.0f);
  auto loss = [&] {
    tied_output_forward(logits.data(), x.data(), wte.data(), N, d, V);
    return dot(logits, r);
  };
  tied_output_backward(dx.data(), dwte.data(), r.data(), x.data(), wte.data(), N, d, V);
  check_gradients(loss, {{&x, &dx}, {&wte, &dwte}});
}

TEST_CASE("softmax cross-entropy's backward is p − onehot, and matches finite differences") {
  std::mt19937 rng(8);
  const int N = 3, V = 7;
  const std::vector<int> targets{2, 0, 6};
  Buffer logits = random_buffer(rng, N * V, 2.0f), probs(N * V), losses(N);
  auto loss = [&] {
    probs = logits;
    softmax_crossentropy_forward(probs.data(), losses.data(), targets.data(), N, V);
    return static_cast<double>(losses[0]) + losses[1] + losses[2];
  };
  loss();
  Buffer dlogits(N * V, 0.0f);
  softmax_crossentropy_backward(dlogits.data(), probs.data(), targets.data(), 1.0f, N, V);
  CHECK(fd_excess(loss, logits, dlogits) <= 0.0f);
  // the in-place form (what the model's backward runs) gives the same gradient
  loss();  // (fd_excess left probs at a moved logit)
  Buffer in_place = probs;
  softmax_crossentropy_backward_in_place(in_place.data(), targets.data(), 1.0f, N, V);
  float diff = 0.0f;
  for (std::size_t i = 0; i < in_place.size(); ++i) diff = std::max(diff, std::abs(in_place[i] - dlogits[i]));
  CHECK(diff <= 1e-7f);
}

TEST_CASE("the whole model's backward matches finite differences in every tensor (with and without MLP)") {
  for (const int mlp : {16, 0}) {
    CAPTURE(mlp);
    const LmConfig c{.name = "grad-check",
                     .vocab_size = 260,
                     .context = 6,
                     .d_model = 8,
                     .heads = 2,
                     .layers = 2,
                     .mlp_hidden = mlp};
    LmModel m = initial_model(c, BpeTokenizer::from_merges({{'a', 'b'}, {'c', 'd'}, {257, 258}}), 11);
    // larger weights than the 0.02 start, so every gradient is well above float noise
    std::mt19937 rng(9);
    std::normal_distribution<float> normal(0.0f, 0.3f);
    for (float& w : m.weights) w += normal(rng);
    const ParameterLayout layout = parameter_layout(c);
    const int B = 2, T = 6;
    std::vector<int> inputs, targets;
    std::uniform_int_distribution<int> token(0, c.vocab_size - 1);
    for (int i = 0; i < B * T; ++i) inputs.push_back(token(rng)), targets.push_back(token(rng));
    Activations acts;
    auto loss = [&] {  // L = Σ_n losses[n]
      return static_cast<double>(
                 model_forward(c, layout, m.weights.data(), acts, inputs.data(), targets.data(), B, T)) *
             B * T;
    };
    loss();
    std::vector<float> grads(layout.total, 0.0f);
    model_backward(c, layout, m.weights.data(), grads.data(), acts, inputs.data(), targets.data(), 1.0f);
    // every tensor: a few entries each (all of the small ones); token rows the batch used
    std::vector<std::size_t> which;
    for (const TensorInfo& t : layout.tensors) {
      const std::size_t step = std::max<std::size_t>(1, t.size() / 12);
      for (std::size_t i = 0; i < t.size(); i += step) which.push_back(t.offset + i);
    }
    for (int id : inputs)
      for (int k = 0; k < c.d_model; k += 3) which.push_back(layout.wte + static_cast<std::size_t>(id * c.d_model + k));
    CHECK(fd_excess(loss, m.weights, grads, 1e-2f, which) <= 0.0f);
  }
}
