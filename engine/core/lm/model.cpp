// model.cpp: initialisation, the forward and backward over a batch, inference (model.h).
//
// [SECTION] Initialisation
// [SECTION] Forward
// [SECTION] Backward
// [SECTION] Inference
#include "engine/core/lm/model.h"

#include "engine/core/error.h"
#include "engine/core/lm/layers.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace neuralpath::lm {

// [SECTION] Initialisation ---------------------------------------------------------------------

LmModel initial_model(const LmConfig& config, BpeTokenizer tokenizer, std::uint64_t seed) {
  validate_config(config);
  if (tokenizer.vocab_size() != config.vocab_size)
    throw InputError("the tokenizer has " + std::to_string(tokenizer.vocab_size()) + " ids but the config " +
                     config.name + " wants " + std::to_string(config.vocab_size) +
                     " (the corpus is too small for that many merges)");
  const ParameterLayout layout = parameter_layout(config);
  LmModel m;
  m.config = config;
  m.tokenizer = std::move(tokenizer);
  m.weights.assign(layout.total, 0.0f);
  m.seed = seed;
  // mt19937_64 and a Box-Muller of our own: std::normal_distribution's algorithm differs
  // between standard libraries, and the same seed must give the same model everywhere.
  std::mt19937_64 rng(seed);
  auto normal = [&rng]() {
    const double u1 = (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;          // [0, 1)
    return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  };
  const float residual_scale = 1.0f / std::sqrt(2.0f * static_cast<float>(config.layers));
  for (const TensorInfo& t : layout.tensors) {
    float* w = m.weights.data() + t.offset;
    const bool gain = t.name.find("_g") == t.name.size() - 2;  // LayerNorm γ
    if (gain) std::fill(w, w + t.size(), 1.0f);
    if (!t.decay) continue;  // γ = 1, β and biases = 0
    const bool into_residual = t.name.ends_with("w_o") || t.name.ends_with("w_proj");
    const float std = 0.02f * (into_residual ? residual_scale : 1.0f);
    for (std::size_t i = 0; i < t.size(); ++i) w[i] = std * normal();  // N(0, 0.02²)
  }
  return m;
}

// [SECTION] Forward ------------------------------------------------------------------------------

void Activations::resize(const LmConfig& c, int b, int t) {
  B = b;
  T = t;
  const std::size_t N = static_cast<std::size_t>(b) * static_cast<std::size_t>(t);
  const std::size_t d = static_cast<std::size_t>(c.d_model), h = static_cast<std::size_t>(c.mlp_hidden);
  const std::size_t V = static_cast<std::size_t>(c.vocab_size);
  encoded.resize(N * d);
  layers.resize(static_cast<std::size_t>(c.layers));
  for (Layer& L : layers) {
    L.ln1.resize(N * d), L.ln1_mean.resize(N), L.ln1_rstd.resize(N);
    L.qkv.resize(N * 3 * d), L.atty.resize(N * d), L.residual2.resize(N * d), L.residual3.resize(N * d);
    if (h > 0) {
      L.ln2.resize(N * d), L.ln2_mean.resize(N), L.ln2_rstd.resize(N);
      L.fch.resize(N * h), L.fch_gelu.resize(N * h);
    }
  }
  lnf.resize(N * d), lnf_mean.resize(N), lnf_rstd.resize(N);
  probs.resize(N * V), losses.resize(N);
  dresidual.resize(N * d), dln.resize(N * d), dqkv.resize(N * 3 * d), datty.resize(N * d);
  dfch.resize(N * h), dfch_gelu.resize(N * h), scratch.resize(N * std::max(d, h));
}

namespace {

// The forward shared by training and inspection; with `weights`, attention runs on the naive
// kernel and keeps every head's weights.
void forward_passes(const LmConfig& c, const ParameterLayout& p, const float* params, Activations& a, const int* inputs,
                    int B, int T, std::vector<std::vector<float>>* weights) {
  const int N = B * T, d = c.d_model, h = c.mlp_hidden, V = c.vocab_size;
  embedding_forward(a.encoded.data(), inputs, params + p.wte, N, d);  // x = wte[id]
  const float* x = a.encoded.data();
  std::vector<std::vector<float>> head_weights;
  for (int l = 0; l < c.layers; ++l) {
    const ParameterLayout::Layer& w = p.layers[static_cast<std::size_t>(l)];
    Activations::Layer& L = a.layers[static_cast<std::size_t>(l)];
    // attention sublayer: x + (Attention(LN1(x)·W_qkv + b_qkv)·W_o + b_o)
    layernorm_forward(L.ln1.data(), L.ln1_mean.data(), L.ln1_rstd.data(), x, params + w.ln1_g, params + w.ln1_b, N, d);
    matmul_forward(L.qkv.data(), L.ln1.data(), params + w.w_qkv, params + w.b_qkv, N, d, 3 * d);
    rope_forward(L.qkv.data(), B, T, d, c.heads);  // rotate Q, K by position
    if (weights) {
      attention_forward_with_weights(L.atty.data(), head_weights, L.qkv.data(), B, T, d, c.heads);
      for (auto& hw : head_weights) weights->push_back(std::move(hw));
    } else {
      attention_forward(L.atty.data(), L.qkv.data(), B, T, d, c.heads);
    }
    matmul_forward(a.scratch.data(), L.atty.data(), params + w.w_o, params + w.b_o, N, d, d);
    residual_forward(L.residual2.data(), x, a.scratch.data(), N * d);
    if (h > 0) {  // MLP sublayer: x + (GELU(LN2(x)·W_fc + b_fc)·W_proj + b_proj)
      layernorm_forward(L.ln2.data(), L.ln2_mean.data(), L.ln2_rstd.data(), L.residual2.data(), params + w.ln2_g,
                        params + w.ln2_b, N, d);
      matmul_forward(L.fch.data(), L.ln2.data(), params + w.w_fc, params + w.b_fc, N, d, h);
      gelu_forward(L.fch_gelu.data(), L.fch.data(), N * h);
      matmul_forward(a.scratch.data(), L.fch_gelu.data(), params + w.w_proj, params + w.b_proj, N, h, d);
      residual_forward(L.residual3.data(), L.residual2.data(), a.scratch.data(), N * d);
    } else {
      L.residual3 = L.residual2;
    }
    x = L.residual3.data();
  }
  layernorm_forward(a.lnf.data(), a.lnf_mean.data(), a.lnf_rstd.data(), x, params + p.lnf_g, params + p.lnf_b, N, d);
  tied_output_forward(a.probs.data(), a.lnf.data(), params + p.wte, N, d, V);  // logits = LNf(x)·wteᵀ
}

}  // namespace

float model_forward(const LmConfig& c, const ParameterLayout& p, const float* params, Activations& a, const int* inputs,
                    const int* targets, int B, int T) {
  if (a.B != B || a.T != T) a.resize(c, B, T);
  forward_passes(c, p, params, a, inputs, B, T, nullptr);
  if (!targets) return 0.0f;
  const int N = B * T;
  softmax_crossentropy_forward(a.probs.data(), a.losses.data(), targets, N, c.vocab_size);
  double sum = 0.0;
  for (int n = 0; n < N; ++n) sum += a.losses[static_cast<std::size_t>(n)];
  return static_cast<float>(sum / N);  // mean −log p[next]
}

// [SECTION] Backward -----------------------------------------------------------------------------

void model_backward(const LmConfig& c, const ParameterLayout& p, const float* params, float* grads, Activations& a,
                    const int* inputs, const int* targets, float dloss) {
  const int B = a.B, T = a.T, N = B * T, d = c.d_model, h = c.mlp_hidden, V = c.vocab_size;
  auto zero = [](Buffer& v) { std::fill(v.begin(), v.end(), 0.0f); };
  // loss -> logits -> LNf -> the last block's output
  softmax_crossentropy_backward_in_place(a.probs.data(), targets, dloss, N, V);  // probs become dlogits
  const float* dlogits = a.probs.data();
  zero(a.dln);
  tied_output_backward(a.dln.data(), grads + p.wte, dlogits, a.lnf.data(), params + p.wte, N, d, V);
  zero(a.dresidual);
  const float* last = c.layers > 0 ? a.layers.back().residual3.data() : a.encoded.data();
  layernorm_backward(a.dresidual.data(), grads + p.lnf_g, grads + p.lnf_b, a.dln.data(), last, params + p.lnf_g,
                     a.lnf_mean.data(), a.lnf_rstd.data(), N, d);
  // dresidual holds dL/d(block output); each block adds its sublayers' parts to it on the way
  // down (the residual's identity path is dresidual itself).
  for (int l = c.layers - 1; l >= 0; --l) {
    const ParameterLayout::Layer& w = p.layers[static_cast<std::size_t>(l)];
    Activations::Layer& L = a.layers[static_cast<std::size_t>(l)];
    const float* x = l == 0 ? a.encoded.data() : a.layers[static_cast<std::size_t>(l - 1)].residual3.data();
    if (h > 0) {  // back through x + MLP(x): MLP's part of dx added to dresidual
      zero(a.dfch_gelu);
      matmul_backward(a.dfch_gelu.data(), grads + w.w_proj, grads + w.b_proj, a.dresidual.data(), L.fch_gelu.data(),
                      params + w.w_proj, N, h, d);
      zero(a.dfch);
      gelu_backward(a.dfch.data(), L.fch.data(), a.dfch_gelu.data(), N * h);
      zero(a.dln);
      matmul_backward(a.dln.data(), grads + w.w_fc, grads + w.b_fc, a.dfch.data(), L.ln2.data(), params + w.w_fc, N, d,
                      h);
      layernorm_backward(a.dresidual.data(), grads + w.ln2_g, grads + w.ln2_b, a.dln.data(), L.residual2.data(),
                         params + w.ln2_g, L.ln2_mean.data(), L.ln2_rstd.data(), N, d);
    }
    // back through x + Attention(x)
    zero(a.datty);
    matmul_backward(a.datty.data(), grads + w.w_o, grads + w.b_o, a.dresidual.data(), L.atty.data(), params + w.w_o, N,
                    d, d);
    zero(a.dqkv);
    attention_backward(a.dqkv.data(), a.datty.data(), L.qkv.data(), L.atty.data(), B, T, d, c.heads);
    rope_backward(a.dqkv.data(), B, T, d, c.heads);  // back to the unrotated Q, K
    zero(a.dln);
    matmul_backward(a.dln.data(), grads + w.w_qkv, grads + w.b_qkv, a.dqkv.data(), L.ln1.data(), params + w.w_qkv, N, d,
                    3 * d);
    layernorm_backward(a.dresidual.data(), grads + w.ln1_g, grads + w.ln1_b, a.dln.data(), x, params + w.ln1_g,
                       L.ln1_mean.data(), L.ln1_rstd.data(), N, d);
  }
  embedding_backward(grads + p.wte, a.dresidual.data(), inputs, N, d);
}

// [SECTION] Inference -------------------------------------------------------------------------------

namespace {
std::vector<int> last_context(const LmModel& m, const std::vector<int>& ids) {
  if (ids.empty()) throw InputError("the model needs at least one token to go on from");
  for (int id : ids)
    if (id < 0 || id >= m.config.vocab_size)
      throw InputError("token id " + std::to_string(id) + " is not in the vocabulary");
  const std::size_t T = std::min(ids.size(), static_cast<std::size_t>(m.config.context));
  return {ids.end() - static_cast<std::ptrdiff_t>(T), ids.end()};
}
}  // namespace

std::vector<float> next_token_probabilities(const LmModel& m, const std::vector<int>& ids) {
  const std::vector<int> window = last_context(m, ids);
  const int T = static_cast<int>(window.size()), V = m.config.vocab_size;
  Activations a;
  a.resize(m.config, 1, T);
  model_forward(m.config, parameter_layout(m.config), m.weights.data(), a, window.data(), nullptr, 1, T);
  const float* last = a.probs.data() + static_cast<std::ptrdiff_t>(T - 1) * V;  // the last position's logits
  const float max = *std::max_element(last, last + V);
  std::vector<float> row(static_cast<std::size_t>(V));
  double sum = 0.0;
  for (int i = 0; i < V; ++i) sum += (row[static_cast<std::size_t>(i)] = std::exp(last[i] - max));  // softmax
  for (float& z : row) z = static_cast<float>(z / sum);
  return row;
}

Inspection inspect(const LmModel& m, const std::vector<int>& ids) {
  const std::vector<int> window = last_context(m, ids);
  const int T = static_cast<int>(window.size()), V = m.config.vocab_size;
  Activations a;
  a.resize(m.config, 1, T);
  Inspection out;
  out.T = T;
  forward_passes(m.config, parameter_layout(m.config), m.weights.data(), a, window.data(), 1, T, &out.weights);
  for (int t = 0; t < T; ++t) {  // softmax of each row
    float* row = a.probs.data() + static_cast<std::ptrdiff_t>(t) * V;
    const float max = *std::max_element(row, row + V);
    double sum = 0.0;
    for (int i = 0; i < V; ++i) sum += (row[i] = std::exp(row[i] - max));
    for (int i = 0; i < V; ++i) row[i] = static_cast<float>(row[i] / sum);
  }
  out.probs.assign(a.probs.begin(), a.probs.end());
  return out;
}

}  // namespace neuralpath::lm
