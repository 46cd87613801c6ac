// head_cost_view.cpp: draws a const HeadCostModel with Dear ImGui — three sliders (d_model, H, T),
// each with its value printed above it (never under the grab) and − / + buttons for keys and
// fingers, the note when H had to move, the figures (each explains itself when tapped), the
// split of multiplications between projections and scores/blend, and one bar per head count
// that divides d_model (d_head falling) under the flat line of the layer's multiplications.
//
// It counts nothing: every figure is the model's, from engine/core/multi_head_cost.h.
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/head_view/head_view_view.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/head_cost/head_cost_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace neuralpath::ui {

class HeadCostView : public LaidOutView<HeadCostModel> {
 public:
  void draw(const UiContext& ui, const HeadCostModel& model, Asked& asked);
  // layout(): where the last frame drew its controls, [x, y, w, h] in CSS pixels from the canvas's top
  // left (state()'s "layout"): per slider its value's label, track and − / + buttons; the bars.
};

using Model = HeadCostModel;
using Asked = HeadCostView::Asked;

namespace {

std::string count(std::uint64_t n) { return format_count(n); }
std::string count(std::int64_t n) { return format_count(static_cast<std::uint64_t>(n)); }

// T on the slider: 1 .. 100,000 on a log scale, 200 stops (each about 6% apart).
constexpr int kLengthStops = 200;
int length_stop(std::int64_t t) {
  const double x = std::log10(static_cast<double>(std::clamp<std::int64_t>(t, Model::kMinT, Model::kMaxT))) / 5.0;
  return static_cast<int>(std::lround(x * kLengthStops));
}
std::int64_t length_at(int stop) {
  const double t = std::pow(10.0, 5.0 * static_cast<double>(stop) / kLengthStops);
  // Round to two significant digits so the stops land on numbers a learner reads (1,000 not 1,023).
  const double unit = std::pow(10.0, std::max(0.0, std::floor(std::log10(t)) - 1.0));
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::lround(t / unit) * unit), Model::kMinT, Model::kMaxT);
}

