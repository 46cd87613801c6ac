// layers.h: the rest of the transformer block around attention. Every function returns its
// intermediate values as well as its result, so the trace can show each of them.
// All functions expect a RESOLVED layer (see resolve_model() in model.h): no empty matrices.
#pragma once

#include "attention.h"
#include "model.h"
#include "tensor.h"

#include <string>
#include <vector>

namespace neuralpath {

// [SECTION] Multi-head attention ---------------------------------------------------------------
//   Q = X·W_Q, K = X·W_K, V = X·W_V                                [T][d]
//   head h uses columns [h·d_head, (h+1)·d_head) of each           [T][d_head], d_head = d/H
//   head_h = Attention(Q_h, K_h, V_h)  with scale = 1/sqrt(d_head)
//   MultiHead(X) = concat(head_1 .. head_H) · W_O                   [T][d]
struct MultiHeadResult {
  Matrix q, k, v;                      // full projections [T][d]
  std::vector<AttentionResult> heads;  // per head (tiled kernel: only .output and .scale set)
  Matrix concat;                       // heads side by side [T][d]
  Matrix output;                       // concat · W_O [T][d]
};

MultiHeadResult multi_head_attention(const Matrix& x, const AttentionLayer& layer, const Mask& mask,
                                     Kernel kernel = Kernel::naive, int block = kDefaultBlock);

std::vector<Matrix> split_heads(const Matrix& m, int heads);  // [T][d] -> H × [T][d/H]
Matrix concat_heads(const std::vector<Matrix>& heads);        // inverse of split_heads

// [SECTION] Feed-forward -----------------------------------------------------------------------
//   pre = X·W1 + b1,  hidden = relu(pre),  output = hidden·W2 + b2
struct FeedForwardResult {
  Matrix pre;     // [T][hidden]
  Matrix hidden;  // [T][hidden]
  Matrix output;  // [T][d]
};
FeedForwardResult feed_forward(const Matrix& x, const FeedForward& ffn);

// [SECTION] LayerNorm --------------------------------------------------------------------------
//   per token t: mean_t, var_t over the d features; out = gamma ⊙ (x - mean)/sqrt(var + eps) + beta
struct LayerNormResult {
  Vector mean;    // [T]
  Vector stddev;  // [T]  sqrt(var + eps)
  Matrix output;  // [T][d]
};
LayerNormResult layer_norm(const Matrix& x, const LayerNormParams& params);

// [SECTION] Next token -------------------------------------------------------------------------
//   logits = unembedding · h   (one score per vocabulary word), p = softmax(logits / temperature)
struct NextTokenResult {
  std::vector<std::string> words;  // vocabulary words, map order (same order as logits)
  Vector logits;
  Vector probabilities;
  float temperature = 1.0f;
  std::vector<int> ranking;  // indices into words, most probable first
};
NextTokenResult next_token(const Vector& hidden, const Matrix& unembedding, const std::vector<std::string>& words,
                           float temperature);

}  // namespace neuralpath
