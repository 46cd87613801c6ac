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
#include "simd_attention.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <cstring>
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
    x.row(static_cast<Index>(t)) = table.row(ids[t]);  // x_t = E[id_t]
  }
  return x;
}

void embedding_backward(Matrix& dtable, const Matrix& dx, const std::vector<int>& ids) {
  for (std::size_t t = 0; t < ids.size(); ++t) dtable.row(ids[t]) += dx.row(static_cast<Index>(t));  // dE[id_t] += dx_t
}

// Shapes: e, pe, x [T][d]

Matrix positions_forward(const Matrix& e, const Matrix& pe, float scale) {
  return e + scale * pe;  // x = e + s·PE
}

void positions_backward(Matrix& de, float& dscale, const Matrix& dx, const Matrix& pe) {
  de += dx;                             // ∂x/∂e = 1
  dscale += dx.cwiseProduct(pe).sum();  // ∂x/∂s = PE
}

// [SECTION] Linear layer -----------------------------------------------------------------------
// Shapes: x [T][n], W [n][m], b [m], y [T][m]

Matrix linear_forward(const Matrix& x, const Matrix& w, const Vector& b) {
  Matrix y;
  y.noalias() = x * w;                             // y = x·W
  if (b.size() > 0) y.rowwise() += b.transpose();  //     + b
  return y;
}

void linear_backward(Matrix* dx, Matrix& dw, Vector* db, const Matrix& dy, const Matrix& x, const Matrix& w) {
  if (dx) dx->noalias() += dy * w.transpose();    // dx += dy·Wᵀ
  dw.noalias() += x.transpose() * dy;             // dW += xᵀ·dy
  if (db) *db += dy.colwise().sum().transpose();  // db += Σ_t dy_t
}

// [SECTION] Scaled dot-product attention: naive backward ---------------------------------------
// Shapes: q [Tq][dk], k [Tk][dk], v [Tk][dv], dout [Tq][dv]; W, dW, dS [Tq][Tk]

void attention_naive_backward(Matrix& dq, Matrix& dk, Matrix& dv, const Matrix& dout, const Matrix* dweights_extra,
                              const Matrix& q, const Matrix& k, const Matrix& v, const AttentionResult& forward) {
  const Matrix& w = forward.weights;
  const float scale = forward.scale;  // 1/sqrt(d_k)
  // pass 1: back through the blend O = W·V
  Matrix dw;
  dw.noalias() = dout * v.transpose();        // dW = dO·Vᵀ
  if (dweights_extra) dw += *dweights_extra;  //      + a direct gradient
  dv.noalias() += w.transpose() * dout;       // dV += Wᵀ·dO
  // pass 2: back through the softmax, row by row: dS_ij = W_ij (dW_ij − Σ_l W_il dW_il).
  // A hidden cell has W_ij = 0, so the mask passes no gradient (its score was −∞).
  const Vector row_dot = w.cwiseProduct(dw).rowwise().sum();  // Σ_l W_il dW_il
  Matrix ds = w.cwiseProduct(dw - row_dot.replicate(1, dw.cols()));
  // pass 3: back through the scaled scores S = scale·Q·Kᵀ
  dq.noalias() += scale * (ds * k);              // dQ += scale·dS·K
  dk.noalias() += scale * (ds.transpose() * q);  // dK += scale·dSᵀ·Q
}