// A labelled slider over stops 0..last; returns the stop asked for this frame, or -1.
// The stops are already spaced as the quantity wants (real widths, divisors, log T).
// Where it drew goes in layout[id].
int stepper(const UiContext& ui, nlohmann::json& layout, const char* id, const std::string& label, int stop, int last,
            float width) {
  int asked = -1;
  ImGui::PushID(id);
  // The value is printed above the slider, never inside it: on a phone the grab would cover it.
  const ImVec2 label_at = ImGui::GetCursorScreenPos();
  kit::wrapped(ui, label, 0, kit::Face::bold);
  nlohmann::json& where = layout[id];
  where["label"] = kit::css_rect(
      ui, label_at,
      ImVec2(label_at.x + kit::text_size(kit::font(ui, kit::Face::bold), label).x, ImGui::GetCursorScreenPos().y));
  const float button_w = ui.px(40);
  const float slider_w = std::max(ui.px(80), std::min(width, ui.px(560)) - 2 * (button_w + ui.px(6)));
  kit::push_field_style(ui);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ui.px(8), ui.px(10)));  // a finger-sized track
  ImGui::SetNextItemWidth(slider_w);
  int value = stop;
  if (ImGui::SliderInt("##slider", &value, 0, std::max(last, 0), "", ImGuiSliderFlags_AlwaysClamp) && value != stop)
    asked = value;
  where["track"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  // − and + as tall as the track and button_w wide: sized to their one-character labels they
  // were 37×29 px, under the 32 px a fingertip needs (split-cost.test.mjs measures them).
  const ImVec2 button_size(button_w, std::max(ImGui::GetItemRectSize().y, ui.px(32)));
  where["stop"] = stop;
  where["stops"] = last + 1;
  ImGui::PopStyleVar();
  kit::pop_field_style();
  ImGui::SameLine(0, ui.px(6));
  ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.5f, 0.5f));
  if (kit::button(ui, "\xE2\x88\x92##less", false, button_size) && stop > 0) asked = stop - 1;  // "−"
  where["less"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::SameLine(0, ui.px(6));
  if (kit::button(ui, "+##more", false, button_size) && stop < last) asked = stop + 1;
  where["more"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::PopStyleVar();
  ImGui::PopID();
  kit::gap(ui, 4);
  return asked;
}

void draw_figures(const UiContext& ui, const Model& model, Explainer& explainer, float width) {
  const MultiHeadCost& c = model.cost();
  std::vector<ExplainedFigure> figures;
  const auto add = [&](Model::Figure figure, std::string label, std::string value) {
    figures.push_back({std::string("##") + Model::figure_name(figure), std::move(label), std::move(value),
                       [&model, figure] { return model.explain(figure); }});
  };
  add(Model::Figure::d_head, tr("head-cost.figure_d_head"), count(c.d_head));
  add(Model::Figure::parameters, tr("head-cost.figure_parameters"), count(c.parameters));
  add(Model::Figure::projections, tr("head-cost.figure_projections"), count(c.projection_mults));
  add(Model::Figure::scores, tr("head-cost.figure_scores"), count(c.score_mults + c.mix_mults));
  add(Model::Figure::total, tr("head-cost.figure_total"), count(c.total_mults));
  add(Model::Figure::flops, tr("head-cost.figure_flops"), count(c.flops));
  add(Model::Figure::grids, tr_n("head-cost.figure_grids", static_cast<int>(c.heads), {{"n", count(c.heads)}}),
      count(c.grid_cells));
  draw_figure_flow(ui, explainer, figures, 3, width);
}

void draw_split(const UiContext& ui, const Model& model, float width) {
  // One bar, cut where the projections' share of the multiplications ends.
  const MultiHeadCost& c = model.cost();
  const Palette& p = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float share = static_cast<float>(static_cast<double>(c.projection_mults) / static_cast<double>(c.total_mults));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float h = ui.px(14);
  const ImVec2 end(at.x + width, at.y + h);
  const float cut = at.x + width * share;
  draw->AddRectFilled(at, ImVec2(cut, end.y), p.accent, ui.px(3), ImDrawFlags_RoundCornersLeft);
  draw->AddRectFilled(ImVec2(cut, at.y), end, p.good, ui.px(3), ImDrawFlags_RoundCornersRight);
  ImGui::Dummy(ImVec2(width, h + ui.px(2)));
  kit::Flow flow(width, ui.px(14), ui.px(2));
  const struct {
    ImU32 color;
    std::string text;
  } legend[] = {
      {p.accent, tr("head-cost.share_projections", {{"share", format_percent(share)}})},
      {p.good, tr("head-cost.share_scores", {{"share", format_percent(1.0f - share)}})},
  };
  for (const auto& item : legend) {
    const ImVec2 size = kit::text_size(small, item.text);
    const ImVec2 pos = flow.place(ImVec2(size.x + ui.px(16), size.y));
    draw->AddRectFilled(ImVec2(pos.x, pos.y + size.y * 0.3f), ImVec2(pos.x + ui.px(10), pos.y + size.y * 0.7f),
                        item.color, ui.px(2));
    draw->AddText(small, small->FontSize, ImVec2(pos.x + ui.px(14), pos.y), p.muted, item.text.c_str());
    ImGui::Dummy(ImVec2(size.x + ui.px(16), size.y));
  }
  flow.end();
}

void draw_by_heads(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  const Palette& p = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto& all = model.by_heads();
  const MultiHeadCost& now = model.cost();
  kit::title(ui, tr("head-cost.chart_title", {{"d", count(now.d_model)}}));
  const int n = static_cast<int>(all.size());
  // The flat line's words above the bars, wrapped: on a phone the Spanish "multiplicaciones: …
  // con cualquier número de cabezas" is wider than the card and was cut to "núm…".
  const std::vector<std::string> flat =
      kit::wrap_lines(small, tr("head-cost.chart_flat", {{"total", count(now.total_mults)}}), width);
  const float top_pad = small->FontSize * static_cast<float>(flat.size()) + ui.px(6);
  const float chart_h = ui.px(110), label_h = small->FontSize + ui.px(4);
  const float gap = ui.px(2);
  const float bar_w = std::max(ui.px(4), (width - gap * static_cast<float>(n - 1)) / static_cast<float>(n));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float base = origin.y + top_pad + chart_h;
  // Bars: d_head on a log scale (d_model at the top, 1 at the bottom), so halving is one step down.
  const double top = std::log2(static_cast<double>(now.d_model)) + 1.0;
  // The layer's multiplications at every H, scaled to the largest: a flat line when they are equal.
  std::uint64_t most = 1;
  for (const MultiHeadCost& b : all) most = std::max(most, b.total_mults);
  std::vector<ImVec2> line;
  ImGui::PushID("by-heads");
  for (int i = 0; i < n; ++i) {
    const MultiHeadCost& b = all[static_cast<std::size_t>(i)];
    const bool current = b.heads == now.heads;
    const float x = origin.x + (bar_w + gap) * static_cast<float>(i);
    const float level = static_cast<float>((std::log2(static_cast<double>(b.d_head)) + 1.0) / top);
    const ImVec2 min(x, base - chart_h * level), max(x + bar_w, base);
    draw->AddRectFilled(min, max, current ? HeadViewView::head_color(0) : kit::fade(HeadViewView::head_color(0), 0.35f),
                        ui.px(2));
    ImGui::SetCursorScreenPos(ImVec2(x, origin.y + top_pad));
    ImGui::PushID(i);
    if (ImGui::InvisibleButton("##bar", ImVec2(bar_w, chart_h + label_h)) && !current)
      asked.push_back(Model::SetHeads{b.heads});
    if (ImGui::IsItemHovered() || ImGui::IsItemFocused())
      draw->AddRect(ImVec2(x - ui.px(1), origin.y + top_pad), ImVec2(x + bar_w + ui.px(1), base), p.accent, ui.px(2), 0,
                    ui.px(1.5f));
    ImGui::PopID();
    const float y =
        origin.y + top_pad + chart_h * (1.0f - static_cast<float>(static_cast<double>(b.total_mults) / most)) * 0.9f;
    line.push_back(ImVec2(x + bar_w * 0.5f, y));
    // Head counts under the bars, where they fit; the current one always.
    const std::string label = count(b.heads);
    const float lw = kit::text_size(small, label).x;
    if (lw <= bar_w + gap || current)
      draw->AddText(small, small->FontSize, ImVec2(x + (bar_w - lw) * 0.5f, base + ui.px(2)),
                    current ? p.text : p.muted, label.c_str());
  }
  ImGui::PopID();
  draw->AddPolyline(line.data(), static_cast<int>(line.size()), p.bad, 0, ui.px(2.5f));
  for (std::size_t i = 0; i < flat.size(); ++i)
    draw->AddText(small, small->FontSize, ImVec2(origin.x, origin.y + small->FontSize * static_cast<float>(i)), p.bad,
                  flat[i].c_str());
  layout["flat"] = {
      {"lines", flat},
      {"rect", kit::css_rect(ui, origin,
                             ImVec2(origin.x + width, origin.y + small->FontSize * static_cast<float>(flat.size())))}};
  layout["bars"] = kit::css_rect(ui, ImVec2(origin.x, origin.y + top_pad), ImVec2(origin.x + width, base));
  ImGui::SetCursorScreenPos(ImVec2(origin.x, base + label_h + ui.px(2)));
  ImGui::Dummy(ImVec2(width, 0));
  kit::wrapped(ui,
               tr_n("head-cost.chart_note", static_cast<long long>(now.heads),
                    {{"d_head", count(now.d_head)}, {"heads", count(now.heads)}}),
               p.muted, kit::Face::small);
}

}  // namespace

