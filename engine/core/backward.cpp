// backward.cpp: forward/backward pairs of every layer of the block (formulas in backward.h).
//
// [SECTION] Embedding lookup and positions
// [SECTION] Linear layer
// [SECTION] Scaled dot-product attention: naive backward
// [SECTION] Scaled dot-product attention: tiled backward (recompute from lse)
// [SECTION] Multi-head attention
// [SECTION] Residual, LayerNorm, feed-forward
// [SECTION] Losses
#include "backward.h"

#include "error.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace neuralpath {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

// [SECTION] Embedding lookup and positions -----------------------------------------------------
// Shapes: table [V][d], ids [T], x [T][d]

Matrix embedding_forward(const Matrix& table, const std::vector<int>& ids) {
    Matrix x(static_cast<Index>(ids.size()), table.cols());
    for (std::size_t t = 0; t < ids.size(); ++t) {
        if (ids[t] < 0 || ids[t] >= table.rows()) throw InputError("embedding id out of range");
        x.row(static_cast<Index>(t)) = table.row(ids[t]);                 // x_t = E[id_t]
    }
    return x;
}

void embedding_backward(Matrix& dtable, const Matrix& dx, const std::vector<int>& ids) {
    for (std::size_t t = 0; t < ids.size(); ++t)
        dtable.row(ids[t]) += dx.row(static_cast<Index>(t));              // dE[id_t] += dx_t
}

// Shapes: e, pe, x [T][d]

Matrix positions_forward(const Matrix& e, const Matrix& pe, float scale) {
    return e + scale * pe;                                                // x = e + s·PE
}

void positions_backward(Matrix& de, float& dscale, const Matrix& dx, const Matrix& pe) {
    de += dx;                                                             // ∂x/∂e = 1
    dscale += dx.cwiseProduct(pe).sum();                                  // ∂x/∂s = PE
}

// [SECTION] Linear layer -----------------------------------------------------------------------
// Shapes: x [T][n], W [n][m], b [m], y [T][m]

Matrix linear_forward(const Matrix& x, const Matrix& w, const Vector& b) {
    Matrix y;
    y.noalias() = x * w;                                                  // y = x·W
    if (b.size() > 0) y.rowwise() += b.transpose();                       //     + b
    return y;
}

void linear_backward(Matrix* dx, Matrix& dw, Vector* db, const Matrix& dy, const Matrix& x,
                     const Matrix& w) {
    if (dx) dx->noalias() += dy * w.transpose();                          // dx += dy·Wᵀ
    dw.noalias() += x.transpose() * dy;                                   // dW += xᵀ·dy
    if (db) *db += dy.colwise().sum().transpose();                        // db += Σ_t dy_t
}

// [SECTION] Scaled dot-product attention: naive backward ---------------------------------------
// Shapes: q [Tq][dk], k [Tk][dk], v [Tk][dv], dout [Tq][dv]; W, dW, dS [Tq][Tk]

void attention_naive_backward(Matrix& dq, Matrix& dk, Matrix& dv, const Matrix& dout,
                              const Matrix* dweights_extra, const Matrix& q, const Matrix& k,
                              const Matrix& v, const AttentionResult& forward) {
    const Matrix& w = forward.weights;
    const float scale = forward.scale;                                    // 1/sqrt(d_k)
    // pass 1: back through the blend O = W·V
    Matrix dw;
    dw.noalias() = dout * v.transpose();                                  // dW = dO·Vᵀ
    if (dweights_extra) dw += *dweights_extra;                            //      + a direct gradient
    dv.noalias() += w.transpose() * dout;                                 // dV += Wᵀ·dO
    // pass 2: back through the softmax, row by row: dS_ij = W_ij (dW_ij − Σ_l W_il dW_il).
    // A hidden cell has W_ij = 0, so the mask passes no gradient (its score was −∞).
    const Vector row_dot = w.cwiseProduct(dw).rowwise().sum();            // Σ_l W_il dW_il
    Matrix ds = w.cwiseProduct(dw - row_dot.replicate(1, dw.cols()));
    // pass 3: back through the scaled scores S = scale·Q·Kᵀ
    dq.noalias() += scale * (ds * k);                                     // dQ += scale·dS·K
    dk.noalias() += scale * (ds.transpose() * q);                         // dK += scale·dSᵀ·Q
}

