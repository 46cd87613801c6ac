// cost_explorer_model.cpp: the cost explorer's figures, live races, commands, state and
// explanations (cost_explorer_model.h).
#include "engine/widgets/cost_explorer/cost_explorer_model.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

constexpr std::uint64_t kRunSeed = 7;
constexpr int kPlotPoints = 48;
constexpr std::size_t kKeptRuns = 4;

CostExplorerModel::Figures figures_at(std::int64_t t, const CostExplorerSettings& s) {
  CostExplorerModel::Figures f;
  static_cast<AttentionCost&>(f) = attention_cost(t, s.heads, s.bytes_per_score, CostExplorerModel::kRunD, s.tile);
  f.naive_fits = f.naive_bytes <= CostExplorerModel::kTabBudget;
  return f;
}

std::string count(std::int64_t n) { return format_count(static_cast<std::uint64_t>(n)); }

}  // namespace

// [SECTION] Figures and races ------------------------------------------------------------------

CostExplorerModel::CostExplorerModel(const CostExplorerSettings& settings, const lesson::Inline& caption)
    : WidgetModelBase(settings, caption) {
  for (int i = 0; i < kPlotPoints; ++i) {
    const double e = 1.0 + 4.0 * i / (kPlotPoints - 1);  // log10 T from 1 to 5
    curve_.push_back(figures_at(static_cast<std::int64_t>(std::llround(std::pow(10.0, e))), settings_));
  }
  set_t(settings.lengths.empty() ? 1024 : settings.lengths.front());
}

void CostExplorerModel::set_t(std::int64_t t) {
  t_ = std::clamp(t, kMinT, kMaxT);
  figures_ = figures_at(t_, settings_);
}

void CostExplorerModel::update(float dt) {
  if (!running_) return;
  LiveRun& run = runs_.back();
  const bool finished = run.race.step(kFrameBudget);
  run.elapsed += std::max(0.0f, dt);
  const bool naive = run.race.naive().status == KernelStatus::running;
  const KernelRun& k = naive ? run.race.naive() : run.race.tiled();
  if (k.status == KernelStatus::running) {
    if (naive != run.pace_naive) run.pace.clear();  // the tiled kernel took over
    run.pace_naive = naive;
    run.pace.emplace_back(run.elapsed, k.rows_done);
    while (run.pace.size() > 2 && run.pace.front().first < run.elapsed - kPaceSeconds) run.pace.pop_front();
  }
  if (!finished) return;
  running_ = false;
  if (run.reported) return;
  run.reported = true;
  const KernelRace& race = run.race;
  json event = {{"type", "costRun"}, {"T", race.t()}};
  event["naive"] = {{"status", kernel_status_name(race.naive().status)},
                    {"seconds", race.naive().seconds},
                    {"bytes", run.naive_bytes}};
  event["tiled"] = {{"status", kernel_status_name(race.tiled().status)},
                    {"seconds", race.tiled().seconds},
                    {"bytes", run.tiled_bytes}};
  if (race.naive().status == KernelStatus::done) event["max_difference"] = race.max_difference();
  events_.push_back(event);
}

double CostExplorerModel::time_left(const LiveRun& run, bool naive) const {
  const KernelRun& k = naive ? run.race.naive() : run.race.tiled();
  if (run.pace_naive != naive || run.pace.size() < 2) return k.eta;
  const auto& [t0, rows0] = run.pace.front();
  const auto& [t1, rows1] = run.pace.back();
  if (t1 - t0 < 0.5 || rows1 <= rows0) return k.eta;  // too little seen yet to tell a pace
  const double rows_per_second = static_cast<double>(rows1 - rows0) / (t1 - t0);
  return static_cast<double>(run.race.t() - k.rows_done) / rows_per_second;
}

std::string CostExplorerModel::refusal(const LiveRun& run) const {
  if (run.race.naive().status != KernelStatus::refused) return {};
  return tr("cost-explorer.refused", {{"T", count(run.race.t())},
                                      {"bytes", format_bytes(static_cast<double>(run.naive_bytes))},
                                      {"budget", format_bytes(static_cast<double>(kTabBudget))}});
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<CostExplorerModel::Command, CommandResult> CostExplorerModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  std::optional<std::int64_t> t;
  for (const char* key : {"T", "length"})
    if (!t && message.contains(key) && message[key].is_number_integer()) t = message[key].get<std::int64_t>();
  if (type == "setLength") {
    if (!t) return CommandResult(tr("cost-explorer.needs_length"));
    return Command(SetLength{*t});
  }
  if (type == "run") return Command(Run{t});
  if (type == "stop") return Command(Stop{});
  return CommandResult::not_taken(type);
}

