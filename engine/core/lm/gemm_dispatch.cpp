// gemm_dispatch.cpp: which compilation of gemm_isa.cpp this CPU runs (gemm.h).
#include "engine/core/lm/gemm.h"
#include "engine/core/simd_attention.h"

#include <vector>

namespace neuralpath::lm {

const std::vector<GemmKernels>& gemm_kernel_variants() {
  static const std::vector<GemmKernels> variants = [] {
    std::vector<GemmKernels> list;
#if defined(NP_LM_X86)
    // The avx512 and avx2 copies are compiled with -mavx512f / -mavx2 -mfma: only on a CPU
    // (and OS) that runs them (__builtin_cpu_supports checks both).
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) list.push_back(avx512::kernels());
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) list.push_back(avx2::kernels());
    list.push_back(sse2::kernels());
#elif defined(__EMSCRIPTEN__)
    list.push_back(wasm128::kernels());
#else
    list.push_back(generic::kernels());
#endif
    return list;
  }();
  return variants;
}

// The widest within the limit the attention kernel's dispatch keeps (simd::limit_instruction_set):
// the products and the attention of one model always use the same instruction set.
const GemmKernels& gemm_kernels() {
  static const GemmKernels& chosen = []() -> const GemmKernels& {
    for (const GemmKernels& kernels : gemm_kernel_variants())
      if (simd::instruction_set_allowed(kernels.name)) return kernels;
    return gemm_kernel_variants().back();
  }();
  return chosen;
}

float* gemm_scratch(int slot, std::size_t floats) {
  thread_local std::vector<float> scratch[2];  // each of the trainer's threads packs its own
  std::vector<float>& buffer = scratch[slot & 1];
  if (buffer.size() < floats) buffer.resize(floats);
  return buffer.data();
}

}  // namespace neuralpath::lm
