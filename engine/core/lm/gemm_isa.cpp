// gemm_isa.cpp: gemm.h's products for one instruction set (built once per set, NP_LM_ISA names it).
//
// Eigen is included under another namespace name (Eigen_<set>): the same Eigen templates built
// with -mavx512f here and with SSE2 elsewhere would otherwise be the same symbols, and the
// linker would keep one copy of each for the whole program (possibly the AVX-512 one, called
// on a CPU without it). Nothing of Eigen crosses this file's boundary: only pointers.
#define NP_LM_STRINGIFY2(x) #x
#define NP_LM_STRINGIFY(x) NP_LM_STRINGIFY2(x)
#define NP_LM_CONCAT2(a, b) a##_##b
#define NP_LM_CONCAT(a, b) NP_LM_CONCAT2(a, b)
#if !defined(__EMSCRIPTEN__)
// (WebAssembly has one copy only, and its prelude, web/shim/eigen_wasm_prelude.h, has already
// included Eigen's macros under the usual name.)
#define Eigen NP_LM_CONCAT(Eigen, NP_LM_ISA)
#endif
#include <Eigen/Core>

#include "engine/core/lm/gemm.h"

#include <cmath>
#include <cstring>

namespace neuralpath::lm::NP_LM_ISA {

namespace {

// [SECTION] Matrix products ---------------------------------------------------------------------
//
// x86: our own blocked product (Goto's loop order, as BLAS libraries do), written with GCC/Clang
// vector extensions at this unit's width. Eigen's product, at these shapes (1,536 rows and 128 to
// 2,048 columns), spent a tenth of its time packing both operands and ran its AVX-512 kernel
// with 12 accumulators; this one packs only what is not already in the order it reads (B when
// given transposed, A when transposed) and holds kRows × kVectors accumulators:
//   for each chunk of kc rows of B:      (packed into panels of kNr columns, [panel][kc][kNr], for nt)
//     for each block of kMc rows of C:   (A's rows for this chunk stay in L2)
//       for each panel:                  (kc × kNr floats, in L1)
//         for each kRows rows of C:      the micro-kernel, C[rows][panel] += A[rows][chunk]·panel
// A is read where it lies when stored as it is used (nn, nt: the micro-kernel broadcasts one
// element per row and step); a transposed A (tn) is copied block by block into that order. Every element of C
// is summed over k in the same order whatever the sizes or addresses (no alignment peeling).
// Elsewhere (WebAssembly, generic builds) Eigen's product, measured there.
#if defined(__AVX512F__)
#define NP_LM_OWN_GEMM 1
constexpr int kLanes = 16, kRows = 6, kVectors = 4;  // 24 accumulators + 4 of B, of 32 registers
#elif defined(__AVX2__) && defined(__FMA__)
#define NP_LM_OWN_GEMM 1
constexpr int kLanes = 8, kRows = 4, kVectors = 3;  // 12 + 3 + 1 broadcast, of 16 registers
#elif defined(__SSE2__) && !defined(__EMSCRIPTEN__)
#define NP_LM_OWN_GEMM 1
constexpr int kLanes = 4, kRows = 4, kVectors = 3;
#else
#define NP_LM_OWN_GEMM 0
#endif

#if NP_LM_OWN_GEMM
typedef float vf __attribute__((vector_size(kLanes * sizeof(float))));
constexpr int kNr = kLanes * kVectors;  // columns per panel
constexpr int kKc = 384;                // rows of B per chunk (a panel: 96 KB at AVX-512, in L2)
constexpr int kMc = 96;                 // rows of C per block

// No standard-library templates here (std::min, std::vector): their instances are shared by
// every unit of the program, and the linker could keep this unit's AVX-512 copy for all.
inline int lesser(int a, int b) { return a < b ? a : b; }
inline vf load(const float* p) {
  vf v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, vf v) { std::memcpy(p, &v, sizeof v); }

// B's rows [k0, k0 + kc), columns [0, n), into panels [n / kNr][kc][kNr] (the last panel padded
// with zeros). B(k, j) = b[k·ldb + j] (nn, tn) or b[j·ldb + k] (nt: B is given transposed).
template <bool kTransposedB>
void pack_b(float* to, const float* b, int ldb, int k0, int kc, int n) {
  for (int j0 = 0; j0 < n; j0 += kNr) {
    const int cols = lesser(kNr, n - j0);
    float* panel = to + static_cast<std::ptrdiff_t>(j0) * kc;
    for (int k = 0; k < kc; ++k) {
      float* row = panel + static_cast<std::ptrdiff_t>(k) * kNr;
      if constexpr (kTransposedB) {
        for (int j = 0; j < cols; ++j) row[j] = b[static_cast<std::ptrdiff_t>(j0 + j) * ldb + k0 + k];
      } else {
        std::memcpy(row, b + static_cast<std::ptrdiff_t>(k0 + k) * ldb + j0,
                    sizeof(float) * static_cast<std::size_t>(cols));
      }
      for (int j = cols; j < kNr; ++j) row[j] = 0.0f;
    }
  }
}

// C[R][cols] (+)= Σ_k A(i, k) · panel[k][·] for R rows; A(i, k) = a[i·a_row + k·a_inner].
// The panel's rows lie `panel_ld` floats apart: kNr when packed, B's own row stride when B is
// read where it lies.
template <int R>
void micro_kernel(float* c, int ldc, const float* a, std::ptrdiff_t a_row, std::ptrdiff_t a_inner, const float* panel,
                  std::ptrdiff_t panel_ld, int kc, int cols, bool add) {
  vf acc[R][kVectors];
  for (int i = 0; i < R; ++i)
    for (int u = 0; u < kVectors; ++u) acc[i][u] = vf{};
  for (int k = 0; k < kc; ++k) {
    const float* bk = panel + static_cast<std::ptrdiff_t>(k) * panel_ld;
    vf bv[kVectors];
    for (int u = 0; u < kVectors; ++u) bv[u] = load(bk + u * kLanes);
    const float* ak = a + k * a_inner;
    for (int i = 0; i < R; ++i) {
      const float s = ak[i * a_row];
      for (int u = 0; u < kVectors; ++u) acc[i][u] += s * bv[u];  // C_ij += A_ik · B_kj
    }
  }
  if (cols == kNr) {
    for (int i = 0; i < R; ++i)
      for (int u = 0; u < kVectors; ++u) {
        float* to = c + static_cast<std::ptrdiff_t>(i) * ldc + u * kLanes;
        store(to, add ? load(to) + acc[i][u] : acc[i][u]);
      }
    return;
  }
  for (int i = 0; i < R; ++i) {  // the last, narrower panel
    float row[kNr];
    for (int u = 0; u < kVectors; ++u) store(row + u * kLanes, acc[i][u]);
    float* to = c + static_cast<std::ptrdiff_t>(i) * ldc;
    for (int j = 0; j < cols; ++j) to[j] = add ? to[j] + row[j] : row[j];
  }
}

template <int R>
void micro_rows(int rows, float* c, int ldc, const float* a, std::ptrdiff_t a_row, std::ptrdiff_t a_inner,
                const float* panel, std::ptrdiff_t panel_ld, int kc, int cols, bool add) {
  if constexpr (R > 1) {
    if (rows < R) return micro_rows<R - 1>(rows, c, ldc, a, a_row, a_inner, panel, panel_ld, kc, cols, add);
  }
  micro_kernel<R>(c, ldc, a, a_row, a_inner, panel, panel_ld, kc, cols, add);
}

// C[m][n] (+)= A·B with A(i, k) = a[i·lda + k] (or a[k·lda + i] when kTransposedA) and B as
// pack_b reads it.
template <bool kTransposedA, bool kTransposedB>
void product(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc,
             bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) c[static_cast<std::ptrdiff_t>(i) * ldc + j] = 0.0f;
    return;
  }
  const std::ptrdiff_t a_row = kTransposedA ? 1 : lda, a_inner = kTransposedA ? lda : 1;
  const int panels = (n + kNr - 1) / kNr;
  // A B stored as it is used (nn, tn) is read where it lies, panel by panel (its rows already
  // hold kNr neighbouring columns; packing them cost a copy of B per product for nothing): only
  // a narrower last panel is packed, padded with zeros. A transposed B (nt) is packed whole.
  const int full_panels = kTransposedB ? 0 : n / kNr;
  for (int k0 = 0; k0 < k; k0 += kKc) {
    const int kc = lesser(kKc, k - k0);
    const bool add = accumulate || k0 > 0;  // later chunks add to C
    float* packed = nullptr;
    if (full_panels < panels) {
      const int first = full_panels * kNr;
      packed = gemm_scratch(0, static_cast<std::size_t>(panels - full_panels) * kNr * static_cast<std::size_t>(kc));
      pack_b<kTransposedB>(packed, kTransposedB ? b + static_cast<std::ptrdiff_t>(first) * ldb : b + first, ldb, k0, kc,
                           n - first);
    }
    for (int i0 = 0; i0 < m; i0 += kMc) {
      const int mc = lesser(kMc, m - i0);
      // Aᵀ's rows lie lda floats apart (8 KB for the embedding's gradient): copied into
      // [mc / kRows][kc][kRows] so that the micro-kernel reads it in order. One group of
      // kRows columns at a time, so the copy writes one sequential stream (row by row it
      // wrote mc / kRows streams far apart, and was a tenth of a training step).
      const float* a_block = a + i0 * a_row + k0 * a_inner;
      std::ptrdiff_t block_row = a_row, block_inner = a_inner;
      if constexpr (kTransposedA) {
        float* packed_a = gemm_scratch(1, static_cast<std::size_t>(kMc) * static_cast<std::size_t>(kc));
        for (int i = 0; i < mc; i += kRows) {
          const int rows = lesser(kRows, mc - i);
          const float* from = a_block + i;
          float* to = packed_a + static_cast<std::ptrdiff_t>(i) * kc;
          if (rows == kRows) {
            for (int k1 = 0; k1 < kc; ++k1, to += kRows) std::memcpy(to, from + k1 * a_inner, sizeof(float) * kRows);
          } else {
            for (int k1 = 0; k1 < kc; ++k1, to += kRows)
              for (int r = 0; r < rows; ++r) to[r] = from[k1 * a_inner + r];
          }
        }
        a_block = packed_a;
        block_row = 1;
        block_inner = kRows;
      }
      for (int p = 0; p < panels; ++p) {
        const bool in_place = p < full_panels;
        const float* panel = in_place ? b + static_cast<std::ptrdiff_t>(k0) * ldb + p * kNr
                                      : packed + static_cast<std::ptrdiff_t>(p - full_panels) * kNr * kc;
        const std::ptrdiff_t panel_ld = in_place ? ldb : kNr;
        const int cols = lesser(kNr, n - p * kNr);
        for (int i = 0; i < mc; i += kRows) {
          const float* ai = kTransposedA ? a_block + static_cast<std::ptrdiff_t>(i) * kc : a_block + i * block_row;
          micro_rows<kRows>(lesser(kRows, mc - i), c + static_cast<std::ptrdiff_t>(i0 + i) * ldc + p * kNr, ldc, ai,
                            block_row, block_inner, panel, panel_ld, kc, cols, add);
        }
      }
    }
  }
}

