// kernel_race.cpp: the naive and tiled kernels, a slice of query rows at a time (kernel_race.h).
#include "kernel_race.h"

#include "attention.h"
#include "embedding.h"

#include <algorithm>
#include <cmath>

namespace neuralpath {

AttentionCost attention_cost(std::int64_t t, int heads, int bytes_per_score, int d, int tile) {
  AttentionCost c;
  c.t = t;
  c.pairs = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(t);  // T²
  c.bytes_fp32 = static_cast<double>(c.pairs) * 4.0;                        // T² · 4 bytes
  c.bytes_fp16 = static_cast<double>(c.pairs) * 2.0;                        // T² · 2 bytes
  c.bytes_all_heads = static_cast<double>(c.pairs) * bytes_per_score * std::max(heads, 1);
  c.naive_bytes = 4 * c.pairs * sizeof(float);  // scores, scaled, masked, weights: [T][T] each
  c.tiled_bytes = attention_tiled_working_bytes(t, t, d, std::max(tile, 1));
  return c;
}

const char* kernel_status_name(KernelStatus status) {
  switch (status) {
    case KernelStatus::waiting: return "waiting";
    case KernelStatus::running: return "running";
    case KernelStatus::done: return "done";
    case KernelStatus::refused: return "refused";
    case KernelStatus::stopped: return "stopped";
  }
  return "waiting";
}

KernelRace::KernelRace(std::int64_t t, int d, int tile, std::uint64_t seed, bool naive_allowed)
    : t_(std::max<std::int64_t>(t, 1)), d_(std::max(d, 1)), tile_(std::max(tile, 1)), rng_(seed) {
  q_.resize(t_, d_);
  k_.resize(t_, d_);
  v_.resize(t_, d_);
  if (!naive_allowed) naive_.status = KernelStatus::refused;
}

double KernelRace::gflops(const KernelRun& run) const {
  // Q·Kᵀ and weights·V over the rows computed (no mask: every query row sees all T keys):
  // 2·rows·T·d multiply-adds each = 4·rows·T·d floating-point operations; 4·T²·d once done.
  // (A stopped run has done only some rows; counting all T of them overstated its speed by T/rows.)
  const double rows = static_cast<double>(run.rows_done), t = static_cast<double>(t_);
  return run.seconds > 0 ? 4.0 * rows * t * d_ / run.seconds / 1e9 : 0.0;
}

bool KernelRace::step_kernel(KernelRun& run, Matrix& output, bool naive, double budget) {
  const Index t = static_cast<Index>(t_);
  Clock::time_point& started = naive ? naive_started_ : tiled_started_;
  if (run.status == KernelStatus::waiting) {
    run.status = KernelStatus::running;
    output.resize(t, d_);
    started = Clock::now();
  }
  // Rows per slice from the pace so far (8 for the first slice, to measure it).
  const double per_row = run.rows_done > 0 ? run.seconds / static_cast<double>(run.rows_done) : 0.0;
  Index rows = per_row > 0 ? static_cast<Index>(budget / per_row) : 8;
  rows = std::clamp<Index>(rows, 1, t - run.rows_done);
  const auto q = q_.middleRows(run.rows_done, rows);  // [rows][d]
  const auto start = Clock::now();
  if (naive)
    output.middleRows(run.rows_done, rows) = attention_naive(q, k_, v_, Mask::none()).output;
  else
    output.middleRows(run.rows_done, rows) = attention_tiled(q, k_, v_, Mask::none(), tile_);
  run.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  run.rows_done += rows;
  const double wall = std::chrono::duration<double>(Clock::now() - started).count();
  run.eta = wall / static_cast<double>(run.rows_done) * static_cast<double>(t - run.rows_done);
  if (run.rows_done >= t) run.status = KernelStatus::done;
  return run.status == KernelStatus::done;
}

bool KernelRace::step(double budget) {
  if (finished()) return true;
  const auto start = Clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  bool worked = false;  // every call makes progress, however small its budget
  const auto more = [&] { return !worked || spent() < budget; };
  // 1. inputs: seeded uniform entries in ±√3 (variance 1), 256 rows at a time
  const float a = std::sqrt(3.0f);
  while (prepared_ < t_ && more()) {
    const Index end = std::min<Index>(prepared_ + 256, static_cast<Index>(t_));
    for (Matrix* m : {&q_, &k_, &v_})
      for (Index r = prepared_; r < end; ++r)
        for (Index c = 0; c < d_; ++c) (*m)(r, c) = uniform_from(rng_, -a, a);
    prepared_ = end;
    worked = true;
  }
  if (prepared_ < t_) return false;
  // 2. naive, 3. tiled: slices of query rows until this call's budget is spent
  while (naive_.active()) {
    if (!more()) return false;
    step_kernel(naive_, naive_output_, true, std::max(budget - spent(), 0.0));
    worked = true;
  }
  while (tiled_.active()) {
    if (!more()) return false;
    step_kernel(tiled_, tiled_output_, false, std::max(budget - spent(), 0.0));
    worked = true;
  }
  // 4. compare the two outputs; then neither they nor the inputs are needed any more
  if (naive_.status == KernelStatus::done && tiled_.status == KernelStatus::done)
    max_difference_ = (naive_output_ - tiled_output_).cwiseAbs().maxCoeff();
  compared_ = true;
  for (Matrix* m : {&q_, &k_, &v_, &naive_output_, &tiled_output_}) m->resize(0, 0);
  return true;
}

void KernelRace::stop() {
  if (finished()) return;
  for (KernelRun* run : {&naive_, &tiled_})
    if (run->active()) run->status = KernelStatus::stopped;
  stopped_ = true;
  for (Matrix* m : {&q_, &k_, &v_, &naive_output_, &tiled_output_}) m->resize(0, 0);
}

}  // namespace neuralpath