// [SECTION] Scaled dot-product attention: tiled backward (recompute from lse) -----------------
// Shapes: q [Tq][dk], k [Tk][dk], v [Tk][dv], out, dout [Tq][dv], lse, D [Tq]
//         per tile: s/p [bq][bk], dp/ds [bq][bk]
//
// The tiles' inner loops. A tile's products are small (block × block × d: 64 × 64 × 32 in the
// language model), too small for a general matrix product's packing to pay for itself, and
// Eigen in this file is compiled for the baseline instruction set (SSE2: 4 lanes). So they are
// written once with GCC/Clang vector extensions and compiled per instruction set through
// function attributes, at the width of the tiled forward kernel's variant (16, 8 or 4 lanes);
// the exps go through that variant's vector 2^x (simd.h), in base 2 as the forward works.
//   tile_product:  C[m][n] (+)= α · Σ_r A(i, r) · B[r][n],   A(i, r) = a[i·a_row + r·a_inner]
// so A is read as stored (a_row = ld, a_inner = 1) or as its transpose (1, ld) without a copy.
// n is a multiple of kTilePad; rows of B and C are contiguous (strides ldb, ldc).

// GCC keeps a·b + c as two instructions in ISO C++ mode (-ffp-contract=off); one FMA is both
// faster and rounds once. Clang contracts within an expression by default.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=fast")
#endif

