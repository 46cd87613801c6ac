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

namespace neuralpath::lm::NP_LM_ISA {

namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstView = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using View = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;

void nn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
    const ConstView A(a, m, k, Eigen::OuterStride<>(lda));
    const ConstView B(b, k, n, Eigen::OuterStride<>(ldb));
    View C(c, m, n, Eigen::OuterStride<>(ldc));
    if (accumulate) C.noalias() += A * B;                       // C += A·B
    else C.noalias() = A * B;                                   // C  = A·B
}

void nt(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
    const ConstView A(a, m, k, Eigen::OuterStride<>(lda));
    const ConstView B(b, n, k, Eigen::OuterStride<>(ldb));
    View C(c, m, n, Eigen::OuterStride<>(ldc));
    if (accumulate) C.noalias() += A * B.transpose();           // C += A·Bᵀ
    else C.noalias() = A * B.transpose();
}

void tn(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc, bool accumulate) {
    const ConstView A(a, k, m, Eigen::OuterStride<>(lda));
    const ConstView B(b, k, n, Eigen::OuterStride<>(ldb));
    View C(c, m, n, Eigen::OuterStride<>(ldc));
    if (accumulate) C.noalias() += A.transpose() * B;           // C += Aᵀ·B
    else C.noalias() = A.transpose() * B;
}

using Array = Eigen::Map<Eigen::ArrayXf>;
using ConstArray = Eigen::Map<const Eigen::ArrayXf>;
constexpr float kGeluScale = 0.7978845608f;  // √(2/π)
constexpr float kGeluCubic = 0.044715f;

void gelu(float* out, const float* in, int n) {
    const ConstArray x(in, n);
    Array(out, n) = 0.5f * x * (1.0f + (kGeluScale * (x + kGeluCubic * x.cube())).tanh());  // ½x(1 + tanh u)
}

void gelu_grad(float* din, const float* in, const float* dout, int n) {
    const ConstArray x(in, n);
    const Eigen::ArrayXf th = (kGeluScale * (x + kGeluCubic * x.cube())).tanh();            // tanh u
    Array(din, n) += ConstArray(dout, n) *
                     (0.5f * (1.0f + th) + 0.5f * x * (1.0f - th.square()) * kGeluScale *
                                               (1.0f + 3.0f * kGeluCubic * x.square()));  // dout·gelu'(x)
}

double exp_shifted(float* x, int n, float shift) {
    Array row(x, n);
    row = (row - shift).exp();                                  // e^(x − shift)
    // Σ in a fixed order: Eigen's vector sum starts where the buffer's alignment lets it, so two
    // copies of one model at different addresses would round differently (no longer bit for bit).
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += x[i];
    return sum;
}

}  // namespace

GemmKernels kernels() { return {NP_LM_STRINGIFY(NP_LM_ISA), nn, nt, tn, gelu, gelu_grad, exp_shifted}; }

}  // namespace neuralpath::lm::NP_LM_ISA
