// lm_bench.cpp: language-model training speed in tokens per second (`./neuralpath bench`'s
// language-model part; issue #28). The same source builds natively and, in the web preset, as
// lm-bench.cjs for Node: the page's training code with the page's flags.
//
//   lm-bench [--json] [--configs page,small,small-8k] [--steps N] [--threads 1,2]
//
// For each config and thread count: two warm-up steps, then N steps of LmTrainer (and more
// until a second has passed: 20 steps of the page's config are 55 ms, too short a window for
// a ratio of two timings, whose first steps also pay for new threads' memory) on a synthetic
// token stream (token i = (7919·i + 13) mod V, never the document token; torch_lm.py builds the
// same stream, so PyTorch trains on the same batches' shapes and ids), timed by the wall clock
// and by the process's CPU time. Thread counts run one after the other in this one process, so
// their ratio is taken under the same load; the load average is printed with them.
#include "engine/core/lm/gemm.h"
#include "engine/core/lm/trainer.h"
#include "bench_support.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace neuralpath::lm;

namespace {

double cpu_seconds() { return bench::clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

std::string load_average() {
  double l[3] = {0, 0, 0};
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3) l[0] = l[1] = l[2] = 0;
    std::fclose(f);
  }
  char out[64];
  std::snprintf(out, sizeof out, "[%.2f, %.2f, %.2f]", l[0], l[1], l[2]);
  return out;
}

constexpr double kMinSeconds = 1.0;  // the shortest timed window, whatever --steps says

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  std::string configs = "page,small,small-8k", threads_list = "1,2";
  int steps = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json")
      json = true;
    else if (a == "--configs" && i + 1 < argc)
      configs = argv[++i];
    else if (a == "--threads" && i + 1 < argc)
      threads_list = argv[++i];
    else if (a == "--steps" && i + 1 < argc)
      steps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: lm-bench [--json] [--configs page,small,small-8k] [--steps N] [--threads 1,2]\n");
      return 2;
    }
  }
  std::string rows;
  for (const std::string& name : bench::split(configs)) {
    const LmConfig* found = find_config(name);
    if (!found) {
      std::fprintf(stderr, "lm-bench: unknown config %s\n", name.c_str());
      return 2;
    }
    const LmConfig& c = *found;
    std::vector<std::pair<int, int>> merges;  // any valid merges: the vocabulary's size is what counts
    for (int i = 0; i < c.vocab_size - kFirstMerge; ++i) merges.emplace_back('a' + i % 26, 'a' + (i / 26) % 26);
    TokenStreams data;
    for (long long i = 0; i < 200000; ++i) {
      int id = static_cast<int>((7919 * i + 13) % c.vocab_size);
      if (id == kDocumentToken) id = 0;
      data.train.push_back(id);
    }
    data.validation.assign(data.train.begin(), data.train.begin() + 1000);
    for (const std::string& t : bench::split(threads_list)) {
      const int threads = std::atoi(t.c_str());
      LmTrainer trainer(initial_model(c, BpeTokenizer::from_merges(merges), 1), data, {1, threads, 1000});
      trainer.step();  // warm-up (and V8's tier-up in wasm)
      trainer.step();
      const double cpu0 = cpu_seconds();
      const auto wall0 = std::chrono::steady_clock::now();
      auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count(); };
      int done = 0;
      for (; done < steps || elapsed() < kMinSeconds; ++done) trainer.step();
      const double wall = elapsed();
      const double cpu = cpu_seconds() - cpu0;
      const double tokens = static_cast<double>(done) * trainer.tokens_per_step();
      // (WebAssembly has no CPU-time clock: null there)
      char cpu_rate[32] = "null";
      if (cpu > 0.0) std::snprintf(cpu_rate, sizeof cpu_rate, "%.1f", tokens / cpu);
      char row[640];
      std::snprintf(row, sizeof row,
                    "%s{\"config\": \"%s\", \"threads\": %d, \"steps\": %d, \"tokens_per_step\": %d, "
                    "\"tokens_per_s\": %.1f, \"cpu_tokens_per_s\": %s, \"step_ms\": %.2f, \"gemm\": \"%s\", "
                    "\"shape\": {\"vocab_size\": %d, \"context\": %d, \"d_model\": %d, \"heads\": %d, \"layers\": %d, "
                    "\"mlp_hidden\": %d, \"batch\": %d}, \"load_average\": %s}",
                    rows.empty() ? "" : ", ", name.c_str(), threads, done, trainer.tokens_per_step(), tokens / wall,
                    cpu_rate, 1000.0 * wall / done, gemm_kernels().name, c.vocab_size, c.context, c.d_model, c.heads,
                    c.layers, c.mlp_hidden, c.batch, load_average().c_str());
      rows += row;
      if (!json)
        std::printf("%-6s %d thread(s): %9.0f tokens/s (%.1f ms a step; CPU time: %s tokens/s)\n", name.c_str(),
                    threads, tokens / wall, 1000.0 * wall / done, cpu_rate);
    }
  }
  if (json) std::printf("{\"lm\": [%s]}\n", rows.c_str());
  return 0;
}
