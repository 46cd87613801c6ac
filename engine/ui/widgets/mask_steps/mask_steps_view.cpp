// mask_steps_view.cpp: draws a const MaskStepsModel with Dear ImGui — the stage and head
// choices with Back/Next under them, the stage's grid, its narration, and the three mistakes (a grid of
// rows that no longer sum to 1, the d_k slider with two bar charts, the transpose's shapes and
// error). Clicks come back as the model's commands; the hovered cell and the open
// explanation are the view's own.
//
// Every number is the model's: the trace's stages and engine/core/mistakes.h's results.
#include "engine/trace/narration.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/grid.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/mask_steps/mask_steps_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace neuralpath::ui {

class MaskStepsView : public WidgetView<MaskStepsModel> {
 public:
  void draw(const UiContext& ui, const MaskStepsModel& model, Asked& asked);
  // Where the last frame drew Next, [x, y, w, h] in CSS px (null on the last stage): state()'s "layout".
  nlohmann::json layout() const { return {{"next", nav_next_}}; }

 private:
  void draw_stages(const UiContext& ui, const MaskStepsModel& model, float width, Asked& asked);
  void draw_after_softmax(const UiContext& ui, const MaskStepsModel& model, float width);
  void draw_no_scale(const UiContext& ui, const MaskStepsModel& model, float width, Asked& asked);
  void draw_transpose(const UiContext& ui, const MaskStepsModel& model);
  void draw_bars(const UiContext& ui, const MaskStepsModel& model, const char* id, const Vector& weights, float width,
                 bool scaled);

  std::optional<Cell> hovered_;
  kit::KeptHeight said_;  // the stage's sentence, or the hovered cell's
  nlohmann::json nav_next_;
};

void MaskStepsView::draw(const UiContext& ui, const MaskStepsModel& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_stages(ui, model, width, asked);
    kit::gap(ui, 10);
    kit::rule(ui, width);
    kit::gap(ui, 4);
    kit::title(ui, tr("mask-steps.mistakes_title"));
    const int picked = kit::segmented(
        ui, "mistake",
        {tr("mask-steps.mistake.after_softmax"), tr("mask-steps.mistake.no_scale"), tr("mask-steps.mistake.transpose")},
        static_cast<int>(model.mistake()), width);
    if (picked >= 0) asked.push_back(MaskStepsModel::SetMistake{static_cast<Mistake>(picked), std::nullopt});
    kit::gap(ui, 4);
    switch (model.mistake()) {
      case Mistake::after_softmax: draw_after_softmax(ui, model, width); break;
      case Mistake::no_scale: draw_no_scale(ui, model, width, asked); break;
      case Mistake::transpose: draw_transpose(ui, model); break;
    }
  });
}

// [SECTION] The four stages --------------------------------------------------------------------