namespace {

constexpr Index kTilePad = 16;  // the widest vector (AVX-512) in floats
constexpr float kLog2e = 1.44269504088896341f;

template <int W>
struct Lanes {
  typedef float vf __attribute__((vector_size(W * sizeof(float))));
};

// R rows × U vectors of C held in registers while r runs over the inner dimension.
template <int W, int R, int U>
[[gnu::always_inline]] inline void tile_block(float* c, Index ldc, const float* a, Index a_row, Index a_inner,
                                              const float* b, Index ldb, Index inner, float alpha, bool accumulate) {
  using vf = typename Lanes<W>::vf;
  vf acc[R][U];
  for (int i = 0; i < R; ++i)
    for (int u = 0; u < U; ++u) acc[i][u] = vf{};
  for (Index r = 0; r < inner; ++r) {
    vf bv[U];
    for (int u = 0; u < U; ++u) std::memcpy(&bv[u], b + r * ldb + u * W, sizeof(vf));
    for (int i = 0; i < R; ++i) {
      const float s = a[i * a_row + r * a_inner];
      for (int u = 0; u < U; ++u) acc[i][u] += s * bv[u];  // C_iu += A_ir · B_ru
    }
  }
  for (int i = 0; i < R; ++i)
    for (int u = 0; u < U; ++u) {
      float* to = c + i * ldc + u * W;
      vf value = alpha * acc[i][u];
      if (accumulate) {
        vf old;
        std::memcpy(&old, to, sizeof(vf));
        value += old;
      }
      std::memcpy(to, &value, sizeof(vf));
    }
}

template <int W, int R>
[[gnu::always_inline]] inline void tile_rows(float* c, Index ldc, const float* a, Index a_row, Index a_inner,
                                             const float* b, Index ldb, Index inner, Index n, float alpha,
                                             bool accumulate) {
  constexpr int U = W == 16 ? 4 : 2;  // AVX-512 has 32 registers: 4 × 4 accumulators; 16 elsewhere
  Index j = 0;
  for (; j + U * W <= n; j += U * W)
    tile_block<W, R, U>(c + j, ldc, a, a_row, a_inner, b + j, ldb, inner, alpha, accumulate);
  for (; j < n; j += W) tile_block<W, R, 1>(c + j, ldc, a, a_row, a_inner, b + j, ldb, inner, alpha, accumulate);
}

template <int W>
[[gnu::always_inline]] inline void tile_product_w(float* c, Index ldc, const float* a, Index a_row, Index a_inner,
                                                  const float* b, Index ldb, Index m, Index inner, Index n, float alpha,
                                                  bool accumulate) {
  constexpr int R = 4;
  Index i = 0;
  for (; i + R <= m; i += R)
    tile_rows<W, R>(c + i * ldc, ldc, a + i * a_row, a_row, a_inner, b, ldb, inner, n, alpha, accumulate);
  for (; i < m; ++i)
    tile_rows<W, 1>(c + i * ldc, ldc, a + i * a_row, a_row, a_inner, b, ldb, inner, n, alpha, accumulate);
}

#if defined(NP_SIMD_X86)
[[gnu::target("avx512f,avx2,fma")]] void tile_product_16(float* c, Index ldc, const float* a, Index a_row,
                                                         Index a_inner, const float* b, Index ldb, Index m, Index inner,
                                                         Index n, float alpha, bool accumulate) {
  tile_product_w<16>(c, ldc, a, a_row, a_inner, b, ldb, m, inner, n, alpha, accumulate);
}
[[gnu::target("avx2,fma")]] void tile_product_8(float* c, Index ldc, const float* a, Index a_row, Index a_inner,
                                                const float* b, Index ldb, Index m, Index inner, Index n, float alpha,
                                                bool accumulate) {
  tile_product_w<8>(c, ldc, a, a_row, a_inner, b, ldb, m, inner, n, alpha, accumulate);
}
#endif
void tile_product_4(float* c, Index ldc, const float* a, Index a_row, Index a_inner, const float* b, Index ldb, Index m,
                    Index inner, Index n, float alpha, bool accumulate) {
  tile_product_w<4>(c, ldc, a, a_row, a_inner, b, ldb, m, inner, n, alpha, accumulate);
}

// The inner loops at the tiled forward kernel's width, and its vector 2^x.
struct TileKernels {
  void (*product)(float* c, Index ldc, const float* a, Index a_row, Index a_inner, const float* b, Index ldb, Index m,
                  Index inner, Index n, float alpha, bool accumulate);
  void (*exp2)(const float* in, float* out, std::ptrdiff_t n);
};

const TileKernels& tile_kernels() {
  static const TileKernels chosen = [] {
    const simd::KernelVariant& variant = simd::default_variant();
    TileKernels t{&tile_product_4, variant.exp2_array};
#if defined(NP_SIMD_X86)
    if (variant.lanes == 16) t.product = &tile_product_16;
    if (variant.lanes == 8) t.product = &tile_product_8;
#endif
    return t;
  }();
  return chosen;
}

Index padded(Index n) { return (n + kTilePad - 1) / kTilePad * kTilePad; }

// Rows [first, first + rows) of m with `width` (>= m.cols()) floats per row: m's own storage
// when it is that wide already, else a copy into `to` padded with zeros.
const float* rows_padded(std::vector<float>& to, const Matrix& m, Index first, Index rows, Index width) {
  if (m.cols() == width) return m.row(first).data();
  to.assign(static_cast<std::size_t>(rows * width), 0.0f);
  for (Index r = 0; r < rows; ++r)
    std::memcpy(to.data() + r * width, m.row(first + r).data(), sizeof(float) * static_cast<std::size_t>(m.cols()));
  return to.data();
}

// The transpose of rows [first, first + rows) of m: [m.cols()][width], zeros past `rows`.
void transpose_rows_padded(std::vector<float>& to, const Matrix& m, Index first, Index rows, Index width) {
  to.assign(static_cast<std::size_t>(m.cols() * width), 0.0f);
  for (Index r = 0; r < rows; ++r)
    for (Index c = 0; c < m.cols(); ++c) to[static_cast<std::size_t>(c * width + r)] = m(first + r, c);
}

// m[first + i] += α · Σ_r A(i, r) · B[r]   for i < rows (tile_product into rows of m, whose
// width need not be a multiple of kTilePad: then through `scratch`, ld_b floats per row).
void add_product(Matrix& m, Index first, Index rows, std::vector<float>& scratch, const float* a, Index a_row,
                 Index a_inner, const float* b, Index ld_b, Index inner, float alpha) {
  if (m.cols() == ld_b) {
    tile_kernels().product(m.row(first).data(), ld_b, a, a_row, a_inner, b, ld_b, rows, inner, ld_b, alpha, true);
    return;
  }
  scratch.resize(static_cast<std::size_t>(rows * ld_b));
  tile_kernels().product(scratch.data(), ld_b, a, a_row, a_inner, b, ld_b, rows, inner, ld_b, alpha, false);
  for (Index r = 0; r < rows; ++r)
    m.row(first + r) += Eigen::Map<const Eigen::RowVectorXf>(scratch.data() + r * ld_b, m.cols());
}

// A tile's base-2 scores s2_ij = log2 e · scale · q_i·k_j into s [bq][width] (kt: the key rows
// transposed, [dk][width], zero past bk), −infinity where the mask hides a key or past bk.
void tile_scores(std::vector<float>& s, const Matrix& q, Index i0, Index bq, const std::vector<float>& kt, Index j0,
                 Index bk, Index width, float scale, const Mask& mask) {
  s.resize(static_cast<std::size_t>(bq * width));
  tile_kernels().product(s.data(), width, q.row(i0).data(), q.cols(), 1, kt.data(), width, bq, q.cols(), width,
                         scale * kLog2e, false);
  for (Index i = 0; i < bq; ++i) {
    float* row = s.data() + i * width;
    // keys j0 + j with j < visible are in the row's past (or present); the rest are hidden
    const Index visible = mask.causal ? std::clamp<Index>(i0 + i - j0 + 1, 0, bk) : bk;
    std::fill(row + visible, row + width, kNegInf);
    if (!mask.padded_keys.empty())
      for (Index j = 0; j < visible; ++j)
        if (mask.padded_keys[static_cast<std::size_t>(j0 + j)]) row[j] = kNegInf;
  }
}

// max_j row[j] and Σ_j row[j] over n floats, each in four independent chains (a fixed order).
float row_max(const float* row, Index n) {
  float m[4] = {kNegInf, kNegInf, kNegInf, kNegInf};
  Index j = 0;
  for (; j + 4 <= n; j += 4)
    for (int u = 0; u < 4; ++u) m[u] = std::max(m[u], row[j + u]);
  for (; j < n; ++j) m[0] = std::max(m[0], row[j]);
  return std::max(std::max(m[0], m[1]), std::max(m[2], m[3]));
}
float row_sum(const float* row, Index n) {
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  Index j = 0;
  for (; j + 4 <= n; j += 4)
    for (int u = 0; u < 4; ++u) s[u] += row[j + u];
  for (; j < n; ++j) s[0] += row[j];
  return (s[0] + s[1]) + (s[2] + s[3]);
}

}  // namespace

