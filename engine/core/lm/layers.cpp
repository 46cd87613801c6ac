// layers.cpp: the forward/backward pairs of layers.h (formulas there; each line's comment names
// its part of the formula).
//
// [SECTION] Token embedding
// [SECTION] Rotary positions (RoPE)
// [SECTION] LayerNorm
// [SECTION] Linear layer
// [SECTION] GELU
// [SECTION] Residual
// [SECTION] Causal multi-head attention
// [SECTION] Tied output layer and cross-entropy
#include "engine/core/lm/layers.h"

#include "engine/core/attention.h"
#include "engine/core/backward.h"
#include "engine/core/lm/gemm.h"

#include <Eigen/Core>

#include <cmath>
#include <cstring>
#include <vector>

namespace neuralpath::lm {

namespace {
using RowArray = Eigen::Map<Eigen::ArrayXf>;
using ConstRowArray = Eigen::Map<const Eigen::ArrayXf>;
}  // namespace

// [SECTION] Token embedding -------------------------------------------------------------------
// Shapes: ids [N], wte [V][d], x [N][d]

void embedding_forward(float* x, const int* ids, const float* wte, int N, int d) {
  for (int n = 0; n < N; ++n)
    std::memcpy(x + static_cast<std::ptrdiff_t>(n) * d, wte + static_cast<std::ptrdiff_t>(ids[n]) * d,
                sizeof(float) * static_cast<std::size_t>(d));  // x = wte[id]
}

void embedding_backward(float* dwte, const float* dx, const int* ids, int N, int d) {
  for (int n = 0; n < N; ++n)
    RowArray(dwte + static_cast<std::ptrdiff_t>(ids[n]) * d, d) +=
        ConstRowArray(dx + static_cast<std::ptrdiff_t>(n) * d, d);  // dwte[id] += dx
}

// [SECTION] Rotary positions (RoPE) ---------------------------------------------------------------
// Shapes: qkv, dqkv [N][3d]; per head dh = d/H features, dh/2 rotated pairs; table [T][dh/2]

namespace {

// cos and sin of t·θ_i for every position t < T and pair i < dh/2, θ_i = 10000^(−2i/dh)
void rope_table(std::vector<float>& cosines, std::vector<float>& sines, int T, int dh) {
  const int pairs = dh / 2;
  cosines.resize(static_cast<std::size_t>(T * pairs));
  sines.resize(cosines.size());
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < pairs; ++i) {
      const double theta = std::pow(10000.0, -2.0 * i / dh);  // θ_i
      cosines[static_cast<std::size_t>(t * pairs + i)] = static_cast<float>(std::cos(t * theta));
      sines[static_cast<std::size_t>(t * pairs + i)] = static_cast<float>(std::sin(t * theta));
    }
}

// Rotates the Q and K sections of every row by +angle (sign 1) or −angle (sign −1, the transpose).
void rotate(float* rows, int B, int T, int d, int heads, float sign) {
  const int dh = d / heads, pairs = dh / 2;
  // the table depends on T and dh only: kept per thread between calls
  thread_local std::vector<float> cosines, sines;
  thread_local int table_t = -1, table_dh = -1;
  if (table_t != T || table_dh != dh) {
    rope_table(cosines, sines, T, dh);
    table_t = T;
    table_dh = dh;
  }
  for (int n = 0; n < B * T; ++n) {
    const int t = n % T;
    const float* c = cosines.data() + static_cast<std::ptrdiff_t>(t) * pairs;
    const float* s = sines.data() + static_cast<std::ptrdiff_t>(t) * pairs;
    for (int section = 0; section < 2; ++section)  // Q, then K
      for (int j = 0; j < heads; ++j) {
        float* x = rows + static_cast<std::ptrdiff_t>(n) * 3 * d + section * d + j * dh;
        for (int i = 0; i < pairs; ++i) {
          const float a = x[2 * i], b = x[2 * i + 1], sn = sign * s[i];
          x[2 * i] = a * c[i] - b * sn;      // a·cos − b·sin
          x[2 * i + 1] = a * sn + b * c[i];  // a·sin + b·cos
        }
      }
  }
}

}  // namespace

