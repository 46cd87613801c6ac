// kv_cache.cpp: the incremental decoder (kv_cache.h). Each line of step() names its part of the
// formula in model.h; the layers are layers.h's, run on one row (N = 1).
#include "engine/core/lm/decode/kv_cache.h"

#include "engine/core/attention.h"
#include "engine/core/error.h"
#include "engine/core/lm/layers.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace neuralpath::lm {

// [SECTION] The cache ----------------------------------------------------------------------------

void KvCache::reset(const LmConfig& c) {
  layers = c.layers;
  d = c.d_model;
  capacity = c.context;
  length = 0;
  const std::size_t floats = static_cast<std::size_t>(capacity) * static_cast<std::size_t>(d);
  keys.assign(static_cast<std::size_t>(layers), Buffer(floats, 0.0f));
  values.assign(static_cast<std::size_t>(layers), Buffer(floats, 0.0f));
}

std::size_t KvCache::used_bytes() const {
  return 2 * static_cast<std::size_t>(layers) * static_cast<std::size_t>(length) * static_cast<std::size_t>(d) *
         sizeof(float);
}

std::size_t KvCache::allocated_bytes() const {
  return 2 * static_cast<std::size_t>(layers) * static_cast<std::size_t>(capacity) * static_cast<std::size_t>(d) *
         sizeof(float);
}

// [SECTION] Rotary positions for one row ---------------------------------------------------------

void rope_row(float* qkv, int t, int d, int heads, const float* cosines, const float* sines) {
  const int dh = d / heads, pairs = dh / 2;
  const float* c = cosines + static_cast<std::ptrdiff_t>(t) * pairs;
  const float* s = sines + static_cast<std::ptrdiff_t>(t) * pairs;
  for (int section = 0; section < 2; ++section)  // Q, then K
    for (int j = 0; j < heads; ++j) {
      float* x = qkv + section * d + j * dh;
      for (int i = 0; i < pairs; ++i) {
        const float a = x[2 * i], b = x[2 * i + 1];
        x[2 * i] = a * c[i] - b * s[i];      // a·cos − b·sin
        x[2 * i + 1] = a * s[i] + b * c[i];  // a·sin + b·cos
      }
    }
}

std::vector<float> probabilities_from_logits(const std::vector<float>& logits) {
  const float max = *std::max_element(logits.begin(), logits.end());
  std::vector<float> p(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) sum += (p[i] = std::exp(logits[i] - max));  // e^(z − max)
  for (float& z : p) z = static_cast<float>(z / sum);                                    // / Σ
  return p;
}

// [SECTION] The decoder --------------------------------------------------------------------------

KvDecoder::KvDecoder(const LmModel& model) : model_(model), layout_(parameter_layout(model.config)) {
  const LmConfig& c = model.config;
  cache_.reset(c);
  const std::size_t d = static_cast<std::size_t>(c.d_model), h = static_cast<std::size_t>(c.mlp_hidden);
  x_.resize(d), ln_.resize(d), qkv_.resize(3 * d), atty_.resize(d), scratch_.resize(std::max(d, h));
  fch_.resize(h), fch_gelu_.resize(h);
  logits_.resize(static_cast<std::size_t>(c.vocab_size));
  // cos and sin of t·θ_i, θ_i = 10000^(−2i/dh), computed as layers.cpp's rope_table does
  const int dh = c.head_dim(), pairs = dh / 2;
  rope_cos_.resize(static_cast<std::size_t>(c.context * pairs));
  rope_sin_.resize(rope_cos_.size());
  for (int t = 0; t < c.context; ++t)
    for (int i = 0; i < pairs; ++i) {
      const double theta = std::pow(10000.0, -2.0 * i / dh);
      rope_cos_[static_cast<std::size_t>(t * pairs + i)] = static_cast<float>(std::cos(t * theta));
      rope_sin_[static_cast<std::size_t>(t * pairs + i)] = static_cast<float>(std::sin(t * theta));
    }
}

const std::vector<float>& KvDecoder::prefill(const std::vector<int>& ids) {
  const LmConfig& c = model_.config;
  const int T = static_cast<int>(ids.size()), d = c.d_model, V = c.vocab_size;
  if (T < 1 || T > c.context)
    throw InputError("the prompt must be 1 to " + std::to_string(c.context) + " tokens for the cache");
  for (int id : ids)
    if (id < 0 || id >= V) throw InputError("token id " + std::to_string(id) + " is not in the vocabulary");
  model_forward(c, layout_, model_.weights.data(), prefill_acts_, ids.data(), nullptr, 1, T);  // the full forward
  for (int l = 0; l < c.layers; ++l) {  // keep each layer's K and V rows
    const float* qkv = prefill_acts_.layers[static_cast<std::size_t>(l)].qkv.data();
    for (int t = 0; t < T; ++t) {
      const float* row = qkv + static_cast<std::ptrdiff_t>(t) * 3 * d;
      std::memcpy(cache_.key(l, t), row + d, sizeof(float) * static_cast<std::size_t>(d));        // k_t (rotated)
      std::memcpy(cache_.value(l, t), row + 2 * d, sizeof(float) * static_cast<std::size_t>(d));  // v_t
    }
  }
  cache_.length = T;
  const float* last = prefill_acts_.probs.data() + static_cast<std::ptrdiff_t>(T - 1) * V;  // logits (no targets)
  logits_.assign(last, last + V);
  return logits_;
}