Vector attention_row_logsumexp(const Matrix& q, const Matrix& k, const Mask& mask, int block) {
  if (block < 1) throw InputError("the tile block size must be at least 1");
  const Index tq = q.rows(), tk = k.rows();
  const float scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));
  // in base 2 (s2 = s·log2 e): m = max s2, l = Σ 2^(s2 − m), and lse = (m + log2 l) / log2 e
  Vector m = Vector::Constant(tq, kNegInf), l = Vector::Zero(tq);  // running max and sum
  std::vector<float> kt, s;
  for (Index j0 = 0; j0 < tk; j0 += block) {
    const Index bk = std::min<Index>(block, tk - j0), width = padded(bk);
    transpose_rows_padded(kt, k, j0, bk, width);
    for (Index i0 = 0; i0 < tq; i0 += block) {
      const Index bq = std::min<Index>(block, tq - i0);
      if (mask.causal && j0 > i0 + bq - 1) continue;  // all in the future
      tile_scores(s, q, i0, bq, kt, j0, bk, width, scale, mask);
      for (Index i = 0; i < bq; ++i) {
        float* row = s.data() + i * width;
        const float block_max = row_max(row, width);
        float& mi = m(i0 + i);
        if (block_max > mi) {                      // new max: rescale l
          l(i0 + i) *= std::exp2(mi - block_max);  // (2^−inf = 0 at first)
          mi = block_max;
        }
        const float shift = mi == kNegInf ? 0.0f : mi;      // a row that sees nothing yet
        for (Index j = 0; j < width; ++j) row[j] -= shift;  // s2 − m (−inf stays −inf)
      }
      tile_kernels().exp2(s.data(), s.data(), bq * width);                               // 2^(s2 − m), 0 where hidden
      for (Index i = 0; i < bq; ++i) l(i0 + i) += row_sum(s.data() + i * width, width);  // l += Σ 2^(s2 − m)
    }
  }
  Vector lse(tq);
  for (Index i = 0; i < tq; ++i)
    lse(i) = l(i) > 0.0f ? (m(i) + std::log2(l(i))) / kLog2e : kNegInf;  // (m + log2 l) / log2 e
  return lse;
}

