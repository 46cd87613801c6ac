// gemm_dispatch.cpp: which compilation of gemm_isa.cpp this CPU runs (gemm.h).
#include "engine/core/lm/gemm.h"

namespace neuralpath::lm {

const GemmKernels& gemm_kernels() {
    static const GemmKernels chosen = [] {
#if defined(NP_LM_X86)
        // The avx512 and avx2 copies are compiled with -mavx512f / -mavx2 -mfma: only on a CPU
        // (and OS) that runs them (__builtin_cpu_supports checks both).
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) return avx512::kernels();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return avx2::kernels();
        return sse2::kernels();
#elif defined(__EMSCRIPTEN__)
        return wasm128::kernels();
#else
        return generic::kernels();
#endif
    }();
    return chosen;
}

}  // namespace neuralpath::lm
