// layers.cpp: multi-head attention, feed-forward, LayerNorm, next-token probabilities.
#include "layers.h"

#include "error.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace neuralpath {

// [SECTION] Multi-head attention ---------------------------------------------------------------

std::vector<Matrix> split_heads(const Matrix& m, int heads) {
  if (heads < 1 || m.cols() % heads != 0)
    throw InputError("cannot split width " + std::to_string(m.cols()) + " into " + std::to_string(heads) + " heads");
  const Index d_head = m.cols() / heads;
  std::vector<Matrix> out;
  for (int h = 0; h < heads; ++h) out.emplace_back(m.middleCols(h * d_head, d_head));
  return out;
}

Matrix concat_heads(const std::vector<Matrix>& heads) {
  if (heads.empty()) return {};
  Index width = 0;
  for (const Matrix& h : heads) width += h.cols();
  Matrix out(heads.front().rows(), width);
  Index col = 0;
  for (const Matrix& h : heads) {
    out.middleCols(col, h.cols()) = h;
    col += h.cols();
  }
  return out;
}

MultiHeadResult multi_head_attention(const Matrix& x, const AttentionLayer& layer, const Mask& mask, Kernel kernel,
                                     int block) {
  const Index d = x.cols();
  for (const Matrix* w : {&layer.w_q, &layer.w_k, &layer.w_v, &layer.w_o})
    if (w->rows() != d || w->cols() != d)
      throw InputError("attention weights must be [d_model][d_model] (resolve the model first)");
  MultiHeadResult r;
  // Shapes: x [T][d]; q, k, v [T][d]; head h: [T][d/H]; concat [T][d]; output [T][d]
  r.q.noalias() = x * layer.w_q;  // Q = X·W_Q
  r.k.noalias() = x * layer.w_k;  // K = X·W_K
  r.v.noalias() = x * layer.w_v;  // V = X·W_V
  const auto qh = split_heads(r.q, layer.heads);
  const auto kh = split_heads(r.k, layer.heads);
  const auto vh = split_heads(r.v, layer.heads);
  std::vector<Matrix> outputs;
  for (int h = 0; h < layer.heads; ++h) {
    if (kernel == Kernel::naive) {
      r.heads.push_back(attention_naive(qh[h], kh[h], vh[h], mask));
    } else {
      AttentionResult a;
      a.output = attention_tiled(qh[h], kh[h], vh[h], mask, block);
      a.scale = 1.0f / std::sqrt(static_cast<float>(qh[h].cols()));
      r.heads.push_back(std::move(a));
    }
    outputs.push_back(r.heads.back().output);
  }
  r.concat = concat_heads(outputs);           // [head_1 | head_2 | ... ]
  r.output.noalias() = r.concat * layer.w_o;  // · W_O
  return r;
}

// [SECTION] Feed-forward -----------------------------------------------------------------------

FeedForwardResult feed_forward(const Matrix& x, const FeedForward& ffn) {
  if (ffn.w1.rows() != x.cols() || ffn.w2.cols() != x.cols() || ffn.w1.cols() != ffn.w2.rows() ||
      ffn.b1.size() != ffn.w1.cols() || ffn.b2.size() != ffn.w2.cols())
    throw InputError("feed-forward weights do not fit d_model (resolve the model first)");
  FeedForwardResult r;
  r.pre.noalias() = x * ffn.w1;              // X·W1
  r.pre.rowwise() += ffn.b1.transpose();     //      + b1
  r.hidden = r.pre.cwiseMax(0.0f);           // relu(.)
  r.output.noalias() = r.hidden * ffn.w2;    // ·W2
  r.output.rowwise() += ffn.b2.transpose();  //      + b2
  return r;
}

// [SECTION] LayerNorm --------------------------------------------------------------------------

LayerNormResult layer_norm(const Matrix& x, const LayerNormParams& params) {
  const Index d = x.cols();
  if (params.gamma.size() != d || params.beta.size() != d)
    throw InputError("LayerNorm gamma and beta must have d_model entries (resolve the model first)");
  LayerNormResult r;
  r.mean.resize(x.rows());
  r.stddev.resize(x.rows());
  r.output.resize(x.rows(), d);
  for (Index t = 0; t < x.rows(); ++t) {
    const float mean = x.row(t).mean();                           // mean_t
    const float var = (x.row(t).array() - mean).square().mean();  // var_t (population)
    const float stddev = std::sqrt(var + params.eps);             // sqrt(var_t + eps)
    r.mean(t) = mean;
    r.stddev(t) = stddev;
    r.output.row(t) = ((x.row(t).array() - mean) / stddev).matrix().cwiseProduct(params.gamma.transpose()) +
                      params.beta.transpose();  // gamma ⊙ x̂ + beta
  }
  return r;
}

// [SECTION] Next token -------------------------------------------------------------------------

NextTokenResult next_token(const Vector& hidden, const Matrix& unembedding, const std::vector<std::string>& words,
                           float temperature) {
  if (unembedding.rows() != static_cast<Index>(words.size()) || unembedding.cols() != hidden.size())
    throw InputError("the unembedding must be [vocabulary words][d_model]");
  NextTokenResult r;
  r.words = words;
  r.temperature = temperature;
  r.logits = unembedding * hidden;                                    // logit_v = u_v · h
  r.probabilities = softmax_with_temperature(r.logits, temperature);  // softmax(logits / t)
  r.ranking.resize(words.size());
  std::iota(r.ranking.begin(), r.ranking.end(), 0);
  std::stable_sort(r.ranking.begin(), r.ranking.end(),
                   [&](int a, int b) { return r.probabilities(a) > r.probabilities(b); });
  return r;
}

}  // namespace neuralpath
