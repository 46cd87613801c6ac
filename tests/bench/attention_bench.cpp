// attention-bench: the attention kernels side by side, natively or in WebAssembly (the same
// source, built by both presets; `./neuralpath bench` runs both and merges them in one table).
//
//   attention-bench [--json] [--t 256,1024,...] [--d N] [--block N] [--masks none,causal]
//                   [--isas avx512,sse2,...] [--threads N] [--no-naive] [--repeats N]
//                   [--budget S] [--dump DIR] [--memory-t N] [--realtime]
//
// For each T and mask: the best time of repeated runs (after a warm-up, which also lets V8 tier
// the WebAssembly up), GFLOP/s counting the two matrix products (Q·Kᵀ and P·V: 4·T²·d flops,
// half of that with the causal mask), the working memory each kernel holds besides its inputs
// and output, and the max |Δ| against the naive kernel. Single-thread runs are timed in CPU
// time of the thread (the machine may be shared: time spent waiting for a core is not the
// kernel's); runs with more threads in wall time. A peak probe (independent multiply-adds at
// full width) measures what each instruction set can do on this core.
//
// The load average (1, 5, 15 minutes) is printed with the figures: on a shared machine it says
// how much the wall times of the multi-thread runs can be trusted. --realtime runs the thread
// comparison (the fastest instruction set on 1 and on N threads) under SCHED_FIFO, where the
// system allows it, so other processes' work does not delay the helper threads (on a loaded
// machine a new thread otherwise waits up to a scheduler tick, 1-5 ms, for its core).
//
// Inputs are a counter hash (same numbers in C++, WebAssembly and tests/bench/torch_attention.py,
// so --dump files from all three compare element by element).
#include "engine/core/attention.h"
#include "engine/core/simd_attention.h"
#include "bench_support.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
// Node's CPU time for this process in seconds (V8's background threads are idle while a
// kernel runs, so this is the kernel's time).
EM_JS(double, np_process_cpu_seconds, (), {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});
#else
#include <sched.h>
#endif

using namespace neuralpath;

namespace {

// [SECTION] Options ----------------------------------------------------------------------------

struct Options {
  bool json = false;
  std::vector<int> ts = {256, 1024, 2048, 4096};
  int d = 64;
  int block = kDefaultBlock;
  std::vector<std::string> masks = {"none", "causal"};
  std::vector<std::string> isas;  // empty = every one this CPU runs
  int threads = 0;                // 0 = the number of cores (a second tiled run if > 1)
  bool naive = true;
  int repeats = 5;
  double budget = 0.5;  // seconds per measurement, at least `repeats` runs
  std::string dump;     // directory for raw float32 outputs ("" = none)
  long memory_t = 65536;
  bool realtime = false;  // thread comparison under SCHED_FIFO
};

[[noreturn]] void usage(const std::string& message) {
  std::fprintf(stderr,
               "attention-bench: %s\nusage: attention-bench [--json] [--t 256,1024,...] [--d N] [--block N] "
               "[--masks none,causal] [--isas NAME,...] [--threads N] [--no-naive] [--repeats N] [--budget S] "
               "[--dump DIR] [--memory-t N] [--realtime]\n",
               message.c_str());
  std::exit(2);
}

int positive(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || value < 1 || value > 1'000'000'000)
    usage(flag + " needs a positive whole number, not '" + text + "'");
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--json")
      o.json = true;
    else if (a == "--no-naive")
      o.naive = false;
    else if (a == "--t") {
      o.ts.clear();
      for (const std::string& t : bench::split(value())) o.ts.push_back(positive(a, t));
      if (o.ts.empty()) usage("--t needs at least one length");
    } else if (a == "--d")
      o.d = positive(a, value());
    else if (a == "--block")
      o.block = positive(a, value());
    else if (a == "--masks") {
      o.masks = bench::split(value());
      for (const std::string& m : o.masks)
        if (m != "none" && m != "causal") usage("unknown mask '" + m + "' (none, causal)");
    } else if (a == "--isas")
      o.isas = bench::split(value());
    else if (a == "--threads")
      o.threads = positive(a, value());
    else if (a == "--repeats")
      o.repeats = positive(a, value());
    else if (a == "--budget") {
      o.budget = std::atof(value().c_str());
      if (!(o.budget > 0 && o.budget < 1000)) usage("--budget needs seconds > 0");
    } else if (a == "--dump")
      o.dump = value();
    else if (a == "--memory-t")
      o.memory_t = positive(a, value());
    else if (a == "--realtime")
      o.realtime = true;
    else
      usage("unknown option '" + a + "'");
  }
  const std::vector<std::string> here = attention_tiled_isas();
  if (o.isas.empty()) o.isas = here;
  for (const std::string& isa : o.isas)
    if (std::find(here.begin(), here.end(), isa) == here.end())
      usage("instruction set '" + isa + "' is not available here");
  if (o.threads == 0) o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#if defined(__EMSCRIPTEN__)
  o.threads = 1;  // no threads in this WebAssembly build
#endif
  return o;
}

