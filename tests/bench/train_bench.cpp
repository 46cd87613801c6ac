// train-bench: training steps per second on the launch lessons' tasks, and the attention
// backward (naive vs tiled) at longer sequences.
//
//   train-bench [--json] [--seconds S]
//
// The same source builds as train-bench.cjs for Node in the web preset (the page's code and
// flags); `./neuralpath bench` runs both and prints them side by side (tests/bench/bench.mjs).
//
// Rows: each lesson task at its own batch size (one step = one minibatch forward + backward +
// AdamW), reported as steps/s and sentences/s; then the attention backward for one head,
// naive (stored weights) vs tiled (recomputed from the row log-sum-exp), d = 64, causal.
// Best of repeated runs after a warm-up; --json prints one JSON object instead of the table.
#include "engine/core/attention.h"
#include "engine/core/backward.h"
#include "engine/core/training.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"
#include "engine/widgets/widget_kinds.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace neuralpath;

namespace {

double seconds_per_call(const std::function<void()>& call, double budget) {
  using clock = std::chrono::steady_clock;
  call();  // warm-up
  double best = 1e30;
  const auto start = clock::now();
  int runs = 0;
  while (runs < 3 || std::chrono::duration<double>(clock::now() - start).count() < budget) {
    const auto t0 = clock::now();
    call();
    best = std::min(best, std::chrono::duration<double>(clock::now() - t0).count());
    ++runs;
  }
  return best;
}

struct Row {
  std::string name;
  double value;
  std::string unit;
};

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  double budget = 0.5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json")
      json = true;
    else if (a == "--seconds" && i + 1 < argc)
      budget = std::atof(argv[++i]);
    else {
      std::fprintf(stderr, "train-bench: unknown argument '%s'\nusage: train-bench [--json] [--seconds S]\n",
                   a.c_str());
      return 2;
    }
  }
  std::vector<Row> rows;
  for (const char* name : {"self-attention", "course-playback", "multi-head"}) {
    const std::string path = std::string(NEURALPATH_SOURCE_DIR "/lessons/") + name + ".md";
    // As written (a `lesson-weights: trained` task is not trained at load): only the steps are timed.
    const lesson::LoadResult loaded =
        lesson::load_lesson_file(path, neuralpath::widgets::with_widgets({.lesson_weights = false}));
    if (!loaded.ok()) {
      std::fprintf(stderr, "train-bench: %s does not load\n", path.c_str());
      return 1;
    }
    for (const lesson::TaskData& task : loaded.lesson->tasks) {
      TrainOptions options = lesson::train_options(task);
      options.steps = 1 << 30;  // never finishes while timed
      Trainer trainer(lesson::model_spec_for(*loaded.lesson), lesson::training_set(*loaded.lesson, task), options);
      const double s = seconds_per_call([&] { trainer.step(); }, budget);
      const std::string label = std::string(name) + " / " + task.id + " (batch " + std::to_string(options.batch) + ")";
      rows.push_back({"train " + label, 1.0 / s, "steps/s"});
      rows.push_back({"train " + label, options.batch / s, "sentences/s"});
    }
  }
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  for (const int t : {256, 1024}) {
    const int d = 64;
    Matrix q(t, d), k(t, d), v(t, d), dout(t, d);
    for (Matrix* m : {&q, &k, &v, &dout})
      for (Index i = 0; i < m->size(); ++i) m->data()[i] = normal(rng);
    const Mask mask = Mask::causal_mask();
    const AttentionResult naive = attention_naive(q, k, v, mask);
    const Matrix out = attention_tiled(q, k, v, mask);
    Matrix dq(t, d), dk(t, d), dv(t, d);
    const double naive_s = seconds_per_call(
        [&] {
          dq.setZero();
          dk.setZero();
          dv.setZero();
          attention_naive_backward(dq, dk, dv, dout, nullptr, q, k, v, naive);
        },
        budget);
    const double tiled_s = seconds_per_call(
        [&] {
          dq.setZero();
          dk.setZero();
          dv.setZero();
          const Vector lse = attention_row_logsumexp(q, k, mask);
          attention_tiled_backward(dq, dk, dv, dout, q, k, v, mask, out, lse);
        },
        budget);
    rows.push_back({"attention backward naive T=" + std::to_string(t) + " d=64 causal", naive_s * 1e3, "ms"});
    rows.push_back({"attention backward tiled T=" + std::to_string(t) + " d=64 causal", tiled_s * 1e3, "ms"});
  }
  if (json) {
    std::printf("{\"training\": [");
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::printf("%s{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\"}", i ? ", " : "", rows[i].name.c_str(),
                  rows[i].value, rows[i].unit.c_str());
    std::printf("]}\n");
    return 0;
  }
#ifdef __EMSCRIPTEN__
  const char* where = "training (WebAssembly)";  // train-bench.cjs: the page's own training code under Node
#else
  const char* where = "training (native)";
#endif
  std::printf("%-64s %12s\n", where, "");
  for (const Row& r : rows) std::printf("%-64s %12.1f %s\n", r.name.c_str(), r.value, r.unit.c_str());
  return 0;
}