void rope_forward(float* qkv, int B, int T, int d, int heads) { rotate(qkv, B, T, d, heads, 1.0f); }

void rope_backward(float* dqkv, int B, int T, int d, int heads) {
  rotate(dqkv, B, T, d, heads, -1.0f);
}  // Rᵀ = R(−angle)

// [SECTION] LayerNorm --------------------------------------------------------------------------
// Shapes: x, out, dx, dout [N][d]; gamma, beta [d]; mean, rstd [N]

void layernorm_forward(float* out, float* mean, float* rstd, const float* x, const float* gamma, const float* beta,
                       int N, int d) {
  const ConstRowArray g(gamma, d), b(beta, d);
  for (int n = 0; n < N; ++n) {
    const ConstRowArray row(x + static_cast<std::ptrdiff_t>(n) * d, d);
    const float mu = row.mean();                                                     // μ = mean(x)
    const float var = (row - mu).square().mean();                                    // var = mean((x − μ)²)
    const float r = 1.0f / std::sqrt(var + 1e-5f);                                   // rstd = 1/sqrt(var + ε)
    RowArray(out + static_cast<std::ptrdiff_t>(n) * d, d) = (row - mu) * r * g + b;  // x̂·γ + β
    mean[n] = mu;
    rstd[n] = r;
  }
}

void layernorm_backward(float* dx, float* dgamma, float* dbeta, const float* dout, const float* x, const float* gamma,
                        const float* mean, const float* rstd, int N, int d) {
  const ConstRowArray gam(gamma, d);
  RowArray dg(dgamma, d), db(dbeta, d);
  Eigen::ArrayXf xhat(d), g(d);
  for (int n = 0; n < N; ++n) {
    const ConstRowArray dy(dout + static_cast<std::ptrdiff_t>(n) * d, d);
    xhat = (ConstRowArray(x + static_cast<std::ptrdiff_t>(n) * d, d) - mean[n]) * rstd[n];  // x̂
    dg += dy * xhat;                                                                        // dγ += dout ⊙ x̂
    db += dy;                                                                               // dβ += dout
    g = dy * gam;                                                                           // g = dout ⊙ γ
    const float g_mean = g.mean(), gx_mean = (g * xhat).mean();
    RowArray(dx + static_cast<std::ptrdiff_t>(n) * d, d) +=
        rstd[n] * (g - g_mean - xhat * gx_mean);  // dx += rstd·(g − ḡ − x̂·mean(g⊙x̂))
  }
}

// [SECTION] Linear layer ------------------------------------------------------------------------
// Shapes: in [N][C], W [C][OC], b [OC], out, dout [N][OC]

void matmul_forward(float* out, const float* in, const float* w, const float* b, int N, int C, int OC) {
  gemm_nn(N, OC, C, in, C, w, OC, out, OC, false);  // out = in·W
  if (!b) return;
  const ConstRowArray bias(b, OC);
  for (int n = 0; n < N; ++n) RowArray(out + static_cast<std::ptrdiff_t>(n) * OC, OC) += bias;  // + b
}

void matmul_backward(float* din, float* dw, float* db, const float* dout, const float* in, const float* w, int N, int C,
                     int OC) {
  if (din) gemm_nt(N, C, OC, dout, OC, w, OC, din, C, true);  // din += dout·Wᵀ
  gemm_tn(C, OC, N, in, C, dout, OC, dw, OC, true);           // dW += inᵀ·dout
  if (!db) return;
  RowArray bias(db, OC);
  for (int n = 0; n < N; ++n) bias += ConstRowArray(dout + static_cast<std::ptrdiff_t>(n) * OC, OC);  // db += Σ dout
}

// [SECTION] GELU -----------------------------------------------------------------------------
// Shapes: in, out, din, dout [n]