void nn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  product<false, false>(m, n, k, a, lda, b, ldb, c, ldc, accumulate);  // C (+)= A·B
}
void nt(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  product<false, true>(m, n, k, a, lda, b, ldb, c, ldc, accumulate);  // C (+)= A·Bᵀ
}
void tn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  product<true, false>(m, n, k, a, lda, b, ldb, c, ldc, accumulate);  // C (+)= Aᵀ·B
}

#else  // Eigen's product

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstView = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<> >;
using View = Eigen::Map<RowMajor, 0, Eigen::OuterStride<> >;

void nn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  const ConstView A(a, m, k, Eigen::OuterStride<>(lda));
  const ConstView B(b, k, n, Eigen::OuterStride<>(ldb));
  View C(c, m, n, Eigen::OuterStride<>(ldc));
  if (accumulate)
    C.noalias() += A * B;  // C += A·B
  else
    C.noalias() = A * B;  // C  = A·B
}

void nt(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  const ConstView A(a, m, k, Eigen::OuterStride<>(lda));
  const ConstView B(b, n, k, Eigen::OuterStride<>(ldb));
  View C(c, m, n, Eigen::OuterStride<>(ldc));
  if (accumulate)
    C.noalias() += A * B.transpose();  // C += A·Bᵀ
  else
    C.noalias() = A * B.transpose();
}