void attention_tiled_backward(Matrix& dq, Matrix& dk, Matrix& dv, const Matrix& dout, const Matrix& q, const Matrix& k,
                              const Matrix& v, const Mask& mask, const Matrix& out, const Vector& lse, int block) {
  if (block < 1) throw InputError("the tile block size must be at least 1");
  const Index tq = q.rows(), tk = k.rows(), d_k = q.cols(), d_v = v.cols();
  const Index dk_w = padded(d_k), dv_w = padded(d_v);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d_k));  // scale = 1/sqrt(d_k)
  const TileKernels& kernels = tile_kernels();
  // pass 1: D_i = dO_i · O_i, which equals Σ_j W_ij dW_ij (the softmax-backward row term)
  const Vector d_row = dout.cwiseProduct(out).rowwise().sum();
  // Per key block: K and V transposed (for S = Q·Kᵀ and dP = dO·Vᵀ) and K's rows padded to
  // whole vectors (for dS·K); per query block: Q and dO padded alike (for dSᵀ·Q and Pᵀ·dO).
  // Per tile: P and dS.
  std::vector<float> kt, vt, k_pad, q_pad, dout_pad, p, ds, scratch;
  for (Index j0 = 0; j0 < tk; j0 += block) {
    const Index bk = std::min<Index>(block, tk - j0), width = padded(bk);
    transpose_rows_padded(kt, k, j0, bk, width);
    transpose_rows_padded(vt, v, j0, bk, width);
    const float* k_rows = rows_padded(k_pad, k, j0, bk, dk_w);
    for (Index i0 = 0; i0 < tq; i0 += block) {
      const Index bq = std::min<Index>(block, tq - i0);
      if (mask.causal && j0 > i0 + bq - 1) continue;  // all in the future
      const float* q_rows = rows_padded(q_pad, q, i0, bq, dk_w);
      const float* dout_rows = rows_padded(dout_pad, dout, i0, bq, dv_w);
      // pass 2: recompute this tile's weights              P_ij = exp(scale·q_i·k_j − lse_i)
      //   in base 2, 2^(s2_ij − lse_i·log2 e); 0 where hidden, and in a row that sees nothing
      tile_scores(p, q, i0, bq, kt, j0, bk, width, scale, mask);
      for (Index i = 0; i < bq; ++i) {
        const float shift = lse(i0 + i) == kNegInf ? std::numeric_limits<float>::infinity() : lse(i0 + i) * kLog2e;
        for (Index j = 0; j < width; ++j) p[static_cast<std::size_t>(i * width + j)] -= shift;
      }
      kernels.exp2(p.data(), p.data(), bq * width);
      // pass 3: the blend's gradients for this tile         dV_j += Σ_i P_ij dO_i,  dP = dO·Vᵀ
      add_product(dv, j0, bk, scratch, p.data(), 1, width, dout_rows, dv_w, bq, 1.0f);
      ds.resize(static_cast<std::size_t>(bq * width));
      kernels.product(ds.data(), width, dout.row(i0).data(), d_v, 1, vt.data(), width, bq, d_v, width, 1.0f, false);
      // pass 4: softmax backward with D in place of the row sum  dS = P ⊙ (dP − D_i)
      for (Index i = 0; i < bq; ++i)
        for (Index j = 0; j < width; ++j) {
          const auto at = static_cast<std::size_t>(i * width + j);
          ds[at] = p[at] * (ds[at] - d_row(i0 + i));
        }
      // pass 5: back through the scaled scores                 dQ += scale·dS·K,  dK += scale·dSᵀ·Q
      add_product(dq, i0, bq, scratch, ds.data(), width, 1, k_rows, dk_w, bk, scale);
      add_product(dk, j0, bk, scratch, ds.data(), 1, width, q_rows, dk_w, bq, scale);
    }
  }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