// [SECTION] Scaled dot-product attention: tiled backward (recompute from lse) -----------------
// Shapes: q [Tq][dk], k [Tk][dk], v [Tk][dv], out, dout [Tq][dv], lse, D [Tq]
//         per tile: s/p [bq][bk], dp/ds [bq][bk]

Vector attention_row_logsumexp(const Matrix& q, const Matrix& k, const Mask& mask, int block) {
    if (block < 1) throw InputError("the tile block size must be at least 1");
    const Index tq = q.rows(), tk = k.rows();
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));
    Vector m = Vector::Constant(tq, kNegInf), l = Vector::Zero(tq);      // running max and sum
    Matrix s;
    for (Index i0 = 0; i0 < tq; i0 += block) {
        const Index bq = std::min<Index>(block, tq - i0);
        for (Index j0 = 0; j0 < tk; j0 += block) {
            if (mask.causal && j0 > i0 + bq - 1) break;                   // all in the future
            const Index bk = std::min<Index>(block, tk - j0);
            s.noalias() = (q.middleRows(i0, bq) * k.middleRows(j0, bk).transpose()) * scale;
            for (Index i = 0; i < bq; ++i)
                for (Index j = 0; j < bk; ++j) {
                    if (mask.hides(i0 + i, j0 + j)) continue;
                    const float x = s(i, j);
                    float& mi = m(i0 + i);
                    if (x > mi) {                                         // new max: rescale l
                        l(i0 + i) = l(i0 + i) * std::exp(mi - x) + 1.0f;
                        mi = x;
                    } else {
                        l(i0 + i) += std::exp(x - mi);                    // l += exp(s − m)
                    }
                }
        }
    }
    Vector lse(tq);
    for (Index i = 0; i < tq; ++i) lse(i) = l(i) > 0.0f ? m(i) + std::log(l(i)) : kNegInf;  // m + log l
    return lse;
}

void attention_tiled_backward(Matrix& dq, Matrix& dk, Matrix& dv, const Matrix& dout,
                              const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask,
                              const Matrix& out, const Vector& lse, int block) {
    if (block < 1) throw InputError("the tile block size must be at least 1");
    const Index tq = q.rows(), tk = k.rows();
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));  // scale = 1/sqrt(d_k)
    // pass 1: D_i = dO_i · O_i, which equals Σ_j W_ij dW_ij (the softmax-backward row term)
    const Vector d_row = dout.cwiseProduct(out).rowwise().sum();
    Matrix p, dp;
    for (Index i0 = 0; i0 < tq; i0 += block) {
        const Index bq = std::min<Index>(block, tq - i0);
        for (Index j0 = 0; j0 < tk; j0 += block) {
            if (mask.causal && j0 > i0 + bq - 1) break;                   // all in the future
            const Index bk = std::min<Index>(block, tk - j0);
            // pass 2: recompute this tile's weights              P_ij = exp(scale·q_i·k_j − lse_i)
            p.noalias() = (q.middleRows(i0, bq) * k.middleRows(j0, bk).transpose()) * scale;
            for (Index i = 0; i < bq; ++i)
                for (Index j = 0; j < bk; ++j)
                    p(i, j) = (lse(i0 + i) == kNegInf || mask.hides(i0 + i, j0 + j))
                                  ? 0.0f : std::exp(p(i, j) - lse(i0 + i));
            // pass 3: the blend's gradients for this tile         dV_j += Σ_i P_ij dO_i,  dP = dO·Vᵀ
            dv.middleRows(j0, bk).noalias() += p.transpose() * dout.middleRows(i0, bq);
            dp.noalias() = dout.middleRows(i0, bq) * v.middleRows(j0, bk).transpose();
            // pass 4: softmax backward with D in place of the row sum  dS = P ⊙ (dP − D_i)
            for (Index i = 0; i < bq; ++i) dp.row(i).array() -= d_row(i0 + i);
            dp = p.cwiseProduct(dp);
            // pass 5: back through the scaled scores                 dQ += scale·dS·K,  dK += scale·dSᵀ·Q
            dq.middleRows(i0, bq).noalias() += scale * (dp * k.middleRows(j0, bk));
            dk.middleRows(j0, bk).noalias() += scale * (dp.transpose() * q.middleRows(i0, bq));
        }
    }
}