// [SECTION] Inputs and clocks ------------------------------------------------------------------

// Uniform in [-√3, √3) (variance 1) from a hash of (seed, index): lowbias32 by C. Wellons.
float hashed_uniform(std::uint32_t seed, std::uint32_t index) {
  std::uint32_t x = seed * 0x9E3779B9u + index;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  const float unit = static_cast<float>(x >> 8) * (1.0f / 16777216.0f);  // [0, 1), exact
  return (unit * 2.0f - 1.0f) * 1.7320508f;
}

Matrix hashed_matrix(std::uint32_t seed, Index rows, Index cols) {
  Matrix m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = hashed_uniform(seed, static_cast<std::uint32_t>(i));
  return m;
}

// CPU time on `clock`; in Node, whose threads the bench cannot tell apart, the process's.
double cpu_seconds_on(clockid_t clock) {
#if defined(__EMSCRIPTEN__)
  (void)clock;
  return np_process_cpu_seconds();
#else
  return bench::clock_seconds(clock);
#endif
}

double cpu_seconds() { return cpu_seconds_on(CLOCK_THREAD_CPUTIME_ID); }
double process_cpu_seconds() { return cpu_seconds_on(CLOCK_PROCESS_CPUTIME_ID); }  // every thread

// The 1, 5 and 15 minute load averages ({-1, -1, -1} where there are none, as in WebAssembly).
struct LoadAverage {
  double one = -1, five = -1, fifteen = -1;
};

LoadAverage load_average() {
  LoadAverage load;
#if !defined(__EMSCRIPTEN__)
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &load.one, &load.five, &load.fifteen) != 3) load = {};
    std::fclose(f);
  }
#endif
  return load;
}

