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
#define Eigen NP_LM_CONCAT(Eigen, NP_LM_ISA)
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

}  // namespace

GemmKernels kernels() { return {NP_LM_STRINGIFY(NP_LM_ISA), nn, nt, tn}; }

}  // namespace neuralpath::lm::NP_LM_ISA
