// cost_explorer.cpp: why attention's T×T matrix matters. A log slider for T (10 .. 100,000)
// with the pairs per head and that matrix's memory in fp32 and fp16, a plot of the growth, and a
// live run of the engine's naive and tiled kernels side by side (time, memory they need, max
// difference). The naive kernel refuses — with the reason — when its T×T matrices would not
// fit the tab's budget; the tiled one goes on.
//
// The run never freezes the page: update() spends a few milliseconds per frame on it, one
// slice of query rows at a time (inputs, then naive, then tiled). Without a mask each query
// row's output depends only on that row, so slices give exactly the whole kernel's numbers.
//
// [SECTION] Figures (computed on every change of T, never while drawing)
// [SECTION] The live run
// [SECTION] Drawing
// [SECTION] State and commands
#include "engine/core/attention.h"
#include "engine/core/embedding.h"
#include "engine/core/error.h"
#include "engine/core/format.h"
#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/readout.h"
#include "engine/ui/widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <string_view>
#include <chrono>
#include <cmath>

namespace neuralpath::ui {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t kMinT = 10, kMaxT = 100000;
constexpr std::uint64_t kTabBudget = std::uint64_t{256} << 20;  // what a browser tab can spare the naive kernel
constexpr int          kRunD = 64;                           // d_head of the live run (GPT-2's)
constexpr double       kFrameBudget = 0.012;                 // seconds of work per frame while running
constexpr std::uint64_t kRunSeed = 7;
constexpr int          kPlotPoints = 48;
constexpr std::size_t  kKeptRuns = 4;

// [SECTION] Figures ----------------------------------------------------------------------------

struct Figures {
  std::int64_t  t = 0;
  std::uint64_t pairs = 0;          // T × T query-key pairs per head
  double        bytes_fp32 = 0;     // the T×T matrix of one head, 4 bytes a score
  double        bytes_fp16 = 0;     // 2 bytes a score
  double        bytes_block = 0;    // all heads, at the lesson's bytes per score
  std::uint64_t naive_bytes = 0;    // attention_naive_working_bytes(T, T), counted in 64 bits
  std::uint64_t tiled_bytes = 0;    // attention_tiled_working_bytes(T, T, d, tile)
  bool          naive_fits = true;  // naive_bytes <= kTabBudget
};

Figures figures_at(std::int64_t t, const lesson::CostExplorer& block) {
  Figures f;
  f.t = t;
  f.pairs = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(t);        // T²
  f.bytes_fp32 = static_cast<double>(f.pairs) * 4.0;                             // T² · 4 bytes
  f.bytes_fp16 = static_cast<double>(f.pairs) * 2.0;                             // T² · 2 bytes
  f.bytes_block = static_cast<double>(f.pairs) * block.bytes_per_score * std::max(block.heads, 1);
  // attention_naive_working_bytes() answers in size_t, which is 32 bits in WebAssembly and
  // wraps past T = 16,384; its formula (4 [T][T] float matrices) is counted here in 64 bits.
  f.naive_bytes = 4 * f.pairs * sizeof(float);
  f.tiled_bytes = attention_tiled_working_bytes(t, t, kRunD, std::max(block.tile, 1));
  f.naive_fits = f.naive_bytes <= kTabBudget;
  return f;
}

// [SECTION] The live run -----------------------------------------------------------------------

struct KernelRun {
  const char* kernel = "naive";
  std::string status = "waiting";   // waiting, running, done, refused, stopped
  std::string reason;               // why it refused
  Index       rows_done = 0;
  double      seconds = 0;          // time inside the kernel calls only
  std::uint64_t bytes = 0;          // the kernel's working memory (attention.h)
  Matrix      output;               // [T][d]
  Clock::time_point started;        // first slice, for the wall-clock estimate
  double      eta = 0;              // seconds of page time left, from the pace so far
};

struct LiveRun {
  std::int64_t t = 0;
  int          tile = 64;
  Matrix       q, k, v;             // [T][d], seeded unit-variance entries
  Index        prepared = 0;        // rows of q, k, v filled so far
  std::uint64_t rng = kRunSeed;
  KernelRun    naive, tiled;
  bool         compared = false;
  float        max_difference = 0;  // max |O_naive − O_tiled|
  bool finished() const {
    return tiled.status != "waiting" && tiled.status != "running" && naive.status != "running" &&
           naive.status != "waiting";
  }
};

double gflops(const LiveRun& run, const KernelRun& k) {
  // Q·Kᵀ and weights·V: 2·T²·d multiply-adds each = 4·T²·d floating-point operations.
  const double t = static_cast<double>(run.t);
  return k.seconds > 0 ? 4.0 * t * t * kRunD / k.seconds / 1e9 : 0.0;
}

class CostExplorerWidget final : public Widget {
 public:
  explicit CostExplorerWidget(const lesson::CostExplorer& block);