// Switches the calling thread (and the threads it starts afterwards) to SCHED_FIFO or back to
// the normal policy. False where that is not allowed (no CAP_SYS_NICE) or not available.
bool set_realtime(bool on) {
#if defined(__EMSCRIPTEN__)
  (void)on;
  return false;
#else
  sched_param param{};
  param.sched_priority = on ? 1 : 0;
  return sched_setscheduler(0, on ? SCHED_FIFO : SCHED_OTHER, &param) == 0;
#endif
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timing {
  double best = 0.0;              // seconds
  double median = 0.0;            // seconds: best vs median shows how noisy the machine was
  double best_wall = 0.0;         // seconds of wall time, best run (thread-count speedups compare these)
  double best_process_cpu = 0.0;  // CPU seconds of all threads together, best run
  int runs = 0;
};

// One warm-up, then at least `repeats` runs and until `budget` seconds are spent.
template <typename F>
Timing time_runs(F&& run, const Options& o, bool cpu_clock) {
  const auto now = [&] { return cpu_clock ? cpu_seconds() : wall_seconds(); };
  run();
  std::vector<double> times;
  double spent = 0.0, best_wall = 1e30, best_process = 1e30;
  while (static_cast<int>(times.size()) < o.repeats || (spent < o.budget && times.size() < 200)) {
    const double start = now(), start_wall = wall_seconds(), start_process = process_cpu_seconds();
    run();
    times.push_back(now() - start);
    best_wall = std::min(best_wall, wall_seconds() - start_wall);
    best_process = std::min(best_process, process_cpu_seconds() - start_process);
    spent += times.back();
  }
  std::sort(times.begin(), times.end());
  return {times.front(), times[times.size() / 2], best_wall, best_process, static_cast<int>(times.size())};
}

void dump(const Options& o, const std::string& name, const Matrix& m) {
  if (o.dump.empty()) return;
  const std::string path = o.dump + "/" + name + ".f32";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(m.data(), sizeof(float), static_cast<std::size_t>(m.size()), f) !=
                static_cast<std::size_t>(m.size())) {
    std::fprintf(stderr, "attention-bench: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(f);
}

// [SECTION] Measurements -----------------------------------------------------------------------

struct Row {
  int t = 0;
  std::string mask, kernel, isa;
  int threads = 1;
  Timing time;
  double gflops = 0.0;
  std::size_t working_bytes = 0;
  double max_diff = -1.0;  // vs naive; -1 = naive not run
};

struct Peak {
  std::string isa;
  double gflops = 0.0;
};

Peak probe(const simd::KernelVariant& variant, const Options& o) {
  const long rounds = 20'000'000 / variant.lanes;
  volatile float sink = 0.0f;
  Options quick = o;
  quick.budget = 0.1;
  const Timing t = time_runs([&] { sink = sink + variant.peak_probe(rounds); }, quick, true);
  return {variant.name, static_cast<double>(rounds) * variant.peak_flops_per_round / t.best * 1e-9};
}

float max_abs_diff(const Matrix& a, const Matrix& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
#if defined(__EMSCRIPTEN__)
  const char* platform = "wasm";
#else
  const char* platform = "native";
#endif

  std::vector<Peak> peaks;
  for (const std::string& isa : o.isas) peaks.push_back(probe(*simd::find_variant(isa.c_str()), o));

  const LoadAverage load = load_average();
  bool realtime = false;  // did --realtime get SCHED_FIFO?
  std::vector<Row> rows;
  for (const int T : o.ts) {
    const Matrix q = hashed_matrix(1, T, o.d), k = hashed_matrix(2, T, o.d), v = hashed_matrix(3, T, o.d);
    for (const std::string& mask_name : o.masks) {
      const Mask mask = parse_mask(mask_name);
      const double flops = 4.0 * T * static_cast<double>(T) * o.d * (mask.causal ? 0.5 : 1.0);
      const std::string tag = std::to_string(T) + "-" + mask_name;
      Matrix naive;
      if (o.naive) {
        Row r{T, mask_name, "naive", "eigen", 1, {}, 0.0, attention_naive_working_bytes(T, T), 0.0};
        r.time = time_runs([&] { naive = attention_naive(q, k, v, mask).output; }, o, true);
        r.gflops = flops / r.time.best * 1e-9;
        rows.push_back(r);
        dump(o, "naive-" + tag, naive);
      }
      for (const std::string& isa : o.isas) {
        std::vector<int> thread_counts = {1};  // every core too, for the fastest instruction set
        if (o.threads > 1 && isa == o.isas.front()) thread_counts.push_back(o.threads);
        for (const int threads : thread_counts) {
          TiledOptions options;
          options.block = o.block;
          options.isa = isa;
          options.threads = threads;
          Row r{T,       mask_name, "tiled", isa,
                threads, {},        0.0,     attention_tiled_working_bytes(T, T, o.d, o.d, mask, options),
                -1.0};
          Matrix tiled;
          const bool compared = o.realtime && o.threads > 1 && isa == o.isas.front();
          if (compared) realtime = set_realtime(true);
          r.time = time_runs([&] { tiled = attention_tiled(q, k, v, mask, options); }, o, threads == 1);
          if (compared) set_realtime(false);
          r.gflops = flops / r.time.best * 1e-9;
          if (o.naive) r.max_diff = max_abs_diff(tiled, naive);
          rows.push_back(r);
          if (threads == 1) dump(o, "tiled-" + isa + "-" + tag, tiled);
        }
      }
    }
  }
  TiledOptions defaults;
  defaults.block = o.block;
  const std::size_t memory =
      attention_tiled_working_bytes(o.memory_t, o.memory_t, o.d, o.d, Mask::causal_mask(), defaults);
  if (o.realtime && !realtime)
    std::fprintf(stderr, "attention-bench: --realtime: SCHED_FIFO not allowed here; normal scheduling\n");

  if (o.json) {
    std::printf(
        "{\"platform\":\"%s\",\"d\":%d,\"block\":%d,\"load_average\":[%.2f,%.2f,%.2f],\"realtime\":%s,"
        "\"peaks\":[",
        platform, o.d, o.block, load.one, load.five, load.fifteen, realtime ? "true" : "false");
    for (std::size_t i = 0; i < peaks.size(); ++i)
      std::printf("%s{\"isa\":\"%s\",\"gflops\":%.2f}", i ? "," : "", peaks[i].isa.c_str(), peaks[i].gflops);
    std::printf("],\"rows\":[");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf(
          "%s{\"t\":%d,\"mask\":\"%s\",\"kernel\":\"%s\",\"isa\":\"%s\",\"threads\":%d,\"seconds\":%.6g,"
          "\"median_seconds\":%.6g,\"wall_seconds\":%.6g,\"process_cpu_seconds\":%.6g,\"runs\":%d,\"gflops\":%.3f,"
          "\"working_bytes\":%zu,\"max_diff\":%.3g}",
          i ? "," : "", r.t, r.mask.c_str(), r.kernel.c_str(), r.isa.c_str(), r.threads, r.time.best, r.time.median,
          r.time.best_wall, r.time.best_process_cpu, r.time.runs, r.gflops, r.working_bytes, r.max_diff);
    }
    std::printf("],\"memory\":{\"t\":%ld,\"tiled_working_bytes\":%zu}}\n", o.memory_t, memory);
    return 0;
  }
  std::printf("attention (%s): one head, d = %d, key block = %d, best of >= %d runs\n", platform, o.d, o.block,
              o.repeats);
  if (load.one >= 0)
    std::printf("load average at start: %.2f %.2f %.2f (1, 5, 15 min)%s\n", load.one, load.five, load.fifteen,
                realtime ? "; thread comparison under SCHED_FIFO" : "");
  std::printf("peak:");
  for (const Peak& p : peaks) std::printf("  %s %.1f GFLOP/s", p.isa.c_str(), p.gflops);
  std::printf("\n%6s %-7s %-6s %-7s %3s | %10s %10s %8s %11s %9s\n", "T", "mask", "kernel", "isa", "thr", "best ms",
              "median ms", "GFLOP/s", "memory", "max |Δ|");
  for (const Row& r : rows)
    std::printf("%6d %-7s %-6s %-7s %3d | %10.3f %10.3f %8.2f %11zu %9.2e\n", r.t, r.mask.c_str(), r.kernel.c_str(),
                r.isa.c_str(), r.threads, r.time.best * 1e3, r.time.median * 1e3, r.gflops, r.working_bytes,
                r.max_diff);
  std::printf("tiled working memory at T = %ld: %zu bytes (%.2f MiB)\n", o.memory_t, memory,
              static_cast<double>(memory) / (1 << 20));
  return 0;
}