void MaskStepsView::draw_stages(const UiContext& ui, const MaskStepsModel& model, float width, Asked& asked) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < model.stages().size(); ++i)
    labels.push_back(tr("mask-steps.stage_button",
                        {{"n", std::to_string(i + 1)},
                         {"name", tr(std::string("mask-steps.stage_short.") + kMaskStages.name(model.stages()[i]))}}));
  const int picked = kit::segmented(ui, "stage", labels, model.stage_index(), width);
  if (picked >= 0) asked.push_back(MaskStepsModel::SetStage{picked, std::nullopt});
  // Back and Next right under the stage buttons, the same rows at every stage: the formula and
  // the sentences below change height from stage to stage, and Next drawn after them moved
  // about 30 px under a phone learner's finger (#34).
  kit::gap(ui, 2);
  ImGui::PushID("nav");
  const kit::StepNav nav =
      kit::step_nav(ui, tr("mask-steps.back").c_str(), tr("mask-steps.next").c_str(), model.stage_index() > 0,
                    model.stage_index() + 1 < static_cast<int>(model.stages().size()));
  if (nav.move != 0) asked.push_back(MaskStepsModel::SetStage{model.stage_index() + nav.move, std::nullopt});
  if (nav.next.shown)
    nav_next_ = {nav.next.min.x / ui.scale, nav.next.min.y / ui.scale, (nav.next.max.x - nav.next.min.x) / ui.scale,
                 (nav.next.max.y - nav.next.min.y) / ui.scale};
  else
    nav_next_ = nullptr;
  ImGui::NewLine();
  ImGui::PopID();
  kit::gap(ui, 2);
  if (const int head = pick_head(ui, t.heads, model.head(), width); head >= 0) asked.push_back(SetHead{head});
  const Step* step = model.stage_step();
  if (!step) return;
  const MaskStage stage = model.stage();
  kit::wrapped(ui, model.stage_formula(), c.accent, kit::Face::mono);
  kit::gap(ui, 2);

  // Colours: the weights on their own 0..1 scale; scores on the stage's finite range.
  const Matrix& m = step->result.values;
  const auto [low, high] = model.stage_range();
  GridSpec grid = token_grid("stage-grid", t, model.selected());
  grid.cell = [&, low = low, high = high](int r, int k) {
    GridCell cell;
    const float v = m(r, k);
    const bool hidden = stage >= MaskStage::Masked && t.mask.hides(r, k);
    cell.blocked = hidden;
    cell.text = format_number(v);
    cell.fallback = hidden ? "⊘" : "";
    const float level = stage == MaskStage::Softmax ? v : high > low ? (v - low) / (high - low) : 0.5f;
    cell.fill = heat_color(ui.theme, level);
    return cell;
  };
  if (stage == MaskStage::Softmax) {
    const Vector sums = m.rowwise().sum();  // the trace's weights, summed for the row-end column
    std::vector<std::string> printed;
    for (Index r = 0; r < sums.size(); ++r) printed.push_back(format_number(sums[r]));
    add_row_sums(grid, std::move(printed), c.good, [&model](int r) { return model.explain_stage_row_sum(r); });
  }
  const GridResult result = draw_grid(ui, grid, width, explain_);
  hovered_ = result.hovered;
  if (result.picked) {
    asked.push_back(SelectCell{*result.picked});
    explain_.open(model.explain_stage_cell(*result.picked));
  }
  const std::optional<Cell> shown = hovered_ ? hovered_ : model.selected();
  kit::gap(ui, 4);
  said_.begin(width);  // the mistakes below keep their place as the pointer crosses the grid
  kit::wrapped(ui, shown ? narrate(t, *step, *shown) : step->narration, c.text, kit::Face::small);
  said_.end();
}

// [SECTION] The mistakes -----------------------------------------------------------------------

void MaskStepsView::draw_after_softmax(const UiContext& ui, const MaskStepsModel& model, float width) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  const MaskAfterSoftmax& after = model.after_softmax();
  kit::wrapped(ui, tr("mask-steps.after_softmax_wrong"), c.bad, kit::Face::mono);
  GridSpec grid;
  grid.id = "after-softmax";
  grid.rows = grid.cols = t.labels;
  grid.corner = tr("widgets.grid_corner");
  const Mask causal = Mask::causal_mask();
  grid.cell = [&](int r, int k) {
    GridCell cell;
    cell.blocked = causal.hides(r, k);
    cell.text = format_number(after.weights(r, k));
    cell.fallback = cell.blocked ? "⊘" : "";
    cell.fill = heat_color(ui.theme, after.weights(r, k));
    return cell;
  };
  grid.row_end_title = tr("widgets.row_sum");
  for (Index r = 0; r < after.row_sums.size(); ++r) {
    grid.row_end.push_back(format_number(after.row_sums[r]));
    grid.row_end_color.push_back(model.row_sum_whole(r) ? c.good : c.bad);
  }
  grid.explain_row_end = [&model](int r) { return model.explain_after_softmax_row(r); };
  draw_grid(ui, grid, width, explain_);
  kit::wrapped(ui, tr("mask-steps.after_softmax_fix"), c.muted, kit::Face::small);
}

void MaskStepsView::draw_bars(const UiContext& ui, const MaskStepsModel& model, const char* id, const Vector& weights,
                              float width, bool scaled) {
  const Palette& c = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int n = static_cast<int>(weights.size());
  const float gap = ui.px(3);
  const float bar_w = std::max(ui.px(6), (width - gap * static_cast<float>(n - 1)) / static_cast<float>(n));
  const float bar_h = ui.px(64);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::PushID(id);
  for (int j = 0; j < n; ++j) {
    const float w = weights[j];
    const ImVec2 min(origin.x + (bar_w + gap) * static_cast<float>(j), origin.y);
    const ImVec2 max(min.x + bar_w, origin.y + bar_h);
    draw->AddRectFilled(min, max, c.page, ui.px(2));
    draw->AddRectFilled(ImVec2(min.x, max.y - bar_h * std::clamp(w, 0.0f, 1.0f)), max, heat_color(ui.theme, w),
                        ui.px(2));
    ImGui::PushID(j);
    explain_.area(ui, "##bar", min, max, [&model, j, w, scaled] { return model.explain_bar(j, w, scaled); });
    ImGui::PopID();
    if (bar_w >= kit::text_size(small, "0.00").x + ui.px(2)) {
      const std::string text = format_number(w);
      draw->AddText(small, small->FontSize,
                    ImVec2(min.x + (bar_w - kit::text_size(small, text).x) * 0.5f, max.y + ui.px(2)), c.muted,
                    text.c_str());
    }
  }
  ImGui::PopID();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + bar_h + small->FontSize + ui.px(6)));
  ImGui::Dummy(ImVec2(width, 0));
}