  const char* kind() const override { return "cost-explorer"; }
  void update(float dt) override;
  void draw(const UiContext& ui) override;
  json state() const override;
  std::optional<std::string> command(const json& message) override;
  std::vector<json> take_events() override;

 private:
  void set_t(std::int64_t t);
  void start_run();
  void stop_run();
  void work(double budget_seconds);  // one frame's slice of the run
  bool step_kernel(KernelRun& k, double budget_seconds);

  Explanation explain_figure(const std::string& what) const;
  Explanation explain_kernel(const LiveRun& run, const KernelRun& k) const;
  void draw_figures(const UiContext& ui, float width);
  void draw_plot(const UiContext& ui, float width);
  void draw_run(const UiContext& ui, float width);
  void draw_kernel_line(const UiContext& ui, const LiveRun& run, KernelRun& k, float width);

  lesson::CostExplorer   block_;
  std::int64_t           t_ = 1024;
  Figures                figures_;
  std::vector<Figures>   curve_;        // the plot's points, 10 .. 100,000 on a log scale
  std::vector<LiveRun>   runs_;         // newest last; the last one may be running
  bool                   running_ = false;
  std::vector<json>      events_;
  Explainer              explain_;
};

CostExplorerWidget::CostExplorerWidget(const lesson::CostExplorer& block) : block_(block) {
  for (int i = 0; i < kPlotPoints; ++i) {
    const double e = 1.0 + 4.0 * i / (kPlotPoints - 1);  // log10 T from 1 to 5
    curve_.push_back(figures_at(static_cast<std::int64_t>(std::llround(std::pow(10.0, e))), block_));
  }
  set_t(block.lengths.empty() ? 1024 : block.lengths.front());
}

void CostExplorerWidget::set_t(std::int64_t t) {
  t_ = std::clamp(t, kMinT, kMaxT);
  figures_ = figures_at(t_, block_);
}

void CostExplorerWidget::start_run() {
  if (running_) return;
  LiveRun run;
  run.t = t_;
  run.tile = std::max(block_.tile, 1);
  run.q.resize(t_, kRunD);
  run.k.resize(t_, kRunD);
  run.v.resize(t_, kRunD);
  run.naive.kernel = "naive";
  run.naive.bytes = figures_.naive_bytes;
  run.tiled.kernel = "tiled";
  run.tiled.bytes = figures_.tiled_bytes;
  if (!figures_.naive_fits) {
    run.naive.status = "refused";
    run.naive.reason = "At T = " + format_count(static_cast<std::uint64_t>(t_)) +
                       " its four T×T float matrices need " + format_bytes(static_cast<double>(figures_.naive_bytes)) +
                       ", more than the " + format_bytes(static_cast<double>(kTabBudget)) +
                       " this tab can spare. The tiled kernel never holds them.";
  }
  if (runs_.size() >= kKeptRuns) runs_.erase(runs_.begin());
  runs_.push_back(std::move(run));
  running_ = true;
}

void CostExplorerWidget::stop_run() {
  if (!running_) return;
  LiveRun& run = runs_.back();
  for (KernelRun* k : {&run.naive, &run.tiled})
    if (k->status == "running" || k->status == "waiting") k->status = "stopped";
  running_ = false;
}

bool CostExplorerWidget::step_kernel(KernelRun& k, double budget) {
  LiveRun& run = runs_.back();
  const Index t = static_cast<Index>(run.t);
  if (k.status == "waiting") {
    k.status = "running";
    k.output.resize(t, kRunD);
    k.started = Clock::now();
  }
  // Rows per slice from the time the last slice took. Any slice works for both kernels: with
  // no mask a query row's output depends on that row alone (the tiled kernel simply starts a
  // shorter block of queries), so the slices add up to exactly the whole kernel's output.
  const double per_row = k.rows_done > 0 ? k.seconds / static_cast<double>(k.rows_done) : 0.0;
  Index rows = per_row > 0 ? static_cast<Index>(budget / per_row) : 8;
  rows = std::clamp<Index>(rows, 1, t - k.rows_done);
  const auto q = run.q.middleRows(k.rows_done, rows);
  const auto start = Clock::now();
  if (&k == &run.naive)
    k.output.middleRows(k.rows_done, rows) = attention_naive(q, run.k, run.v, Mask::none()).output;
  else
    k.output.middleRows(k.rows_done, rows) = attention_tiled(q, run.k, run.v, Mask::none(), run.tile);
  k.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  k.rows_done += rows;
  const double wall = std::chrono::duration<double>(Clock::now() - k.started).count();
  k.eta = wall / static_cast<double>(k.rows_done) * static_cast<double>(t - k.rows_done);
  if (k.rows_done >= t) k.status = "done";
  return k.status == "done";
}

void CostExplorerWidget::work(double budget) {
  LiveRun& run = runs_.back();
  const auto start = Clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  // 1. inputs: seeded uniform entries in ±√3 (variance 1), a few thousand rows a frame
  const float a = std::sqrt(3.0f);
  while (run.prepared < run.t && spent() < budget) {
    const Index end = std::min<Index>(run.prepared + 256, run.t);
    for (Matrix* m : {&run.q, &run.k, &run.v})
      for (Index r = run.prepared; r < end; ++r)
        for (Index c = 0; c < kRunD; ++c) (*m)(r, c) = uniform_from(run.rng, -a, a);
    run.prepared = end;
  }
  if (run.prepared < run.t) return;
  // 2. naive, 3. tiled: slices of query rows until this frame's budget is spent
  for (KernelRun* k : {&run.naive, &run.tiled}) {
    while (k->status == "waiting" || k->status == "running") {
      if (spent() >= budget) return;
      step_kernel(*k, budget - spent());
    }
  }
  // 4. compare the two outputs
  if (!run.compared) {
    run.compared = true;
    if (run.naive.status == "done" && run.tiled.status == "done")
      run.max_difference = (run.naive.output - run.tiled.output).cwiseAbs().maxCoeff();
    running_ = false;
    json event = {{"type", "costRun"}, {"T", run.t}};
    for (const KernelRun* k : {&run.naive, &run.tiled})
      event[k->kernel] = {{"status", k->status}, {"seconds", k->seconds}, {"bytes", k->bytes}};
    if (run.naive.status == "done") event["max_difference"] = run.max_difference;
    events_.push_back(event);
    // The outputs were only needed for the comparison; the inputs can go too.
    for (Matrix* m : {&run.q, &run.k, &run.v, &run.naive.output, &run.tiled.output}) m->resize(0, 0);
  }
}

void CostExplorerWidget::update(float /*dt*/) {
  if (running_) work(kFrameBudget);
}

std::vector<json> CostExplorerWidget::take_events() {
  std::vector<json> out = explain_.take_events();
  for (json& e : events_) out.push_back(std::move(e));
  events_.clear();
  return out;
}

// [SECTION] Drawing ----------------------------------------------------------------------------

Explanation CostExplorerWidget::explain_figure(const std::string& what) const {
  const Figures& f = figures_;
  const std::string t = format_count(static_cast<std::uint64_t>(f.t));
  Explanation e;
  e.inputs.push_back({"T (tokens)", t});
  if (what == "pairs") {
    e.title = "Query-key pairs per head: " + format_count(f.pairs);
    e.formula = "pairs = T × T";
    e.text = "Every one of the " + t + " queries scores every one of the " + t +
             " keys, so doubling T makes four times as many scores.";
  } else if (what == "fp32" || what == "fp16") {
    const bool fp32 = what == "fp32";
    e.title = std::string("One head's T×T matrix in ") + (fp32 ? "fp32" : "fp16") + ": " +
              format_bytes(fp32 ? f.bytes_fp32 : f.bytes_fp16);
    e.formula = std::string("bytes = T × T × ") + (fp32 ? "4" : "2");
    e.inputs.push_back({"pairs", format_count(f.pairs)});
    e.text = std::string("A ") + (fp32 ? "32-bit float takes 4 bytes" : "16-bit float takes 2 bytes") +
             "; a naive kernel keeps the whole matrix of scores (and of weights) for each head.";
  } else {
    e.title = "All " + std::to_string(block_.heads) + " heads at " + std::to_string(block_.bytes_per_score) +
              " bytes a score: " + format_bytes(f.bytes_block);
    e.formula = "bytes = heads × T × T × bytes per score";
    e.inputs.push_back({"heads", std::to_string(block_.heads)});
    e.inputs.push_back({"bytes per score", std::to_string(block_.bytes_per_score)});
    e.text = "Every head has its own T×T matrix, per layer and per sequence in the batch.";
  }
  return e;
}

Explanation CostExplorerWidget::explain_kernel(const LiveRun& run, const KernelRun& k) const {
  Explanation e;
  const bool naive = std::string(k.kernel) == "naive";
  e.title = std::string(naive ? "Naive" : "Tiled") + " kernel at T = " + format_count(static_cast<std::uint64_t>(run.t));
  e.formula = naive ? "memory = 4 matrices × T × T × 4 bytes (scores, scaled, masked, weights)"
                    : "memory = (tile² + 3·tile + tile·d) × 4 bytes (one block of scores, running max/sum, output)";
  e.inputs.push_back({"T", format_count(static_cast<std::uint64_t>(run.t))});
  e.inputs.push_back({"d", std::to_string(kRunD)});
  if (!naive) e.inputs.push_back({"tile", std::to_string(run.tile)});
  e.inputs.push_back({"memory it needs", format_bytes(static_cast<double>(k.bytes))});
  if (k.rows_done > 0) {
    e.inputs.push_back({"time in the kernel", format_seconds(k.seconds)});
    e.inputs.push_back({"speed", format_number(static_cast<float>(gflops(run, k))) + " GFLOP/s (4·T²·d operations)"});
  }
  e.text = naive ? "attention_naive builds every score of the T×T matrix, then softmaxes each row. Here it runs "
                   "in slices of query rows, one slice per frame, so the page stays responsive."
                 : "attention_tiled walks the keys a tile at a time with a running max and sum (the online "
                   "softmax), so it never holds the T×T matrix; its memory does not grow with T².";
  if (!k.reason.empty()) e.text = k.reason;
  return e;
}

void CostExplorerWidget::draw(const UiContext& ui) {
  ImGui::PushID(this);
  kit::Card card(ui, "cost-explorer");
  const float width = card.inner_width();
  draw_figures(ui, width);
  kit::gap(ui, 6);
  draw_plot(ui, width);
  kit::gap(ui, 8);
  draw_run(ui, width);
  const std::string caption = lesson::plain_text(block_.caption);
  if (!caption.empty()) {
    kit::gap(ui, 4);
    kit::wrapped(ui, caption, ui.colors().muted, kit::Face::small);
  }
  card.end();
  explain_.draw_popup(ui);
  ImGui::PopID();
}

void CostExplorerWidget::draw_figures(const UiContext& ui, float width) {
  const Palette& c = ui.colors();
  int t = static_cast<int>(t_);
  ImGui::SetNextItemWidth(std::min(width, ui.px(560)));
  kit::push_field_style(ui);
  const std::string label = "T = " + format_count(static_cast<std::uint64_t>(t_)) + " tokens";
  if (ImGui::SliderInt("##T", &t, static_cast<int>(kMinT), static_cast<int>(kMaxT), label.c_str(),
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    set_t(t);
  kit::pop_field_style();
  if (!block_.lengths.empty()) {
    std::vector<std::string> marks;
    int selected = -1;
    for (std::size_t i = 0; i < block_.lengths.size(); ++i) {
      marks.push_back(format_count(static_cast<std::uint64_t>(block_.lengths[i])));
      if (block_.lengths[i] == t_) selected = static_cast<int>(i);
    }
    const int picked = kit::segmented(ui, "lengths", marks, selected, width);
    if (picked >= 0) set_t(block_.lengths[static_cast<std::size_t>(picked)]);
  }
  kit::gap(ui, 4);
  // Label over number, flowing into as many lines as the width needs.
  ImFont* small = kit::font(ui, kit::Face::small);
  ImFont* bold = kit::font(ui, kit::Face::bold);
  const auto figure = [&](const char* id, const std::string& label_text, const std::string& value) {
    ImGui::BeginGroup();
    ImGui::PushFont(small);
    ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
    ImGui::TextUnformatted(label_text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    NumberStyle style;
    style.bold = true;
    explain_.number(ui, id, value, [this, what = std::string(id + 2)] { return explain_figure(what); }, style);
    ImGui::EndGroup();
  };
  const struct { const char* id; std::string label, value; } items[] = {
      {"##pairs", "pairs per head (T × T)", format_count(figures_.pairs)},
      {"##fp32", "T×T matrix, fp32", format_bytes(figures_.bytes_fp32)},
      {"##fp16", "T×T matrix, fp16", format_bytes(figures_.bytes_fp16)},
      {"##block", std::to_string(block_.heads) + (block_.heads == 1 ? " head, " : " heads, ") +
                      (block_.bytes_per_score == 2 ? "fp16" : "fp32"),
       format_bytes(figures_.bytes_block)},
  };
  kit::Flow flow(width, ui.px(12), ui.px(8));
  const float row_h = small->FontSize + bold->FontSize + ui.px(4);
  for (const auto& item : items) {
    const float w = std::max(kit::text_size(small, item.label).x, kit::text_size(bold, item.value).x);
    const float slot = width < ui.px(480) ? (width - ui.px(12)) / 2.0f : std::max(w, (width - ui.px(36)) / 4.0f);
    flow.place(ImVec2(std::max(slot, w), row_h));
    figure(item.id, item.label, item.value);
  }
  flow.end();
}

void CostExplorerWidget::draw_plot(const UiContext& ui, float width) {
  const Palette& c = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float height = std::clamp(width * 0.42f, ui.px(150), ui.px(240));
  const float left = kit::text_size(small, "100 GiB").x + ui.px(8);
  const float bottom = small->FontSize + ui.px(8);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + left, origin.y + ui.px(6)), p1(origin.x + width - ui.px(6), origin.y + height - bottom);
  // Axes: log10 T from 1 to 5 across, log2 bytes from 2^7 (128 bytes) to 2^38 (256 GiB) up.
  constexpr double y_low = 7, y_high = 38;
  const auto to_screen = [&](double t, double bytes) {
    const double x = (std::log10(t) - 1.0) / 4.0;
    const double y = (std::log2(std::max(bytes, 1.0)) - y_low) / (y_high - y_low);
    return ImVec2(p0.x + static_cast<float>(x) * (p1.x - p0.x),
                  p1.y - static_cast<float>(std::clamp(y, 0.0, 1.0)) * (p1.y - p0.y));
  };
  draw->AddRectFilled(p0, p1, c.page, ui.px(4));
  for (int e = 1; e <= 5; ++e) {  // T gridlines and labels
    const ImVec2 a = to_screen(std::pow(10.0, e), std::pow(2.0, y_low));
    draw->AddLine(ImVec2(a.x, p0.y), ImVec2(a.x, p1.y), c.border, ui.px(1));
    const char* labels[] = {"", "10", "100", "1k", "10k", "100k"};  // short: five fit a phone
    const std::string label = labels[e];
    const float w = kit::text_size(small, label).x;
    draw->AddText(small, small->FontSize, ImVec2(std::clamp(a.x - w * 0.5f, origin.x, p1.x - w), p1.y + ui.px(3)),
                  c.muted, label.c_str());
  }
  for (int b : {10, 20, 30}) {  // 1 KiB, 1 MiB, 1 GiB
    const ImVec2 a = to_screen(10.0, std::pow(2.0, b));
    draw->AddLine(ImVec2(p0.x, a.y), ImVec2(p1.x, a.y), c.border, ui.px(1));
    const std::string label = format_bytes(std::pow(2.0, b));
    const std::string unit = label.substr(label.find(' ') + 1);
    const std::string text = "1 " + unit;
    draw->AddText(small, small->FontSize, ImVec2(origin.x, a.y - small->FontSize * 0.5f), c.muted, text.c_str());
  }
  // The tab's budget for the naive kernel.
  const ImVec2 budget = to_screen(10.0, static_cast<double>(kTabBudget));
  draw->AddLine(ImVec2(p0.x, budget.y), ImVec2(p1.x, budget.y), kit::fade(c.bad, 0.8f), ui.px(1.5f));
  draw->AddText(small, small->FontSize, ImVec2(p0.x + ui.px(4), budget.y - small->FontSize - ui.px(1)), c.bad,
                ("tab budget " + format_bytes(static_cast<double>(kTabBudget))).c_str());
  const auto curve = [&](auto bytes_of, ImU32 color, float thickness) {
    std::vector<ImVec2> points;
    for (const Figures& f : curve_) points.push_back(to_screen(static_cast<double>(f.t), bytes_of(f)));
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, thickness);
  };
  curve([](const Figures& f) { return static_cast<double>(f.naive_bytes); }, c.bad, ui.px(2));
  curve([](const Figures& f) { return f.bytes_fp32; }, c.accent, ui.px(2.5f));
  curve([](const Figures& f) { return f.bytes_fp16; }, kit::fade(c.accent, 0.55f), ui.px(2));
  curve([](const Figures& f) { return static_cast<double>(f.tiled_bytes); }, c.good, ui.px(2.5f));
  for (std::int64_t mark : block_.lengths) {  // the lesson's lengths on the fp32 curve
    const ImVec2 m = to_screen(static_cast<double>(mark), static_cast<double>(mark) * static_cast<double>(mark) * 4.0);
    draw->AddCircle(m, ui.px(4), c.accent, 0, ui.px(1.5f));
  }
  const ImVec2 now = to_screen(static_cast<double>(t_), figures_.bytes_fp32);  // the slider's T
  draw->AddLine(ImVec2(now.x, p0.y), ImVec2(now.x, p1.y), kit::fade(c.text, 0.5f), ui.px(1));
  draw->AddCircleFilled(now, ui.px(5), c.accent);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
  ImGui::Dummy(ImVec2(width, 0));
  // Legend, wrapping on phones.
  kit::Flow flow(width, ui.px(14), ui.px(4));
  const struct { ImU32 color; const char* text; } legend[] = {
      {c.accent, "T×T fp32"}, {kit::fade(c.accent, 0.55f), "T×T fp16"},
      {c.bad, "naive kernel (4 T×T)"}, {c.good, "tiled kernel"}};
  for (const auto& item : legend) {
    const ImVec2 size = kit::text_size(small, item.text);
    const ImVec2 pos = flow.place(ImVec2(size.x + ui.px(18), size.y));
    draw->AddRectFilled(ImVec2(pos.x, pos.y + size.y * 0.4f), ImVec2(pos.x + ui.px(12), pos.y + size.y * 0.6f),
                        item.color);
    draw->AddText(small, small->FontSize, ImVec2(pos.x + ui.px(16), pos.y), c.muted, item.text);
    ImGui::Dummy(ImVec2(size.x + ui.px(18), size.y));
  }
  flow.end();
}

void CostExplorerWidget::draw_kernel_line(const UiContext& ui, const LiveRun& run, KernelRun& k, float width) {
  const Palette& c = ui.colors();
  ImFont* bold = kit::font(ui, kit::Face::bold);
  ImFont* body = kit::font(ui, kit::Face::body);
  ImGui::PushID(k.kernel);
  kit::Flow flow(width, ui.px(10), ui.px(3));
  const std::string name = std::string(k.kernel) == "naive" ? "Naive" : "Tiled";
  flow.place(kit::text_size(bold, name));
  ImGui::PushFont(bold);
  ImGui::TextUnformatted(name.c_str());
  ImGui::PopFont();
  const auto text = [&](const std::string& s, ImU32 color) {
    flow.place(kit::text_size(body, s));
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(s.c_str());
    ImGui::PopStyleColor();
  };
  if (k.status == "running" || (k.status == "waiting" && run.prepared < run.t && running_)) {
    const float done = static_cast<float>(k.rows_done) / static_cast<float>(std::max<std::int64_t>(run.t, 1));
    const float bar = std::min(width, ui.px(200));
    const std::string overlay = k.status == "waiting" ? "preparing inputs"
                                : k.rows_done == 0  ? format_percent(done)
                                                    : format_percent(done) + " · about " + format_seconds(k.eta) + " left";
    const float bar_w = std::min(width, std::max(bar, kit::text_size(body, overlay).x + ui.px(16)));
    flow.place(ImVec2(bar_w, body->FontSize + ui.px(4)));
    kit::push_field_style(ui);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, c.accent);
    ImGui::ProgressBar(done, ImVec2(bar_w, body->FontSize + ui.px(4)), overlay.c_str());
    ImGui::PopStyleColor();
    kit::pop_field_style();
  } else {
    text(k.status == "done" ? "done" : k.status, k.status == "refused" ? c.bad : k.status == "done" ? c.good : c.muted);
  }
  if (k.rows_done > 0) {
    const std::string time = format_seconds(k.seconds);
    flow.place(kit::text_size(body, time));
    explain_.number(ui, "##time", time, [this, &run, &k] { return explain_kernel(run, k); });
  }
  if (k.status != "refused") {
    const std::string memory = "needs " + format_bytes(static_cast<double>(k.bytes));
    flow.place(kit::text_size(body, memory));
    explain_.number(ui, "##memory", memory, [this, &run, &k] { return explain_kernel(run, k); });
  }
  flow.end();
  if (!k.reason.empty()) kit::wrapped(ui, k.reason, c.bad, kit::Face::small);
  ImGui::PopID();
}

void CostExplorerWidget::draw_run(const UiContext& ui, float width) {
  const Palette& c = ui.colors();
  kit::title(ui, "Run both kernels here, in this page");
  kit::wrapped(ui, "Seeded random Q, K, V of " + format_count(static_cast<std::uint64_t>(t_)) + " tokens × d = " +
                       std::to_string(kRunD) + ", no mask. " +
                       (figures_.naive_fits ? "Both kernels can run at this T."
                                            : "The naive kernel will refuse at this T: " +
                                                  format_bytes(static_cast<double>(figures_.naive_bytes)) +
                                                  " is over the tab's budget."),
               c.muted, kit::Face::small);
  ImGui::PushID("run");
  if (!running_) {
    if (kit::button(ui, ("Run at T = " + format_count(static_cast<std::uint64_t>(t_))).c_str(), true)) start_run();
  } else if (kit::button(ui, "Stop")) {
    stop_run();
  }
  ImGui::PopID();
  for (std::size_t i = runs_.size(); i-- > 0;) {  // newest first
    LiveRun& run = runs_[i];
    ImGui::PushID(static_cast<int>(i));
    kit::gap(ui, 4);
    kit::wrapped(ui, "T = " + format_count(static_cast<std::uint64_t>(run.t)), c.text, kit::Face::bold);
    draw_kernel_line(ui, run, run.naive, width);
    draw_kernel_line(ui, run, run.tiled, width);
    if (run.compared && run.naive.status == "done" && run.tiled.status == "done") {
      ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
      ImGui::TextUnformatted("max |naive − tiled| =");
      ImGui::PopStyleColor();
      ImGui::SameLine();
      const std::string diff = format_tiny(run.max_difference);
      explain_.number(ui, "##diff", diff, [&run] {
        Explanation e;
        e.title = "Largest difference between the two outputs: " + format_tiny(run.max_difference);
        e.formula = "max over i, c of |O_naive(i, c) − O_tiled(i, c)|";
        e.inputs.push_back({"entries compared", format_count(static_cast<std::uint64_t>(run.t) * kRunD)});
        e.text = "Same maths, different order of float additions: the online softmax rescales partial sums "
                 "as it goes, so the results agree to float rounding, not bit for bit.";
        return e;
      });
    }
    ImGui::PopID();
  }
}

// [SECTION] State and commands -----------------------------------------------------------------

json CostExplorerWidget::state() const {
  json runs = json::array();
  for (const LiveRun& run : runs_) {
    json r = {{"T", run.t}, {"d", kRunD}, {"tile", run.tile}};
    for (const KernelRun* k : {&run.naive, &run.tiled}) {
      json kj = {{"status", k->status}, {"seconds", k->seconds}, {"bytes", k->bytes},
                 {"rows_done", k->rows_done}, {"gflops", gflops(run, *k)}};
      if (!k->reason.empty()) kj["reason"] = k->reason;
      r[k->kernel] = kj;
    }
    r["max_difference"] = run.compared && run.naive.status == "done" ? json(run.max_difference) : json(nullptr);
    runs.push_back(r);
  }
  std::vector<std::int64_t> lengths(block_.lengths.begin(), block_.lengths.end());
  return {{"kind", "cost-explorer"}, {"T", t_}, {"pairs", figures_.pairs}, {"bytes_fp32", figures_.bytes_fp32},
          {"bytes_fp16", figures_.bytes_fp16}, {"bytes_all_heads", figures_.bytes_block}, {"heads", block_.heads},
          {"bytes_per_score", block_.bytes_per_score}, {"lengths", lengths},
          {"naive_bytes", figures_.naive_bytes}, {"tiled_bytes", figures_.tiled_bytes},
          {"limit_bytes", kTabBudget}, {"naive_allowed", figures_.naive_fits}, {"running", running_},
          {"runs", runs}, {"explained", explain_.state()}};
}

constexpr std::string_view kCommands[] = {"setLength", "run", "stop"};

std::optional<std::string> CostExplorerWidget::command(const json& message) {
  const std::string type = message.value("type", std::string());
  // Anything else gets the base reply ("this widget does not take ..."), so the App tries the
  // next widget.
  if (std::find(std::begin(kCommands), std::end(kCommands), type) == std::end(kCommands))
    return Widget::command(message);
  const auto length = [&]() -> std::optional<std::int64_t> {
    for (const char* key : {"T", "length"})
      if (message.contains(key) && message[key].is_number_integer()) return message[key].get<std::int64_t>();
    return std::nullopt;
  };
  if (type == "setLength" || type == "run") {
    const auto t = length();
    if (type == "setLength" && !t) return std::string("setLength needs an integer \"T\"");
    if (t) {
      if (*t < kMinT || *t > kMaxT) return "\"T\" must be from " + std::to_string(kMinT) + " to " + std::to_string(kMaxT);
      if (running_) return std::string("a run is in progress; stop it first");
      set_t(*t);
    }
    if (type == "run") {
      if (running_) return std::string("a run is in progress");
      start_run();
    }
    return std::nullopt;
  }
  if (type == "stop") {
    if (!running_) return std::string("no run is in progress");
    stop_run();
    return std::nullopt;
  }
  return Widget::command(message);
}

}  // namespace

std::unique_ptr<Widget> make_cost_explorer_widget(const lesson::CostExplorer& block) {
  return std::make_unique<CostExplorerWidget>(block);
}

}  // namespace neuralpath::ui