// [SECTION] Multi-head attention ---------------------------------------------------------------
// Shapes: x [T][d]; Q, K, V, concat, output [T][d]; head h: [T][d/H]

AttentionGrads AttentionGrads::zeros(Index d) {
    return {Matrix::Zero(d, d), Matrix::Zero(d, d), Matrix::Zero(d, d), Matrix::Zero(d, d)};
}

std::vector<Matrix> concat_heads_backward(const Matrix& dconcat, int heads) {
    return split_heads(dconcat, heads);                                   // d(concat) -> per head
}

Matrix split_heads_backward(const std::vector<Matrix>& dheads) {
    return concat_heads(dheads);                                          // per head -> d(Q|K|V)
}

void multi_head_backward(Matrix& dx, AttentionGrads& grads, const Matrix& dout, const Matrix& x,
                         const AttentionLayer& layer, const Mask& mask, const MultiHeadResult& forward,
                         const std::vector<Matrix>* dweights_extra, Kernel kernel, int block) {
    const int heads = layer.heads;
    // pass 1: back through the output projection            output = concat·W_O
    Matrix dconcat = Matrix::Zero(forward.concat.rows(), forward.concat.cols());
    linear_backward(&dconcat, grads.w_o, nullptr, dout, forward.concat, layer.w_o);
    // pass 2: back through concat, then each head's attention
    const std::vector<Matrix> dhead_out = concat_heads_backward(dconcat, heads);
    const auto qh = split_heads(forward.q, heads), kh = split_heads(forward.k, heads),
               vh = split_heads(forward.v, heads);
    std::vector<Matrix> dqh, dkh, dvh;
    for (int h = 0; h < heads; ++h) {
        const auto hs = static_cast<std::size_t>(h);
        Matrix dq = Matrix::Zero(qh[hs].rows(), qh[hs].cols());
        Matrix dk = Matrix::Zero(kh[hs].rows(), kh[hs].cols());
        Matrix dv = Matrix::Zero(vh[hs].rows(), vh[hs].cols());
        if (kernel == Kernel::naive) {
            attention_naive_backward(dq, dk, dv, dhead_out[hs], dweights_extra ? &(*dweights_extra)[hs] : nullptr,
                                     qh[hs], kh[hs], vh[hs], forward.heads[hs]);
        } else {
            const Vector lse = attention_row_logsumexp(qh[hs], kh[hs], mask, block);
            attention_tiled_backward(dq, dk, dv, dhead_out[hs], qh[hs], kh[hs], vh[hs], mask,
                                     forward.heads[hs].output, lse, block);
        }
        dqh.push_back(std::move(dq));
        dkh.push_back(std::move(dk));
        dvh.push_back(std::move(dv));
    }
    // pass 3: back through split and the three projections   Q = X·W_Q, K = X·W_K, V = X·W_V
    linear_backward(&dx, grads.w_q, nullptr, split_heads_backward(dqh), x, layer.w_q);
    linear_backward(&dx, grads.w_k, nullptr, split_heads_backward(dkh), x, layer.w_k);
    linear_backward(&dx, grads.w_v, nullptr, split_heads_backward(dvh), x, layer.w_v);
}

// [SECTION] Residual, LayerNorm, feed-forward --------------------------------------------------