void MaskStepsView::draw_no_scale(const UiContext& ui, const MaskStepsModel& model, float width, Asked& asked) {
  const Palette& c = ui.colors();
  const ScaleDemo& demo = model.scale_demo_now();
  kit::wrapped(ui, tr("mask-steps.no_scale_wrong"), c.bad, kit::Face::mono);
  ImGui::PushID("d");
  int log_d = model.log_d();
  // The value above the slider, not inside it: on a phone the grab covered its digits (#15).
  kit::wrapped(ui, "d_k = " + std::to_string(demo.d), 0, kit::Face::bold);
  ImGui::SetNextItemWidth(std::min(width, ui.px(360)));
  kit::push_field_style(ui);
  if (ImGui::SliderInt("##logd", &log_d, MaskStepsModel::kMinLogD, MaskStepsModel::kMaxLogD, ""))
    asked.push_back(MaskStepsModel::SetLogD{log_d});
  kit::pop_field_style();
  ImGui::PopID();
  const auto readout = [&](const char* id, const std::string& lead, float value, ImU32 color, bool scaled) {
    kit::Flow flow(width, ui.px(5), ui.px(2));
    ImFont* body = kit::font(ui, kit::Face::body);
    flow.place(kit::text_size(body, lead));
    ImGui::TextUnformatted(lead.c_str());
    const std::string text = format_number(value);
    flow.place(kit::text_size(kit::font(ui, kit::Face::bold), text));
    NumberStyle style;
    style.bold = true;
    style.color = color;
    explain_.number(
        ui, id, text, [&model, scaled] { return model.explain_largest(scaled); }, style);
    flow.end();
  };
  readout("##with", tr("mask-steps.largest_with"), demo.max_with, c.good, true);
  draw_bars(ui, model, "with", demo.with_scale, width, true);
  readout("##without", tr("mask-steps.largest_without"), demo.max_without, c.bad, false);
  draw_bars(ui, model, "without", demo.without_scale, width, false);
  kit::wrapped(ui, tr("mask-steps.no_scale_note"), c.muted, kit::Face::small);
}

void MaskStepsView::draw_transpose(const UiContext& ui, const MaskStepsModel& model) {
  const Palette& c = ui.colors();
  const Step* score = find_step(model.trace(), StepKind::score, model.head());
  if (!score) return;
  const Matrix& q = score->inputs.at(0).values;
  const Matrix& k = score->inputs.at(1).values;
  kit::wrapped(ui,
               tr("mask-steps.transpose_right", {{"q", shape_text(q.rows(), q.cols())},
                                                 {"kt", shape_text(k.cols(), k.rows())},
                                                 {"out", shape_text(q.rows(), k.rows())}}),
               c.good, kit::Face::mono);
  kit::wrapped(
      ui,
      tr("mask-steps.transpose_wrong", {{"q", shape_text(q.rows(), q.cols())}, {"k", shape_text(k.rows(), k.cols())}}),
      c.bad, kit::Face::mono);
  kit::gap(ui, 4);
  const WrongTranspose& wrong = model.transpose();
  if (!wrong.error.empty()) {
    kit::wrapped(ui, tr("mask-steps.transpose_stops"), c.text, kit::Face::small);
    kit::wrapped(ui, "InputError: " + wrong.error, c.bad, kit::Face::mono);
    kit::wrapped(ui,
                 tr("mask-steps.transpose_numpy", {{"q_cols", std::to_string(q.cols())},
                                                   {"k_rows", std::to_string(k.rows())},
                                                   {"q_rows", std::to_string(q.rows())},
                                                   {"k_cols", std::to_string(k.cols())}}),
                 c.muted, kit::Face::small);
  } else {
    kit::wrapped(ui, tr("mask-steps.transpose_silent", {{"d", std::to_string(q.cols())}}), c.bad, kit::Face::small);
    const std::string lead = tr("mask-steps.transpose_largest");
    ImGui::TextUnformatted(lead.c_str());
    ImGui::SameLine();
    explain_.number(ui, "##diff", format_number(wrong.max_difference),
                    [&model] { return model.explain_transpose_difference(); });
  }
}

const ViewKind& mask_steps_view_kind() { return view_kind<MaskStepsModel, MaskStepsView>(); }

}  // namespace neuralpath::ui
