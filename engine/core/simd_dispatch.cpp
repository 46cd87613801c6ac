// simd_dispatch.cpp: which compilation of the tiled kernel this CPU runs, and the threads that
// share its strips of queries.
//
// [SECTION] Variants this CPU runs (and the limit on the default one)
// [SECTION] Threads
#include "engine/core/simd_attention.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

// WebAssembly without -pthread has no threads: everything runs on the calling thread.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define NP_HAVE_THREADS 0
#else
#define NP_HAVE_THREADS 1
#endif

namespace neuralpath::simd {

// [SECTION] Variants this CPU runs -------------------------------------------------------------

const std::vector<KernelVariant>& available_variants() {
  static const std::vector<KernelVariant> variants = [] {
    std::vector<KernelVariant> list;
#if defined(NP_SIMD_X86)
    // The avx512 and avx2 units are compiled with -mavx512f / -mavx2 -mfma: only call them
    // on a CPU (and OS) that has those (__builtin_cpu_supports checks both).
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) list.push_back(avx512::variant());
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) list.push_back(avx2::variant());
    list.push_back(sse2::variant());  // x86-64 always has SSE2
#elif defined(__EMSCRIPTEN__)
    list.push_back(wasm128::variant());
#else
    list.push_back(generic::variant());
#endif
    return list;
  }();
  return variants;
}

const KernelVariant* find_variant(const char* name) {
  for (const KernelVariant& variant : available_variants())
    if (std::strcmp(variant.name, name) == 0) return &variant;
  return nullptr;
}

namespace {

// Wider sets rank higher; a set of its own kind (wasm128, generic) is 0 and always allowed.
int instruction_set_rank(const char* name) {
  if (std::strcmp(name, "avx512") == 0) return 3;
  if (std::strcmp(name, "avx2") == 0) return 2;
  if (std::strcmp(name, "sse2") == 0) return 1;
  return 0;
}
int widest_allowed_rank = 3;  // no limit until limit_instruction_set()

}  // namespace

bool limit_instruction_set(const char* widest) {
  const int rank = instruction_set_rank(widest);
  if (rank == 0) return false;
  widest_allowed_rank = rank;
  return true;
}

bool instruction_set_allowed(const char* name) { return instruction_set_rank(name) <= widest_allowed_rank; }

const KernelVariant& default_variant() {
  for (const KernelVariant& variant : available_variants())
    if (instruction_set_allowed(variant.name)) return variant;
  return available_variants().back();  // the baseline: every build has one
}

// [SECTION] Threads ----------------------------------------------------------------------------

namespace {

std::ptrdiff_t strip_count(const AttentionProblem& p, const KernelVariant& variant) {
  return (p.tq + variant.strip_rows - 1) / variant.strip_rows;
}

#if NP_HAVE_THREADS
// Below this many multiply-adds (about 0.2 ms on one core) a second thread costs about as much
// to start as it saves.
constexpr double kMinMultiplyAddsPerThread = 8e6;
#endif

}  // namespace

int default_threads(const AttentionProblem& p, const KernelVariant& variant) {
#if NP_HAVE_THREADS
  const double keys = p.causal ? 0.5 * static_cast<double>(p.tk) : static_cast<double>(p.tk);
  const double multiply_adds = static_cast<double>(p.tq) * keys * static_cast<double>(p.dk + p.dv);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int useful =
      static_cast<int>(std::min<double>(cores, std::max(1.0, multiply_adds / kMinMultiplyAddsPerThread)));
  return static_cast<int>(std::min<std::ptrdiff_t>(useful, strip_count(p, variant)));
#else
  (void)p;
  (void)variant;
  return 1;
#endif
}

std::size_t working_bytes(const AttentionProblem& p, const KernelVariant& variant, int threads) {
  threads = static_cast<int>(std::clamp<std::ptrdiff_t>(threads, 1, strip_count(p, variant)));
  return variant.workspace_floats(p.dk, p.block) * sizeof(float) * static_cast<std::size_t>(threads);
}

void run_attention(const AttentionProblem& p, const KernelVariant& variant, int threads) {
  const std::ptrdiff_t strips = strip_count(p, variant);
#if NP_HAVE_THREADS
  threads = static_cast<int>(std::clamp<std::ptrdiff_t>(threads, 1, strips));
#else
  threads = 1;
#endif
  const std::size_t floats = variant.workspace_floats(p.dk, p.block);
  std::vector<float> workspace(floats * static_cast<std::size_t>(threads));

  // Threads take runs of neighbouring strips from a shared counter, each run a 1/(2·threads)
  // share of the strips still left ("guided" scheduling): the runs shrink to single strips
  // towards the end, so the threads finish together, and a thread slowed down by other work
  // on its core simply takes fewer runs. Causal strips late in the sequence see the most keys:
  // they go out first. Why runs and not one strip at a time: dealt singly, neighbouring strips
  // sit on different cores and 2 threads spent 11-22% more CPU time than one thread (T = 1024
  // to 8192, d = 64, AVX-512); in runs, 2-5%. Most likely the cache lines at the borders of the
  // strips' output rows (read and written once per key block) bouncing between the cores.
  std::atomic<std::ptrdiff_t> next{0};
  auto work = [&](int thread) {
    float* scratch = workspace.data() + floats * static_cast<std::size_t>(thread);
    std::ptrdiff_t first = next.load(std::memory_order_relaxed);
    while (first < strips) {
      const std::ptrdiff_t count = std::max<std::ptrdiff_t>(1, (strips - first) / (2 * threads));
      // another thread took strips meanwhile: `first` now holds the counter; try again
      if (!next.compare_exchange_weak(first, first + count, std::memory_order_relaxed)) continue;
      // causal: runs counted from the last strip, each run's strips in their own order
      variant.run_strips(p, p.causal ? strips - first - count : first, count, scratch);
      first = next.load(std::memory_order_relaxed);
    }
  };
#if NP_HAVE_THREADS
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(work, t);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running share all the strips anyway
    }
  }
  work(0);
  for (std::thread& helper : helpers) helper.join();
#else
  work(0);
#endif
}

}  // namespace neuralpath::simd