// The tanh and its vector form run in gemm_isa.cpp, compiled for the widest instruction set
// (the same formulas; gemm.h says why).

void gelu_forward(float* out, const float* in, int n) { gemm_kernels().gelu(out, in, n); }  // ½x(1 + tanh u)

void gelu_backward(float* din, const float* in, const float* dout, int n) {
  gemm_kernels().gelu_grad(din, in, dout, n);  // din += dout·gelu'(x)
}

// [SECTION] Residual ------------------------------------------------------------------------

void residual_forward(float* out, const float* a, const float* b, int n) {
  RowArray(out, n) = ConstRowArray(a, n) + ConstRowArray(b, n);  // out = a + b
}

void residual_backward(float* da, float* db, const float* dout, int n) {
  RowArray(da, n) += ConstRowArray(dout, n);  // ∂out/∂a = 1
  RowArray(db, n) += ConstRowArray(dout, n);  // ∂out/∂b = 1
}

// [SECTION] Causal multi-head attention -----------------------------------------------------------
// Shapes: qkv, dqkv [N][3d]; out, dout [N][d]; per sequence b and head j: q, k, v, o [T][dh]

namespace {

// Copies sequence b's head j of section s (0 = Q, 1 = K, 2 = V) of qkv [N][3d] into m [T][dh].
void gather_head(Matrix& m, const float* qkv, int b, int T, int d, int dh, int j, int s) {
  m.resize(T, dh);
  for (int t = 0; t < T; ++t)
    std::memcpy(m.row(t).data(), qkv + (static_cast<std::ptrdiff_t>(b) * T + t) * 3 * d + s * d + j * dh,
                sizeof(float) * static_cast<std::size_t>(dh));
}

// Sequence b's head j of Q, K and V: Q_j = Q[:, j·dh : (j+1)·dh], and so for K and V.
void gather_qkv(Matrix& q, Matrix& k, Matrix& v, const float* qkv, int b, int T, int d, int dh, int j) {
  gather_head(q, qkv, b, T, d, dh, j, 0);
  gather_head(k, qkv, b, T, d, dh, j, 1);
  gather_head(v, qkv, b, T, d, dh, j, 2);
}

// Adds (or, with add = false, copies) m [T][dh] into rows of `to` with row stride `ld` at column `col`.
void scatter_head(float* to, int ld, int col, const Matrix& m, int b, int T, bool add) {
  for (int t = 0; t < T; ++t) {
    float* row = to + (static_cast<std::ptrdiff_t>(b) * T + t) * ld + col;
    if (add)
      RowArray(row, m.cols()) += m.row(t).array().transpose();
    else
      std::memcpy(row, m.row(t).data(), sizeof(float) * static_cast<std::size_t>(m.cols()));
  }
}

}  // namespace

void attention_forward(float* out, const float* qkv, int B, int T, int d, int heads) {
  const int dh = d / heads;
  const TiledOptions one_thread{kDefaultBlock, 1, ""};
  Matrix q, k, v;
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < heads; ++j) {
      gather_qkv(q, k, v, qkv, b, T, d, dh, j);
      const Matrix o = attention_tiled(q, k, v, Mask::causal_mask(), one_thread);  // softmax(QKᵀ/√dh + M)·V
      scatter_head(out, d, j * dh, o, b, T, false);                                // concat heads
    }
}

