// kernel_race.h: the naive and tiled attention kernels run side by side on the same seeded
// Q, K, V, as a job a page can spread over many frames: step(budget) works for at most about
// `budget` seconds and returns, so no frame stalls (the cost explorer calls it once a frame).
//
//   KernelRace race(T, d, tile, seed, /*naive_allowed=*/true);
//   while (!race.finished()) race.step(0.012);      // inputs, then naive, then tiled, then compare
//   race.naive().seconds, race.tiled().seconds, race.max_difference()
//
// The work is cut into slices of query rows. With no mask a query row's output depends on that
// row alone (the tiled kernel simply starts a shorter block of queries), so the slices add up
// to exactly the whole kernel's output.
#pragma once

#include "tensor.h"

#include <chrono>
#include <cstdint>

namespace neuralpath {

// [SECTION] What attention over T tokens costs ------------------------------------------------

struct AttentionCost {
  std::int64_t t = 0;
  std::uint64_t pairs = 0;        // T × T query-key pairs per head
  double bytes_fp32 = 0;          // one head's T×T matrix at 4 bytes a score
  double bytes_fp16 = 0;          // at 2 bytes a score
  double bytes_all_heads = 0;     // heads × T × T × bytes_per_score
  std::uint64_t naive_bytes = 0;  // the naive kernel's working memory (4 [T][T] float matrices)
  std::uint64_t tiled_bytes = 0;  // the tiled kernel's, with head width d and block `tile`
};

// Counted in 64 bits: attention_naive_working_bytes() answers in size_t, which is 32 bits in
// WebAssembly and wraps past T = 16,384.
AttentionCost attention_cost(std::int64_t t, int heads, int bytes_per_score, int d, int tile);

// [SECTION] The race ---------------------------------------------------------------------------

enum class KernelStatus { waiting, running, done, refused, stopped };
const char* kernel_status_name(KernelStatus status);  // "waiting", "running", "done", "refused", "stopped"

struct KernelRun {
  KernelStatus status = KernelStatus::waiting;
  Index rows_done = 0;  // query rows computed so far
  double seconds = 0;   // time inside the kernel calls only
  double eta = 0;       // seconds of wall time left, from the pace so far
  bool active() const { return status == KernelStatus::waiting || status == KernelStatus::running; }
};

class KernelRace {
 public:
  // T tokens of width d; `tile` is the tiled kernel's block. A race whose naive kernel is not
  // allowed (its T×T matrices would not fit) runs the tiled kernel alone.
  KernelRace(std::int64_t t, int d, int tile, std::uint64_t seed, bool naive_allowed);

  // Works for about `budget_seconds` (at least one slice); true once everything is done.
  bool step(double budget_seconds);
  void stop();  // the kernels still running become stopped

  bool finished() const { return compared_ || stopped_; }
  std::int64_t t() const { return t_; }
  int d() const { return d_; }
  int tile() const { return tile_; }
  Index prepared() const { return prepared_; }  // rows of Q, K, V filled so far
  const KernelRun& naive() const { return naive_; }
  const KernelRun& tiled() const { return tiled_; }
  bool compared() const { return compared_; }               // both outputs compared
  float max_difference() const { return max_difference_; }  // max |O_naive − O_tiled|
  double gflops(const KernelRun& run) const;                // 4·rows_done·T·d operations / seconds

 private:
  using Clock = std::chrono::steady_clock;
  bool step_kernel(KernelRun& run, Matrix& output, bool naive, double budget_seconds);

  std::int64_t t_;
  int d_, tile_;
  std::uint64_t rng_;
  Matrix q_, k_, v_;  // [T][d], seeded unit-variance entries
  Index prepared_ = 0;
  KernelRun naive_, tiled_;
  Matrix naive_output_, tiled_output_;  // [T][d]
  Clock::time_point naive_started_, tiled_started_;
  bool compared_ = false, stopped_ = false;
  float max_difference_ = 0;
};

}  // namespace neuralpath
