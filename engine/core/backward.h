// backward.h: the backward pass of every operation in the transformer block, llm.c style.
//
// Each layer's forward lives where it always did (attention.h, layers.h, embedding.h); this
// file adds the few forwards that had none (lookup by id, positions with a scale, a linear
// layer, the two losses) and, beside each forward, its backward with the SAME arguments plus
// the gradient of the output. Every backward ACCUMULATES (+=) into gradients the caller zeroed,
// so one parameter used twice (or one input read by Q, K and V) simply receives both parts.
//
// Notation: for a scalar loss L, dX means ∂L/∂X, shaped like X.
//
// [SECTION] Embedding lookup and positions
// [SECTION] Linear layer (projections, W_O, feed-forward halves)
// [SECTION] Scaled dot-product attention (naive, and tiled: FlashAttention-style recompute)
// [SECTION] Multi-head attention (split, heads, concat, W_O)
// [SECTION] Residual, LayerNorm, feed-forward
// [SECTION] Losses: softmax cross-entropy, and "point at the answer"
#pragma once

#include "attention.h"
#include "layers.h"
#include "model.h"
#include "tensor.h"

#include <vector>

namespace neuralpath {

// [SECTION] Embedding lookup and positions ---------------------------------------------------

// x[t] = table[ids[t]]                           table [V][d], ids [T]  ->  x [T][d]
Matrix embedding_forward(const Matrix& table, const std::vector<int>& ids);
// dtable[ids[t]] += dx[t]   (a word used twice gets both rows' gradients)
void embedding_backward(Matrix& dtable, const Matrix& dx, const std::vector<int>& ids);

// x = e + scale·PE                                e, PE [T][d], scale a scalar
Matrix positions_forward(const Matrix& e, const Matrix& pe, float scale);
// de += dx,  dscale += Σ dx ⊙ PE
void positions_backward(Matrix& de, float& dscale, const Matrix& dx, const Matrix& pe);

// [SECTION] Linear layer -----------------------------------------------------------------------

// y = x·W + b   (b may be empty = no bias)        x [T][n], W [n][m], b [m]  ->  y [T][m]
Matrix linear_forward(const Matrix& x, const Matrix& w, const Vector& b);
// dx += dy·Wᵀ,  dW += xᵀ·dy,  db += Σ_t dy[t]   (dx may be nullptr when x is a constant)
void linear_backward(Matrix* dx, Matrix& dw, Vector* db, const Matrix& dy, const Matrix& x, const Matrix& w);

// [SECTION] Scaled dot-product attention ------------------------------------------------------

// Naive backward from the stored weights W [Tq][Tk] of attention_naive():
//   dW  = dO·Vᵀ (+ dW_extra, a gradient that reaches the weights directly, e.g. from a loss
//         on where a word looks; may be nullptr)
//   dV += Wᵀ·dO
//   dS  = W ⊙ (dW − rowsum(W ⊙ dW))               softmax backward; hidden cells have W = 0
//   dQ += scale·dS·K,  dK += scale·dSᵀ·Q
void attention_naive_backward(Matrix& dq, Matrix& dk, Matrix& dv, const Matrix& dout, const Matrix* dweights_extra,
                              const Matrix& q, const Matrix& k, const Matrix& v, const AttentionResult& forward);

// The statistic the tiled backward needs from the forward: per query row the log-sum-exp of
// its visible scaled scores, lse_i = log Σ_j exp(s_ij) (−infinity for a fully masked row),
// computed block by block with a running max, so nothing [Tq][Tk] is ever held.   -> [Tq]
Vector attention_row_logsumexp(const Matrix& q, const Matrix& k, const Mask& mask, int block = kDefaultBlock);

// Tiled backward (FlashAttention-2's): for each [block][block] tile the weights are RECOMPUTED
// as P = exp(S − lse_i) instead of being read from a stored [Tq][Tk] matrix, and
//   D_i = dO_i · O_i  (= rowsum(W ⊙ dW), the softmax-backward term, from [Tq][dv] data alone)
// replaces the row sums. Working memory: one tile of P and one of dS. out is the forward's O.
void attention_tiled_backward(Matrix& dq, Matrix& dk, Matrix& dv, const Matrix& dout, const Matrix& q, const Matrix& k,
                              const Matrix& v, const Mask& mask, const Matrix& out, const Vector& lse,
                              int block = kDefaultBlock);

// [SECTION] Multi-head attention ---------------------------------------------------------------

struct AttentionGrads {  // shaped like AttentionLayer's matrices
  Matrix w_q, w_k, w_v, w_o;
  static AttentionGrads zeros(Index d);
};

// split_heads / concat_heads are each other's inverse, so each one's backward is the other:
//   d(concat) split back into heads, d(heads) concatenated.
std::vector<Matrix> concat_heads_backward(const Matrix& dconcat, int heads);  // = split_heads
Matrix split_heads_backward(const std::vector<Matrix>& dheads);               // = concat_heads

// The backward of multi_head_attention(x, layer, mask, kernel, block), from its stored result.
// dweights_extra (nullptr or one [T][T] per head) is added to each head's dW (naive only).
// The tiled kernel recomputes each head's lse and tiles (its result holds no weights).
void multi_head_backward(Matrix& dx, AttentionGrads& grads, const Matrix& dout, const Matrix& x,
                         const AttentionLayer& layer, const Mask& mask, const MultiHeadResult& forward,
                         const std::vector<Matrix>* dweights_extra = nullptr, Kernel kernel = Kernel::naive,
                         int block = kDefaultBlock);

// [SECTION] Residual, LayerNorm, feed-forward --------------------------------------------------

// y = x + sublayer(x): the gradient flows unchanged down both paths.
//   dx += dy,  dsublayer += dy
void residual_backward(Matrix& dx, Matrix& dsublayer, const Matrix& dy);

struct LayerNormGrads {
  Vector gamma, beta;
  static LayerNormGrads zeros(Index d);
};
// With x̂ = (x − mean)/σ and σ = sqrt(var + eps), per token (d features):
//   dgamma += Σ_t dy ⊙ x̂,  dbeta += Σ_t dy,  g = dy ⊙ gamma
//   dx += (g − mean(g) − x̂·mean(g ⊙ x̂)) / σ
void layer_norm_backward(Matrix& dx, LayerNormGrads& grads, const Matrix& dy, const Matrix& x,
                         const LayerNormParams& params, const LayerNormResult& forward);

struct FeedForwardGrads {
  Matrix w1, w2;
  Vector b1, b2;
  static FeedForwardGrads zeros(Index d, Index hidden);
};
// pre = x·W1 + b1, hidden = relu(pre), y = hidden·W2 + b2:
//   dW2 += hiddenᵀ·dy, db2 += Σ dy, dhidden = dy·W2ᵀ, dpre = dhidden ⊙ [pre > 0],
//   dW1 += xᵀ·dpre, db1 += Σ dpre, dx += dpre·W1ᵀ
void feed_forward_backward(Matrix& dx, FeedForwardGrads& grads, const Matrix& dy, const Matrix& x,
                           const FeedForward& ffn, const FeedForwardResult& forward);

// [SECTION] Losses -----------------------------------------------------------------------------

// Next-word loss over the rows that have a target (target < 0 = no loss for that row):
//   p = softmax(logits / temperature) per row,  L = −(1/N) Σ_rows log p[target]
// logits [T][V]; returns L and fills probabilities [T][V]. N = rows with a target.
float cross_entropy_forward(Matrix& probabilities, const Matrix& logits, const std::vector<int>& targets,
                            float temperature);
// dlogits += (p − onehot(target)) / (N · temperature)
void cross_entropy_backward(Matrix& dlogits, const Matrix& probabilities, const std::vector<int>& targets,
                            float temperature);

}  // namespace neuralpath