void tn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
  const ConstView A(a, k, m, Eigen::OuterStride<>(lda));
  const ConstView B(b, k, n, Eigen::OuterStride<>(ldb));
  View C(c, m, n, Eigen::OuterStride<>(ldc));
  if (accumulate)
    C.noalias() += A.transpose() * B;  // C += Aᵀ·B
  else
    C.noalias() = A.transpose() * B;
}

#endif

// [SECTION] Elementwise ---------------------------------------------------------------------------

using Array = Eigen::Map<Eigen::ArrayXf>;
using ConstArray = Eigen::Map<const Eigen::ArrayXf>;
constexpr float kGeluScale = 0.7978845608f;  // √(2/π)
constexpr float kGeluCubic = 0.044715f;

void gelu(float* out, const float* in, int n) {
  const ConstArray x(in, n);
  Array(out, n) = 0.5f * x * (1.0f + (kGeluScale * (x + kGeluCubic * x.cube())).tanh());  // ½x(1 + tanh u)
}

void gelu_grad(float* din, const float* in, const float* dout, int n) {
  // tanh u is used twice: computed a chunk at a time into a buffer on the stack (a chunk is a
  // whole number of vectors, so every element takes the path it would in one pass)
  constexpr int kChunk = 512;
  Eigen::Array<float, kChunk, 1> th_chunk;
  for (int at = 0; at < n; at += kChunk) {
    const int len = n - at < kChunk ? n - at : kChunk;
    const ConstArray x(in + at, len);
    auto th = th_chunk.head(len);
    th = (kGeluScale * (x + kGeluCubic * x.cube())).tanh();  // tanh u
    Array(din + at, len) += ConstArray(dout + at, len) *
                            (0.5f * (1.0f + th) + 0.5f * x * (1.0f - th.square()) * kGeluScale *
                                                      (1.0f + 3.0f * kGeluCubic * x.square()));  // dout·gelu'(x)
  }
}

