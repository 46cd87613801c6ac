// simd_attention.h: the contract between attention_tiled() and the tiled kernel compiled once
// per instruction set (simd_attention.cpp built as avx512, avx2, sse2 on x86-64; wasm128 in
// WebAssembly; generic elsewhere). Plain pointers and integers only: the per-ISA units include
// no Eigen (see simd.h for why).
//
// The kernel works on strips of query rows (strip_rows of them, as many as its registers
// hold). Strips are independent, so threads split them and the result does not depend on the
// thread count.
#pragma once

#include <cstddef>
#include <vector>

namespace neuralpath::simd {

// One attention problem, row-major: q [tq][dk], k [tk][dk], v [tk][dv] -> out [tq][dv].
struct AttentionProblem {
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  float* out = nullptr;
  std::ptrdiff_t tq = 0, tk = 0, dk = 0, dv = 0;
  bool causal = false;
  const unsigned char* padded_keys = nullptr;  // nullptr = no padding; else tk flags, 1 = hidden
  std::ptrdiff_t block = 64;                   // keys whose scores are held at once (>= 1)
  float scale = 1.0f;                          // 1/sqrt(dk)
};

// One compilation of the kernel.
struct KernelVariant {
  const char* name;  // "avx512", "avx2", "sse2", "wasm128", "generic"
  int lanes;         // floats per vector
  bool fma;          // fused multiply-add instructions (peak = 2 flops per lane per FMA)
  int strip_rows;    // query rows per strip
  // floats of scratch one thread needs (transposed query strip, score block, running max/sum)
  std::size_t (*workspace_floats)(std::ptrdiff_t dk, std::ptrdiff_t block);
  // computes out rows [first·strip_rows, (first + count)·strip_rows) of the problem: the
  // strips first .. first + count - 1, neighbours sharing the K and V rows they read in cache
  void (*run_strips)(const AttentionProblem& problem, std::ptrdiff_t first, std::ptrdiff_t count, float* workspace);
  // out[i] = 2^in[i] with the kernel's vector exp2 (in[i] <= 0), for tests
  void (*exp2_array)(const float* in, float* out, std::ptrdiff_t n);
  // runs `rounds` rounds of independent multiply-adds at full width; returns a value that
  // depends on all of them (so the compiler keeps them). flops = rounds · peak_flops_per_round.
  float (*peak_probe)(long rounds);
  int peak_flops_per_round;
};

// The variants this build holds that this CPU can run, fastest first (never empty).
const std::vector<KernelVariant>& available_variants();

// The variant called `name` if this build and CPU have it, else nullptr.
const KernelVariant* find_variant(const char* name);

// The widest instruction set the kernels may use by default, for results that must be the same
// bit for bit on every machine: a wider set sums in another order (and AVX2 has FMA where SSE2
// has not), so a model trained with AVX-512 differs from one trained with AVX2. `widest` is
// "avx512", "avx2" or "sse2" (x86-64; elsewhere there is one set and any name changes nothing);
// returns false for any other name. Call it before the first kernel runs: the choice is kept.
bool limit_instruction_set(const char* widest);
// The widest variant this CPU runs within that limit (the fastest: what every caller gets
// unless it names a variant). On a CPU without the limit's set, the widest it has below it.
const KernelVariant& default_variant();
// Whether the default choice may use the set `name` (the limit, or no limit set).
bool instruction_set_allowed(const char* name);

// Threads worth using for this problem: 1 when it is too small to repay starting a thread (or
// in a WebAssembly build without threads), else up to the number of cores.
int default_threads(const AttentionProblem& problem, const KernelVariant& variant);

// Bytes of scratch run_attention allocates for `threads` threads.
std::size_t working_bytes(const AttentionProblem& problem, const KernelVariant& variant, int threads);

// Computes problem.out with `threads` threads (>= 1; capped at the number of strips).
void run_attention(const AttentionProblem& problem, const KernelVariant& variant, int threads);

// Per-ISA entry points (defined in simd_attention.cpp, once per namespace).
namespace avx512 {
KernelVariant variant();
}
namespace avx2 {
KernelVariant variant();
}
namespace sse2 {
KernelVariant variant();
}
namespace wasm128 {
KernelVariant variant();
}
namespace generic {
KernelVariant variant();
}

}  // namespace neuralpath::simd
