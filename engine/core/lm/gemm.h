// gemm.h: the language model's matrix products and its heaviest elementwise maths (GELU's tanh,
// the softmax's exp), compiled once per instruction set.
//
// Every matrix is row-major, given as a pointer and a row stride (ld, in floats).
//   gemm_nn  C[M][N] (+)= A[M][K] · B[K][N]
//   gemm_nt  C[M][N] (+)= A[M][K] · B[N][K]ᵀ
//   gemm_tn  C[M][N] (+)= A[K][M]ᵀ · B[K][N]
// accumulate = false overwrites C, true adds to it.
//   gelu, gelu_grad  out = GELU(in);  din += dout·GELU'(in)   (formulas in layers.h)
//   exp_shifted      x = e^(x − shift), returns Σ x                 (one softmax row)
//   softmax          x = softmax(x) in place, returns log Σ_j e^(x_j)   (its log-normaliser)
//
// Why per instruction set: the project's plain build targets baseline x86-64 (SSE2), where
// Eigen's matrix product runs 4 lanes wide; this CPU may have AVX-512 (16 lanes and FMA). The
// products are compiled in gemm_isa.cpp once per set (as the tiled attention kernel is) and
// picked at run time. Each copy includes Eigen under its own namespace name (see gemm_isa.cpp),
// so the copies' template instances cannot be merged by the linker into one another.
#pragma once

#include <cstddef>
#include <vector>

namespace neuralpath::lm {

struct GemmKernels {
  const char* name;  // "avx512", "avx2", "sse2", "wasm128", "generic"
  void (*nn)(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate);
  void (*nt)(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate);
  void (*tn)(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate);
  void (*gelu)(float* out, const float* in, int n);
  void (*gelu_grad)(float* din, const float* in, const float* dout, int n);
  double (*exp_shifted)(float* x, int n, float shift);
  double (*softmax)(float* x, int n);
};

// The widest set this build and CPU have (chosen once).
const GemmKernels& gemm_kernels();
// Every set this build has that this CPU runs, widest first (for tests and benchmarks).
const std::vector<GemmKernels>& gemm_kernel_variants();

// Scratch for the products' packed operand: at least `floats` floats, the calling thread's own,
// valid until its next call (gemm_dispatch.cpp: compiled once, for the baseline).
float* gemm_scratch(int slot, std::size_t floats);  // slot 0 or 1: two buffers at once

inline void gemm_nn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc,
                    bool accumulate) {
  gemm_kernels().nn(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}
inline void gemm_nt(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc,
                    bool accumulate) {
  gemm_kernels().nt(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}
inline void gemm_tn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc,
                    bool accumulate) {
  gemm_kernels().tn(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

// Per-set entry points (gemm_isa.cpp, once per namespace).
namespace avx512 {
GemmKernels kernels();
}
namespace avx2 {
GemmKernels kernels();
}
namespace sse2 {
GemmKernels kernels();
}
namespace wasm128 {
GemmKernels kernels();
}
namespace generic {
GemmKernels kernels();
}

}  // namespace neuralpath::lm