// Σ x[i] in a fixed order whatever the address or the instruction set: 16 running sums (lane j
// takes x[j], x[j + 16], ...; the compiler vectorises them), then those 16 and the tail in turn.
double fixed_order_sum(const float* x, int n) {
  float lanes[16] = {};
  int i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) lanes[j] += x[i + j];
  double sum = 0.0;
  for (int j = 0; j < 16; ++j) sum += lanes[j];
  for (; i < n; ++i) sum += x[i];
  return sum;
}

double exp_shifted(float* x, int n, float shift) {
  Array row(x, n);
  row = (row - shift).exp();  // e^(x − shift)
  // (not Eigen's vector sum: it starts where the buffer's alignment lets it, so two copies of
  // one model at different addresses would round differently, no longer bit for bit)
  return fixed_order_sum(x, n);  // Σ e^(x − shift)
}

double softmax(float* x, int n) {
  Array row(x, n);
  const float max = row.maxCoeff();          // m = max x (exact in any order)
  row = (row - max).exp();                   // e^(x − m)
  const double sum = fixed_order_sum(x, n);  // Σ e^(x − m)
  row *= static_cast<float>(1.0 / sum);      // p = e^(x − m) / Σ
  return max + std::log(sum);                // log Σ e^x = m + log Σ e^(x − m)
}

}  // namespace

GemmKernels kernels() { return {NP_LM_STRINGIFY(NP_LM_ISA), nn, nt, tn, gelu, gelu_grad, exp_shifted, softmax}; }

}  // namespace neuralpath::lm::NP_LM_ISA