const std::vector<float>& KvDecoder::step(int token) {
  const LmConfig& c = model_.config;
  const ParameterLayout& p = layout_;
  const float* params = model_.weights.data();
  const int d = c.d_model, h = c.mlp_hidden, V = c.vocab_size, H = c.heads, dh = c.head_dim();
  if (token < 0 || token >= V) throw InputError("token id " + std::to_string(token) + " is not in the vocabulary");
  if (full()) throw InputError("the cache is full: the model reads at most " + std::to_string(c.context) + " tokens");
  const int t = cache_.length;  // this token's position
  const TiledOptions one_thread{kDefaultBlock, 1, ""};
  float mean = 0.0f, rstd = 0.0f;
  embedding_forward(x_.data(), &token, params + p.wte, 1, d);  // x = wte[token]
  Matrix q(1, dh), k(t + 1, dh), v(t + 1, dh);
  for (int l = 0; l < c.layers; ++l) {
    const ParameterLayout::Layer& w = p.layers[static_cast<std::size_t>(l)];
    // attention sublayer: x + (Attention(LN1(x)·W_qkv + b_qkv)·W_o + b_o), one row
    layernorm_forward(ln_.data(), &mean, &rstd, x_.data(), params + w.ln1_g, params + w.ln1_b, 1, d);
    matmul_forward(qkv_.data(), ln_.data(), params + w.w_qkv, params + w.b_qkv, 1, d, 3 * d);
    rope_row(qkv_.data(), t, d, H, rope_cos_.data(), rope_sin_.data());  // rotate q, k to position t
    std::memcpy(cache_.key(l, t), qkv_.data() + d, sizeof(float) * static_cast<std::size_t>(d));        // cache k_t
    std::memcpy(cache_.value(l, t), qkv_.data() + 2 * d, sizeof(float) * static_cast<std::size_t>(d));  // cache v_t
    for (int j = 0; j < H; ++j) {  // head j: q_t against k_0..k_t
      std::memcpy(q.data(), qkv_.data() + j * dh, sizeof(float) * static_cast<std::size_t>(dh));
      for (int s = 0; s <= t; ++s) {
        std::memcpy(k.row(s).data(), cache_.key(l, s) + j * dh, sizeof(float) * static_cast<std::size_t>(dh));
        std::memcpy(v.row(s).data(), cache_.value(l, s) + j * dh, sizeof(float) * static_cast<std::size_t>(dh));
      }
      // softmax(q·Kᵀ/√dh)·V over the cached positions: every one is <= t, so the causal
      // mask has nothing left to hide
      const Matrix o = attention_tiled(q, k, v, Mask::none(), one_thread);
      std::memcpy(atty_.data() + j * dh, o.data(), sizeof(float) * static_cast<std::size_t>(dh));  // concat heads
    }
    matmul_forward(scratch_.data(), atty_.data(), params + w.w_o, params + w.b_o, 1, d, d);
    residual_forward(x_.data(), x_.data(), scratch_.data(), d);  // x = x + attention
    if (h > 0) {  // MLP sublayer: x + (GELU(LN2(x)·W_fc + b_fc)·W_proj + b_proj)
      layernorm_forward(ln_.data(), &mean, &rstd, x_.data(), params + w.ln2_g, params + w.ln2_b, 1, d);
      matmul_forward(fch_.data(), ln_.data(), params + w.w_fc, params + w.b_fc, 1, d, h);
      gelu_forward(fch_gelu_.data(), fch_.data(), h);
      matmul_forward(scratch_.data(), fch_gelu_.data(), params + w.w_proj, params + w.b_proj, 1, h, d);
      residual_forward(x_.data(), x_.data(), scratch_.data(), d);  // x = x + MLP
    }
  }
  layernorm_forward(ln_.data(), &mean, &rstd, x_.data(), params + p.lnf_g, params + p.lnf_b, 1, d);
  tied_output_forward(logits_.data(), ln_.data(), params + p.wte, 1, d, V);  // logits = LNf(x)·wteᵀ
  cache_.length = t + 1;
  return logits_;
}

}  // namespace neuralpath::lm