void HeadCostView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    const MultiHeadCost& c = model.cost();
    const Palette& p = ui.colors();
    // d_model: the widths of real layers.
    const int w = stepper(ui, layout_, "width", tr("head-cost.slider_width", {{"d", count(c.d_model)}}),
                          model.width_index(), static_cast<int>(model.widths().size()) - 1, width);
    if (w >= 0) asked.push_back(Model::SetWidth{model.widths()[static_cast<std::size_t>(w)]});
    // H: only the counts that divide d_model, so every stop is a valid layer.
    const int h = stepper(
        ui, layout_, "heads",
        tr_n("head-cost.slider_heads", static_cast<int>(c.heads), {{"n", count(c.heads)}, {"d_head", count(c.d_head)}}),
        model.heads_index(), static_cast<int>(model.by_heads().size()) - 1, width);
    if (h >= 0) asked.push_back(Model::SetHeads{model.by_heads()[static_cast<std::size_t>(h)].heads});
    // T: logarithmic stops.
    const int t = stepper(ui, layout_, "length", tr("head-cost.slider_length", {{"T", count(c.t)}}), length_stop(c.t),
                          kLengthStops, width);
    if (t >= 0) {
      std::int64_t next = length_at(t);
      // − / + must always move, even where two stops round to the same number.
      if (next == c.t) next = t > length_stop(c.t) ? std::min(c.t + 1, Model::kMaxT) : std::max(c.t - 1, Model::kMinT);
      asked.push_back(Model::SetLength{next});
    }
    if (!model.note().empty()) kit::wrapped(ui, model.note(), p.bad, kit::Face::small);
    kit::gap(ui, 6);
    draw_figures(ui, model, explain_, width);
    kit::gap(ui, 6);
    draw_split(ui, model, width);
    kit::gap(ui, 8);
    draw_by_heads(ui, model, layout_, width, asked);
  });
}

const ViewKind& head_cost_view_kind() { return view_kind<HeadCostModel, HeadCostView>(); }

}  // namespace neuralpath::ui