CommandResult CostExplorerModel::apply(const Command& command) {
  const auto range = [] {
    return tr("cost-explorer.length_range", {{"min", std::to_string(kMinT)}, {"max", std::to_string(kMaxT)}});
  };
  if (const auto* c = std::get_if<SetLength>(&command)) {
    if (c->t < kMinT || c->t > kMaxT) return range();
    if (running_) return tr("cost-explorer.stop_first");
    set_t(c->t);
    return {};
  }
  if (const auto* c = std::get_if<Run>(&command)) {
    if (c->t && (*c->t < kMinT || *c->t > kMaxT)) return range();
    if (running_) return tr(c->t ? "cost-explorer.stop_first" : "cost-explorer.in_progress");
    if (c->t) set_t(*c->t);
    if (runs_.size() >= kKeptRuns) runs_.erase(runs_.begin());
    runs_.push_back({KernelRace(t_, kRunD, std::max(settings_.tile, 1), kRunSeed, figures_.naive_fits),
                     figures_.naive_bytes,
                     figures_.tiled_bytes,
                     false,
                     0.0,
                     true,
                     {}});
    running_ = true;
    return {};
  }
  if (!running_) return tr("cost-explorer.not_running");
  runs_.back().race.stop();
  running_ = false;
  return {};
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation CostExplorerModel::explain_figure(const std::string& what) const {
  const Figures& f = figures_;
  const std::string t = count(f.t);
  Explanation e;
  e.inputs.push_back({tr("cost-explorer.input_t"), t});
  if (what == "pairs") {
    e.title = tr("cost-explorer.pairs_title", {{"pairs", format_count(f.pairs)}});
    e.formula = "pairs = T × T";
    e.text = tr("cost-explorer.pairs_text", {{"T", t}});
  } else if (what == "fp32" || what == "fp16") {
    const bool fp32 = what == "fp32";
    e.title = tr("cost-explorer.matrix_title",
                 {{"format", what}, {"bytes", format_bytes(fp32 ? f.bytes_fp32 : f.bytes_fp16)}});
    e.formula = std::string("bytes = T × T × ") + (fp32 ? "4" : "2");
    e.inputs.push_back({tr("cost-explorer.input_pairs"), format_count(f.pairs)});
    e.text = tr(fp32 ? "cost-explorer.matrix_text_fp32" : "cost-explorer.matrix_text_fp16");
  } else {
    e.title = tr("cost-explorer.heads_title", {{"heads", std::to_string(settings_.heads)},
                                               {"bytes_per_score", std::to_string(settings_.bytes_per_score)},
                                               {"bytes", format_bytes(f.bytes_all_heads)}});
    e.formula = tr("cost-explorer.heads_formula");
    e.inputs.push_back({tr("cost-explorer.input_heads"), std::to_string(settings_.heads)});
    e.inputs.push_back({tr("cost-explorer.input_bytes_per_score"), std::to_string(settings_.bytes_per_score)});
    e.text = tr("cost-explorer.heads_text");
  }
  return e;
}

Explanation CostExplorerModel::explain_kernel(const LiveRun& run, bool naive) const {
  const KernelRun& k = naive ? run.race.naive() : run.race.tiled();
  Explanation e;
  e.title = tr(naive ? "cost-explorer.naive_title" : "cost-explorer.tiled_title", {{"T", count(run.race.t())}});
  e.formula = tr(naive ? "cost-explorer.naive_formula" : "cost-explorer.tiled_formula");
  e.inputs.push_back({"T", count(run.race.t())});
  e.inputs.push_back({"d", std::to_string(kRunD)});
  if (!naive) e.inputs.push_back({"tile", std::to_string(run.race.tile())});
  e.inputs.push_back(
      {tr("cost-explorer.input_memory"), format_bytes(static_cast<double>(naive ? run.naive_bytes : run.tiled_bytes))});
  if (k.rows_done > 0) {
    e.inputs.push_back({tr("cost-explorer.input_time"), format_seconds(k.seconds)});
    e.inputs.push_back(
        {tr("cost-explorer.input_speed"),
         tr("cost-explorer.gflops", {{"value", format_number(static_cast<float>(run.race.gflops(k)))}})});
  }
  e.text = naive && k.status == KernelStatus::refused
               ? refusal(run)
               : tr(naive ? "cost-explorer.naive_text" : "cost-explorer.tiled_text");
  return e;
}

Explanation CostExplorerModel::explain_difference(const LiveRun& run) const {
  Explanation e;
  e.title = tr("cost-explorer.difference_title", {{"value", format_tiny(run.race.max_difference())}});
  e.formula = tr("cost-explorer.difference_formula");
  e.inputs.push_back(
      {tr("cost-explorer.input_compared"), format_count(static_cast<std::uint64_t>(run.race.t()) * kRunD)});
  e.text = tr("cost-explorer.difference_text");
  return e;
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json CostExplorerModel::state() const {
  json runs = json::array();
  for (const LiveRun& run : runs_) {
    const KernelRace& race = run.race;
    json r = {{"T", race.t()}, {"d", kRunD}, {"tile", race.tile()}};
    for (const bool naive : {true, false}) {
      const KernelRun& k = naive ? race.naive() : race.tiled();
      json kj = {{"status", kernel_status_name(k.status)},
                 {"seconds", k.seconds},
                 {"bytes", naive ? run.naive_bytes : run.tiled_bytes},
                 {"rows_done", k.rows_done},
                 {"gflops", race.gflops(k)}};
      if (naive && k.status == KernelStatus::refused) kj["reason"] = refusal(run);
      r[naive ? "naive" : "tiled"] = kj;
    }
    r["max_difference"] =
        race.compared() && race.naive().status == KernelStatus::done ? json(race.max_difference()) : json(nullptr);
    runs.push_back(r);
  }
  std::vector<std::int64_t> lengths(settings_.lengths.begin(), settings_.lengths.end());
  return {{"kind", kKind},
          {"T", t_},
          {"pairs", figures_.pairs},
          {"bytes_fp32", figures_.bytes_fp32},
          {"bytes_fp16", figures_.bytes_fp16},
          {"bytes_all_heads", figures_.bytes_all_heads},
          {"heads", settings_.heads},
          {"bytes_per_score", settings_.bytes_per_score},
          {"lengths", lengths},
          {"naive_bytes", figures_.naive_bytes},
          {"tiled_bytes", figures_.tiled_bytes},
          {"limit_bytes", kTabBudget},
          {"naive_allowed", figures_.naive_fits},
          {"running", running_},
          {"runs", runs},
          {"summary", summary()}};
}

json CostExplorerModel::snapshot() const { return {{"T", t_}}; }

CommandResult CostExplorerModel::restore(const json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("T") || !snapshot["T"].is_number_integer())
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  return apply(SetLength{snapshot["T"].get<std::int64_t>()});
}

std::string CostExplorerModel::summary() const {
  const Figures& f = figures_;
  const double score = settings_.bytes_per_score == 4 ? f.bytes_fp32 : f.bytes_fp16;
  const std::string heads =
      settings_.heads > 1 ? tr("cost-explorer.summary_heads",
                               {{"all", format_bytes(f.bytes_all_heads)}, {"heads", std::to_string(settings_.heads)}})
                          : std::string();
  return tr("cost-explorer.summary", {{"T", count(t_)},
                                      {"pairs", format_count(f.pairs)},
                                      {"bytes", format_bytes(score)},
                                      {"heads", heads},
                                      {"tiled", format_bytes(static_cast<double>(f.tiled_bytes))}});
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void CostExplorerModel::describe(const CostExplorerSettings& c, json& out) {
  out["lengths"] = c.lengths;
  out["heads"] = c.heads;
  out["bytes_per_score"] = c.bytes_per_score;
  out["tile"] = c.tile;
  json items = json::array();
  for (std::int64_t t : c.lengths)
    items.push_back(choice(tr("widgets.length", {{"T", format_count(static_cast<std::uint64_t>(t))}}),
                           {{"type", "setLength"}, {"T", t}}, {{"T", t}}));
  if (!c.lengths.empty()) out["choices"] = choices(tr("widgets.lengths"), std::move(items));
}

const WidgetKind& cost_explorer_widget_kind() { return folder_widget_kind<CostExplorerModel>(); }

}  // namespace neuralpath::widgets
