// cost_explorer_model.h: the cost explorer's model (no ImGui). T from 10 to 100,000 and what
// attention over T tokens costs (engine/core/kernel_race.h's attention_cost, for the slider's T
// and for the plot's points), and live races of the naive and tiled kernels, which update()
// advances a frame's budget at a time (KernelRace::step), so the page never stalls.
//
//   commands   setLength{T}  run{T?}  stop
//   state()    {kind, T, pairs, bytes_fp32, bytes_fp16, bytes_all_heads, heads, bytes_per_score,
//               lengths, naive_bytes, tiled_bytes, limit_bytes, naive_allowed, running,
//               runs[{T, d, tile, naive{status, seconds, bytes, rows_done, gflops, reason?},
//               tiled{...}, max_difference|null}], summary}
//   events     {"type": "costRun", T, naive{status, seconds, bytes}, tiled{...}, max_difference?}
//   snapshot   {"T": T}
#pragma once
#include "engine/core/kernel_race.h"
#include "engine/widgets/widget_model.h"
#include "engine/widgets/cost_explorer/cost_explorer_settings.h"

#include <cstdint>
#include <deque>

namespace neuralpath::widgets {

class CostExplorerModel : public WidgetModelBase<CostExplorerSettings> {
 public:
  static constexpr const char* kKind = "cost-explorer";
  static constexpr std::int64_t kMinT = 10, kMaxT = 100000;
  static constexpr std::uint64_t kTabBudget = std::uint64_t{256}
                                              << 20;  // what a browser tab can spare the naive kernel
  static constexpr int kRunD = 64;                    // d_head of the live run (GPT-2's)
  static constexpr double kFrameBudget = 0.012;       // seconds of work per frame while running

  // What attention over T tokens costs, and whether the naive kernel may run at T.
  struct Figures : AttentionCost {
    bool naive_fits = true;  // naive_bytes <= kTabBudget
  };
  // One press of "Run": the engine's race and the memory each kernel needs.
  struct LiveRun {
    KernelRace race;
    std::uint64_t naive_bytes = 0, tiled_bytes = 0;
    bool reported = false;  // its costRun event was sent
    // The pace of the kernel running now, for "time left": (seconds since the run started, rows
    // done) once a frame, the last kPaceSeconds of them.
    double elapsed = 0;
    bool pace_naive = true;  // which kernel `pace` follows
    std::deque<std::pair<double, std::int64_t>> pace;
  };
  static constexpr double kPaceSeconds = 2.0;

  struct SetLength {
    std::int64_t t = 0;
  };
  struct Run {
    std::optional<std::int64_t> t;
  };
  using Command = std::variant<SetLength, Run, Stop>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  CostExplorerModel(const CostExplorerSettings& settings, const lesson::Inline& caption);

  void update(float dt);                                 // advances a running race by kFrameBudget seconds of work
  bool wants_another_frame() const { return running_; }  // the race works in update()

  // For the view.
  std::int64_t t() const { return t_; }
  const Figures& figures() const { return figures_; }
  const std::vector<Figures>& curve() const { return curve_; }  // the plot's points, 10 .. 100,000 on a log scale
  const std::vector<LiveRun>& runs() const { return runs_; }    // newest last; the last may be running
  bool running() const { return running_; }
  std::string refusal(const LiveRun& run) const;  // why the naive kernel refused, or ""

  // Seconds left for a running kernel, at its pace over the last kPaceSeconds: the pace since
  // the start counted the run's first, slower frames for the whole run (#34: "33.85 s left"
  // for a run that took 18.9 s). KernelRun::eta (the pace since the start) until then.
  double time_left(const LiveRun& run, bool naive) const;

  Explanation explain_figure(const std::string& what) const;  // "pairs", "fp32", "fp16", "block"
  Explanation explain_kernel(const LiveRun& run, bool naive) const;
  Explanation explain_difference(const LiveRun& run) const;

 private:
  void set_t(std::int64_t t);

  std::int64_t t_ = 1024;
  Figures figures_;
  std::vector<Figures> curve_;
  std::vector<LiveRun> runs_;
  bool running_ = false;
};

}  // namespace neuralpath::widgets