void attention_backward(float* dqkv, const float* dout, const float* qkv, const float* out, int B, int T, int d,
                        int heads) {
  const int dh = d / heads;
  const Mask causal = Mask::causal_mask();
  Matrix q, k, v, o, dq, dk, dv;
  Matrix dout_h(T, dh);
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < heads; ++j) {
      gather_qkv(q, k, v, qkv, b, T, d, dh, j);
      o.resize(T, dh);
      for (int t = 0; t < T; ++t) {  // this head's columns of out, dout
        const std::ptrdiff_t at = (static_cast<std::ptrdiff_t>(b) * T + t) * d + j * dh;
        std::memcpy(o.row(t).data(), out + at, sizeof(float) * static_cast<std::size_t>(dh));
        std::memcpy(dout_h.row(t).data(), dout + at, sizeof(float) * static_cast<std::size_t>(dh));
      }
      dq.setZero(T, dh);
      dk.setZero(T, dh);
      dv.setZero(T, dh);
      const Vector lse = attention_row_logsumexp(q, k, causal, kDefaultBlock);  // lse_i = log Σ_j e^{s_ij}
      attention_tiled_backward(dq, dk, dv, dout_h, q, k, v, causal, o, lse, kDefaultBlock);
      scatter_head(dqkv, 3 * d, 0 * d + j * dh, dq, b, T, true);  // dQ_j
      scatter_head(dqkv, 3 * d, 1 * d + j * dh, dk, b, T, true);  // dK_j
      scatter_head(dqkv, 3 * d, 2 * d + j * dh, dv, b, T, true);  // dV_j
    }
}

void attention_forward_with_weights(float* out, std::vector<std::vector<float>>& weights, const float* qkv, int B,
                                    int T, int d, int heads) {
  const int dh = d / heads;
  weights.assign(static_cast<std::size_t>(B) * static_cast<std::size_t>(heads), {});
  Matrix q, k, v;
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < heads; ++j) {
      gather_qkv(q, k, v, qkv, b, T, d, dh, j);
      const AttentionResult r = attention_naive(q, k, v, Mask::causal_mask());
      scatter_head(out, d, j * dh, r.output, b, T, false);
      weights[static_cast<std::size_t>(b * heads + j)].assign(r.weights.data(), r.weights.data() + r.weights.size());
    }
}

// [SECTION] Tied output layer and cross-entropy --------------------------------------------------
// Shapes: x, dx [N][d]; wte, dwte [V][d]; logits, probs, dlogits [N][V]; targets, losses [N]

void tied_output_forward(float* logits, const float* x, const float* wte, int N, int d, int V) {
  gemm_nt(N, V, d, x, d, wte, d, logits, V, false);  // logits = x·wteᵀ
}

void tied_output_backward(float* dx, float* dwte, const float* dlogits, const float* x, const float* wte, int N, int d,
                          int V) {
  gemm_nn(N, d, V, dlogits, V, wte, d, dx, d, true);  // dx += dlogits·wte
  gemm_tn(V, d, N, dlogits, V, x, d, dwte, d, true);  // dwte += dlogitsᵀ·x
}

void softmax_crossentropy_forward(float* probs_from_logits, float* losses, const int* targets, int N, int V) {
  for (int n = 0; n < N; ++n) {
    float* row = probs_from_logits + static_cast<std::ptrdiff_t>(n) * V;
    const float target_logit = row[targets[n]];
    // p = e^{z − m} / Σ e^{z − m} with m = max z (stability), and log Z = m + log Σ e^{z − m}
    const double log_z = gemm_kernels().softmax(row, V);
    losses[n] = static_cast<float>(log_z - target_logit);  // −log p[y] = log Z − z_y
  }
}

void softmax_crossentropy_backward(float* dlogits, const float* probs, const int* targets, float dloss, int N, int V) {
  for (int n = 0; n < N; ++n) {
    RowArray g(dlogits + static_cast<std::ptrdiff_t>(n) * V, V);
    g += dloss * ConstRowArray(probs + static_cast<std::ptrdiff_t>(n) * V, V);  // dz += dloss·p
    g(targets[n]) -= dloss;                                                     //      − dloss·onehot(y)
  }
}

void softmax_crossentropy_backward_in_place(float* probs_to_dlogits, const int* targets, float dloss, int N, int V) {
  for (int n = 0; n < N; ++n) {
    RowArray g(probs_to_dlogits + static_cast<std::ptrdiff_t>(n) * V, V);
    g *= dloss;              // dz = dloss·p
    g(targets[n]) -= dloss;  //    − dloss·onehot(y)
  }
}

}  // namespace neuralpath::lm