// [SECTION] Multi-head attention ---------------------------------------------------------------
// Shapes: x [T][d]; Q, K, V, concat, output [T][d]; head h: [T][d/H]

AttentionGrads AttentionGrads::zeros(Index d) {
  return {Matrix::Zero(d, d), Matrix::Zero(d, d), Matrix::Zero(d, d), Matrix::Zero(d, d)};
}

std::vector<Matrix> concat_heads_backward(const Matrix& dconcat, int heads) {
  return split_heads(dconcat, heads);  // d(concat) -> per head
}

Matrix split_heads_backward(const std::vector<Matrix>& dheads) {
  return concat_heads(dheads);  // per head -> d(Q|K|V)
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
  const auto qh = split_heads(forward.q, heads), kh = split_heads(forward.k, heads), vh = split_heads(forward.v, heads);
  std::vector<Matrix> dqh, dkh, dvh;
  for (int h = 0; h < heads; ++h) {
    const auto hs = static_cast<std::size_t>(h);
    Matrix dq = Matrix::Zero(qh[hs].rows(), qh[hs].cols());
    Matrix dk = Matrix::Zero(kh[hs].rows(), kh[hs].cols());
    Matrix dv = Matrix::Zero(vh[hs].rows(), vh[hs].cols());
    if (kernel == Kernel::naive) {
      attention_naive_backward(dq, dk, dv, dhead_out[hs], dweights_extra ? &(*dweights_extra)[hs] : nullptr, qh[hs],
                               kh[hs], vh[hs], forward.heads[hs]);
    } else {
      const Vector lse = attention_row_logsumexp(qh[hs], kh[hs], mask, block);
      attention_tiled_backward(dq, dk, dv, dhead_out[hs], qh[hs], kh[hs], vh[hs], mask, forward.heads[hs].output, lse,
                               block);
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
  dx += dy;         // ∂(x + f)/∂x = 1
  dsublayer += dy;  // ∂(x + f)/∂f = 1
}

LayerNormGrads LayerNormGrads::zeros(Index d) { return {Vector::Zero(d), Vector::Zero(d)}; }

// Shapes: x, dy, dx [T][d]; gamma, beta [d]; mean, stddev [T]
void layer_norm_backward(Matrix& dx, LayerNormGrads& grads, const Matrix& dy, const Matrix& x,
                         const LayerNormParams& params, const LayerNormResult& forward) {
  for (Index t = 0; t < x.rows(); ++t) {
    const float sigma = forward.stddev(t);                                          // σ = sqrt(var + eps)
    const Eigen::RowVectorXf xhat = (x.row(t).array() - forward.mean(t)) / sigma;   // x̂
    grads.gamma += dy.row(t).cwiseProduct(xhat).transpose();                        // dgamma += dy ⊙ x̂
    grads.beta += dy.row(t).transpose();                                            // dbeta += dy
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
  probabilities = logits / temperature;  // logits / t
  softmax_rows_in_place(probabilities);  // p = softmax(.)
  const float n = rows_with_target(targets);
  if (n == 0.0f) return 0.0f;
  double loss = 0.0;
  for (std::size_t t = 0; t < targets.size(); ++t)
    if (targets[t] >= 0)  // −log p[target]
      loss -= std::log(std::max(probabilities(static_cast<Index>(t), targets[t]), 1e-30f));
  return static_cast<float>(loss / n);  // mean over N rows
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
