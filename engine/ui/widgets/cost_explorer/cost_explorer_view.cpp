// cost_explorer_view.cpp: draws a const CostExplorerModel with Dear ImGui — the T slider and the
// lesson's lengths, four figures, the growth plot (log T across, log bytes up), and the runs
// with a progress bar while the engine's race goes on. Clicks come back as the model's
// commands; the open explanation is the view's own.
//
// It runs no kernel and computes no cost: the figures, the plot's points and the races are the
// model's (engine/core/kernel_race.h).
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/cost_explorer/cost_explorer_model.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace neuralpath::ui {

class CostExplorerView : public WidgetView<CostExplorerModel> {
 public:
  void draw(const UiContext& ui, const CostExplorerModel& model, Asked& asked);
};

using Model = CostExplorerModel;
using Asked = CostExplorerView::Asked;

namespace {

void draw_figures(const UiContext& ui, const Model& model, Explainer& explainer, float width, Asked& asked) {
  const Model::Figures& figures = model.figures();
  const CostExplorerSettings& settings = model.settings();
  int t = static_cast<int>(model.t());
  const std::string label = tr("cost-explorer.slider", {{"T", format_count(static_cast<std::uint64_t>(model.t()))}});
  // The value above the slider, not inside it: on a phone the grab covered its digits (#15).
  kit::wrapped(ui, label, 0, kit::Face::bold);
  ImGui::SetNextItemWidth(std::min(width, ui.px(560)));
  kit::push_field_style(ui);
  if (ImGui::SliderInt("##T", &t, static_cast<int>(Model::kMinT), static_cast<int>(Model::kMaxT), "",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    asked.push_back(Model::SetLength{t});
  kit::pop_field_style();
  if (!settings.lengths.empty()) {
    std::vector<std::string> marks;
    int selected = -1;
    for (std::size_t i = 0; i < settings.lengths.size(); ++i) {
      marks.push_back(format_count(static_cast<std::uint64_t>(settings.lengths[i])));
      if (settings.lengths[i] == model.t()) selected = static_cast<int>(i);
    }
    const int picked = kit::segmented(ui, "lengths", marks, selected, width);
    if (picked >= 0) asked.push_back(Model::SetLength{settings.lengths[static_cast<std::size_t>(picked)]});
  }
  kit::gap(ui, 4);
  // Label over number, flowing into as many lines as the width needs.
  const auto explain = [&model](const char* what) { return [&model, what] { return model.explain_figure(what); }; };
  draw_figure_flow(
      ui, explainer,
      {{"##pairs", tr("cost-explorer.figure_pairs"), format_count(figures.pairs), explain("pairs")},
       {"##fp32", tr("cost-explorer.figure_fp32"), format_bytes(figures.bytes_fp32), explain("fp32")},
       {"##fp16", tr("cost-explorer.figure_fp16"), format_bytes(figures.bytes_fp16), explain("fp16")},
       {"##block",
        tr_n("cost-explorer.figure_heads", settings.heads,
             {{"n", std::to_string(settings.heads)}, {"format", settings.bytes_per_score == 2 ? "fp16" : "fp32"}}),
        format_bytes(figures.bytes_all_heads), explain("block")}},
      4, width);
}

void draw_plot(const UiContext& ui, const Model& model, float width) {
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
  for (int b : {10, 20, 30}) {  // 1 KiB, 1 MiB, 1 GiB: "1" in format_bytes' own unit words
    const ImVec2 a = to_screen(10.0, std::pow(2.0, b));
    draw->AddLine(ImVec2(p0.x, a.y), ImVec2(p1.x, a.y), c.border, ui.px(1));
    const std::string text = tr(b == 10 ? "format.kib" : b == 20 ? "format.mib" : "format.gib", {{"n", "1"}});
    draw->AddText(small, small->FontSize, ImVec2(origin.x, a.y - small->FontSize * 0.5f), c.muted, text.c_str());
  }
  // The tab's budget for the naive kernel.
  const ImVec2 budget = to_screen(10.0, static_cast<double>(Model::kTabBudget));
  draw->AddLine(ImVec2(p0.x, budget.y), ImVec2(p1.x, budget.y), kit::fade(c.bad, 0.8f), ui.px(1.5f));
  const auto curve = [&](auto bytes_of, ImU32 color, float thickness) {
    std::vector<ImVec2> points;
    for (const Model::Figures& f : model.curve()) points.push_back(to_screen(static_cast<double>(f.t), bytes_of(f)));
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, thickness);
  };
  curve([](const Model::Figures& f) { return static_cast<double>(f.naive_bytes); }, c.bad, ui.px(2));
  curve([](const Model::Figures& f) { return f.bytes_fp32; }, c.accent, ui.px(2.5f));
  curve([](const Model::Figures& f) { return f.bytes_fp16; }, kit::fade(c.accent, 0.55f), ui.px(2));
  curve([](const Model::Figures& f) { return static_cast<double>(f.tiled_bytes); }, c.good, ui.px(2.5f));
  for (std::int64_t mark : model.settings().lengths) {  // the lesson's lengths on the fp32 curve
    const ImVec2 m = to_screen(static_cast<double>(mark), static_cast<double>(mark) * static_cast<double>(mark) * 4.0);
    draw->AddCircle(m, ui.px(4), c.accent, 0, ui.px(1.5f));
  }
  const ImVec2 now = to_screen(static_cast<double>(model.t()), model.figures().bytes_fp32);  // the slider's T
  draw->AddLine(ImVec2(now.x, p0.y), ImVec2(now.x, p1.y), kit::fade(c.text, 0.5f), ui.px(1));
  draw->AddCircleFilled(now, ui.px(5), c.accent);
  // The budget's words over the curves, on the plot's own colour (#34: the curves crossed them).
  const std::string budget_text =
      tr("cost-explorer.plot_budget", {{"bytes", format_bytes(static_cast<double>(Model::kTabBudget))}});
  const ImVec2 budget_at(p0.x + ui.px(4), budget.y - small->FontSize - ui.px(1));
  const ImVec2 budget_size = kit::text_size(small, budget_text);
  draw->AddRectFilled(ImVec2(budget_at.x - ui.px(2), budget_at.y),
                      ImVec2(budget_at.x + budget_size.x + ui.px(2), budget.y - ui.px(1)), kit::fade(c.page, 0.9f),
                      ui.px(2));
  draw->AddText(small, small->FontSize, budget_at, c.bad, budget_text.c_str());
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
  ImGui::Dummy(ImVec2(width, 0));
  // Legend, wrapping on phones.
  kit::Flow flow(width, ui.px(14), ui.px(4));
  const struct {
    ImU32 color;
    std::string text;
  } legend[] = {{c.accent, tr("cost-explorer.legend_fp32")},
                {kit::fade(c.accent, 0.55f), tr("cost-explorer.legend_fp16")},
                {c.bad, tr("cost-explorer.legend_naive")},
                {c.good, tr("cost-explorer.legend_tiled")}};
  for (const auto& item : legend) {
    const ImVec2 size = kit::text_size(small, item.text);
    const ImVec2 pos = flow.place(ImVec2(size.x + ui.px(18), size.y));
    draw->AddRectFilled(ImVec2(pos.x, pos.y + size.y * 0.4f), ImVec2(pos.x + ui.px(12), pos.y + size.y * 0.6f),
                        item.color);
    draw->AddText(small, small->FontSize, ImVec2(pos.x + ui.px(16), pos.y), c.muted, item.text.c_str());
    ImGui::Dummy(ImVec2(size.x + ui.px(18), size.y));
  }
  flow.end();
}

void draw_kernel_line(const UiContext& ui, const Model& model, Explainer& explainer, const Model::LiveRun& run,
                      bool naive, float width) {
  const KernelRace& race = run.race;
  const KernelRun& k = naive ? race.naive() : race.tiled();
  const Palette& c = ui.colors();
  ImFont* bold = kit::font(ui, kit::Face::bold);
  ImFont* body = kit::font(ui, kit::Face::body);
  ImGui::PushID(naive ? "naive" : "tiled");
  kit::Flow flow(width, ui.px(10), ui.px(3));
  const std::string name = tr(naive ? "cost-explorer.naive" : "cost-explorer.tiled");
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
  const bool preparing = k.status == KernelStatus::waiting && race.prepared() < race.t() && !race.finished();
  if (k.status == KernelStatus::running || preparing) {
    const float done = static_cast<float>(k.rows_done) / static_cast<float>(std::max<std::int64_t>(race.t(), 1));
    const float bar = std::min(width, ui.px(200));
    const std::string overlay =
        k.status == KernelStatus::waiting ? tr("cost-explorer.preparing")
        : k.rows_done == 0                ? format_percent(done)
                                          : tr("cost-explorer.progress", {{"done", format_percent(done)},
                                                                          {"left", format_seconds(model.time_left(run, naive))}});
    const float bar_w = std::min(width, std::max(bar, kit::text_size(body, overlay).x + ui.px(16)));
    flow.place(ImVec2(bar_w, body->FontSize + ui.px(4)));
    kit::push_field_style(ui);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, c.accent);
    ImGui::ProgressBar(done, ImVec2(bar_w, body->FontSize + ui.px(4)), overlay.c_str());
    ImGui::PopStyleColor();
    kit::pop_field_style();
  } else {
    text(tr(std::string("cost-explorer.status.") + kernel_status_name(k.status)),
         k.status == KernelStatus::refused ? c.bad
         : k.status == KernelStatus::done  ? c.good
                                           : c.muted);
  }
  if (k.rows_done > 0) {
    const std::string time = format_seconds(k.seconds);
    flow.place(kit::text_size(body, time));
    explainer.number(ui, "##time", time, [&model, &run, naive] { return model.explain_kernel(run, naive); });
  }
  if (k.status != KernelStatus::refused) {
    const std::string memory =
        tr("cost-explorer.needs",
           {{"bytes", format_bytes(static_cast<double>(naive ? run.naive_bytes : run.tiled_bytes))}});
    flow.place(kit::text_size(body, memory));
    explainer.number(ui, "##memory", memory, [&model, &run, naive] { return model.explain_kernel(run, naive); });
  }
  flow.end();
  if (naive && k.status == KernelStatus::refused) kit::wrapped(ui, model.refusal(run), c.bad, kit::Face::small);
  ImGui::PopID();
}

void draw_run(const UiContext& ui, const Model& model, Explainer& explainer, float width, Asked& asked) {
  const Palette& c = ui.colors();
  const Model::Figures& figures = model.figures();
  const std::string t = format_count(static_cast<std::uint64_t>(model.t()));
  kit::title(ui, tr("cost-explorer.run_title"));
  kit::wrapped(
      ui,
      tr("cost-explorer.run_note",
         {{"T", t},
          {"d", std::to_string(Model::kRunD)},
          {"verdict", figures.naive_fits ? tr("cost-explorer.both_run")
                                         : tr("cost-explorer.naive_will_refuse",
                                              {{"bytes", format_bytes(static_cast<double>(figures.naive_bytes))}})}}),
      c.muted, kit::Face::small);
  ImGui::PushID("run");
  if (!model.running()) {
    if (kit::button(ui, tr("cost-explorer.run", {{"T", t}}).c_str(), true)) asked.push_back(Model::Run{});
  } else if (kit::button(ui, tr("cost-explorer.stop").c_str())) {
    asked.push_back(Stop{});
  }
  ImGui::PopID();
  const auto& runs = model.runs();
  for (std::size_t i = runs.size(); i-- > 0;) {  // newest first
    const Model::LiveRun& run = runs[i];
    ImGui::PushID(static_cast<int>(i));
    kit::gap(ui, 4);
    kit::wrapped(ui, "T = " + format_count(static_cast<std::uint64_t>(run.race.t())), c.text, kit::Face::bold);
    draw_kernel_line(ui, model, explainer, run, true, width);
    draw_kernel_line(ui, model, explainer, run, false, width);
    if (run.race.compared() && run.race.naive().status == KernelStatus::done) {
      ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
      ImGui::TextUnformatted(tr("cost-explorer.difference").c_str());
      ImGui::PopStyleColor();
      ImGui::SameLine();
      const std::string diff = format_tiny(run.race.max_difference());
      explainer.number(ui, "##diff", diff, [&model, &run] { return model.explain_difference(run); });
    }
    ImGui::PopID();
  }
}

}  // namespace

void CostExplorerView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_figures(ui, model, explain_, width, asked);
    kit::gap(ui, 6);
    draw_plot(ui, model, width);
    kit::gap(ui, 8);
    draw_run(ui, model, explain_, width, asked);
  });
}

const ViewKind& cost_explorer_view_kind() { return view_kind<CostExplorerModel, CostExplorerView>(); }

}  // namespace neuralpath::ui