void residual_backward(Matrix& dx, Matrix& dsublayer, const Matrix& dy) {
    dx += dy;                                                             // ∂(x + f)/∂x = 1
    dsublayer += dy;                                                      // ∂(x + f)/∂f = 1
}

LayerNormGrads LayerNormGrads::zeros(Index d) { return {Vector::Zero(d), Vector::Zero(d)}; }

// Shapes: x, dy, dx [T][d]; gamma, beta [d]; mean, stddev [T]
void layer_norm_backward(Matrix& dx, LayerNormGrads& grads, const Matrix& dy, const Matrix& x,
                         const LayerNormParams& params, const LayerNormResult& forward) {
    for (Index t = 0; t < x.rows(); ++t) {
        const float sigma = forward.stddev(t);                            // σ = sqrt(var + eps)
        const Eigen::RowVectorXf xhat = (x.row(t).array() - forward.mean(t)) / sigma;  // x̂
        grads.gamma += dy.row(t).cwiseProduct(xhat).transpose();          // dgamma += dy ⊙ x̂
        grads.beta += dy.row(t).transpose();                              // dbeta += dy
        const Eigen::RowVectorXf g = dy.row(t).cwiseProduct(params.gamma.transpose());  // g = dy ⊙ gamma
        const float g_mean = g.mean(), gx_mean = g.cwiseProduct(xhat).mean();
        dx.row(t).array() += (g.array() - g_mean - xhat.array() * gx_mean) / sigma;
    }
}

FeedForwardGrads FeedForwardGrads::zeros(Index d, Index hidden) {
    return {Matrix::Zero(d, hidden), Matrix::Zero(hidden, d), Vector::Zero(hidden), Vector::Zero(d)};
}

// Shapes: x, dy [T][d]; pre, hidden [T][h]
void feed_forward_backward(Matrix& dx, FeedForwardGrads& grads, const Matrix& dy, const Matrix& x,
                           const FeedForward& ffn, const FeedForwardResult& forward) {
    Matrix dhidden = Matrix::Zero(forward.hidden.rows(), forward.hidden.cols());
    linear_backward(&dhidden, grads.w2, &grads.b2, dy, forward.hidden, ffn.w2);  // y = hidden·W2 + b2
    const Matrix dpre = (forward.pre.array() > 0.0f).select(dhidden, 0.0f);      // relu' = [pre > 0]
    linear_backward(&dx, grads.w1, &grads.b1, dpre, x, ffn.w1);                  // pre = x·W1 + b1
}

// [SECTION] Losses -----------------------------------------------------------------------------
// Shapes: logits, probabilities [T][V]; targets [T]

namespace {
float rows_with_target(const std::vector<int>& targets) {
    return static_cast<float>(std::count_if(targets.begin(), targets.end(), [](int t) { return t >= 0; }));
}
}  // namespace

float cross_entropy_forward(Matrix& probabilities, const Matrix& logits, const std::vector<int>& targets,
                            float temperature) {
    probabilities = logits / temperature;                                 // logits / t
    softmax_rows_in_place(probabilities);                                 // p = softmax(.)
    const float n = rows_with_target(targets);
    if (n == 0.0f) return 0.0f;
    double loss = 0.0;
    for (std::size_t t = 0; t < targets.size(); ++t)
        if (targets[t] >= 0)                                              // −log p[target]
            loss -= std::log(std::max(probabilities(static_cast<Index>(t), targets[t]), 1e-30f));
    return static_cast<float>(loss / n);                                  // mean over N rows
}

void cross_entropy_backward(Matrix& dlogits, const Matrix& probabilities, const std::vector<int>& targets,
                            float temperature) {
    const float n = rows_with_target(targets);
    for (std::size_t t = 0; t < targets.size(); ++t) {
        if (targets[t] < 0) continue;
        const auto row = static_cast<Index>(t);
        dlogits.row(row) += probabilities.row(row) / (n * temperature);  // p / (N·t)
        dlogits(row, targets[t]) -= 1.0f / (n * temperature);            // − onehot / (N·t)
    }
}

}  // namespace neuralpath
