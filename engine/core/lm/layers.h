// layers.h: the language model's layers, llm.c style: each *_forward beside its *_backward, the
// same arguments, plain float buffers (row-major), and every backward ACCUMULATES (+=) into
// gradients the caller zeroed, so a tensor read twice (wte: the embedding and the tied output)
// simply receives both parts.
//
// Shapes: N = B·T rows (B sequences of T tokens, row n = token n % T of sequence n / T);
// d = d_model, H = heads, dh = d/H, V = vocabulary, h = the MLP's hidden width.
// Notation: for the loss L, dX means ∂L/∂X, shaped like X.
//
// [SECTION] Token embedding
// [SECTION] Rotary positions (RoPE)
// [SECTION] LayerNorm
// [SECTION] Linear layer (matmul)
// [SECTION] GELU
// [SECTION] Residual
// [SECTION] Causal multi-head attention (on the tiled kernels)
// [SECTION] Tied output layer and cross-entropy
#pragma once

#include <vector>

namespace neuralpath::lm {

// [SECTION] Token embedding -------------------------------------------------------------------

// x[n] = wte[ids[n]]                                         wte [V][d] -> x [N][d]
void embedding_forward(float* x, const int* ids, const float* wte, int N, int d);
// dwte[ids[n]] += dx[n]   (a token used twice gets both rows' gradients)
void embedding_backward(float* dwte, const float* dx, const int* ids, int N, int d);

// [SECTION] Rotary positions (RoPE) ---------------------------------------------------------------

// Position enters attention only, by rotating each head's queries and keys (Su et al.): in head
// features (2i, 2i+1), at position t = n % T, by the angle t·θ_i with θ_i = 10000^(−2i/dh):
//   q'_2i = q_2i·cos − q_2i+1·sin,   q'_2i+1 = q_2i·sin + q_2i+1·cos   (the same for k)
// so q'_t·k'_s depends on the offset s − t only (docs/language-model.md says why we chose it).
// In place on the Q and K sections of qkv [N][3d]; V is left alone.
void rope_forward(float* qkv, int B, int T, int d, int heads);
// The rotation's transpose, in place on dqkv: the gradient with respect to the rotated Q and K
// becomes the gradient with respect to the unrotated ones,
//   dq_2i = dq'_2i·cos + dq'_2i+1·sin,   dq_2i+1 = −dq'_2i·sin + dq'_2i+1·cos
void rope_backward(float* dqkv, int B, int T, int d, int heads);

// [SECTION] LayerNorm --------------------------------------------------------------------------

// out = (x − μ)·rstd ⊙ γ + β per row, rstd = 1/sqrt(var + 1e-5); keeps μ and rstd [N] for backward
void layernorm_forward(float* out, float* mean, float* rstd, const float* x, const float* gamma, const float* beta,
                       int N, int d);
// x̂ = (x − μ)·rstd, g = dout ⊙ γ:  dγ += Σ_n dout ⊙ x̂,  dβ += Σ_n dout,
// dx += rstd·(g − mean(g) − x̂·mean(g ⊙ x̂))
void layernorm_backward(float* dx, float* dgamma, float* dbeta, const float* dout, const float* x, const float* gamma,
                        const float* mean, const float* rstd, int N, int d);

// [SECTION] Linear layer ------------------------------------------------------------------------

// out = in·W + b                                  in [N][C], W [C][OC], b [OC] (may be null)
void matmul_forward(float* out, const float* in, const float* w, const float* b, int N, int C, int OC);
// din += dout·Wᵀ (din may be null),  dW += inᵀ·dout,  db += Σ_n dout[n]
void matmul_backward(float* din, float* dw, float* db, const float* dout, const float* in, const float* w, int N, int C,
                     int OC);

// [SECTION] GELU -----------------------------------------------------------------------------

// out = ½·x·(1 + tanh(u)),  u = √(2/π)·(x + 0.044715·x³)      (GPT-2's tanh form)  [n]
void gelu_forward(float* out, const float* in, int n);
// din += dout·(½(1 + tanh u) + ½·x·(1 − tanh² u)·√(2/π)·(1 + 3·0.044715·x²))
void gelu_backward(float* din, const float* in, const float* dout, int n);

// [SECTION] Residual ------------------------------------------------------------------------

// out = a + b                                                     [n]
void residual_forward(float* out, const float* a, const float* b, int n);
// da += dout,  db += dout
void residual_backward(float* da, float* db, const float* dout, int n);

// [SECTION] Causal multi-head attention -----------------------------------------------------------

// qkv [N][3d] holds Q | K | V side by side, head j's features at columns j·dh .. (j+1)·dh of
// each. Per sequence and head, out_j = softmax(Q_j·K_jᵀ/√dh + causal mask)·V_j, written to
// out [N][d] at head j's columns (the heads concatenated). Runs attention_tiled() (the tiled
// SIMD kernel; one thread: the trainer already gives each thread its own sequences).
void attention_forward(float* out, const float* qkv, int B, int T, int d, int heads);
// dqkv += the tiled backward (attention_tiled_backward: recomputes each tile's weights from
// the row log-sum-exp, never holds [T][T]), given out (the forward's) and dout [N][d].
void attention_backward(float* dqkv, const float* dout, const float* qkv, const float* out, int B, int T, int d,
                        int heads);
// The same forward on the naive kernel, also returning every head's weights (for the head
// scores and the views): weights[b·H + j] is sequence b's head j, a [T][T] row-major buffer.
void attention_forward_with_weights(float* out, std::vector<std::vector<float>>& weights, const float* qkv, int B,
                                    int T, int d, int heads);

// [SECTION] Tied output layer and cross-entropy --------------------------------------------------

// logits = x·wteᵀ                                  x [N][d], wte [V][d] -> logits [N][V]
void tied_output_forward(float* logits, const float* x, const float* wte, int N, int d, int V);
// dx += dlogits·wte,  dwte += dlogitsᵀ·x
void tied_output_backward(float* dx, float* dwte, const float* dlogits, const float* x, const float* wte, int N, int d,
                          int V);

// probs = softmax(logits) per row (in place: logits become probabilities), and
// losses[n] = −log probs[n][targets[n]]                          logits [N][V] -> losses [N]
void softmax_crossentropy_forward(float* probs_from_logits, float* losses, const int* targets, int N, int V);
// dlogits += dloss·(probs − onehot(target)) per row; dloss = ∂L/∂losses[n] (the same for every
// row: 1/(rows in the whole batch) for a mean)
void softmax_crossentropy_backward(float* dlogits, const float* probs, const int* targets, float dloss, int N, int V);
// The same gradient written over the probabilities, dz = dloss·(p − onehot(target)) (llm.c's
// fused classifier), for a caller that needs them no more: no buffer of N·V floats to zero and add to.
void softmax_crossentropy_backward_in_place(float* probs_to_dlogits, const int* targets, float dloss, int N, int V);

}  // namespace neuralpath::lm
