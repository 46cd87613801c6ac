// heatmap_view.cpp: draws a const HeatmapModel with Dear ImGui — the BERT switch, head choice,
// the weights grid (masked cells hatched, row sums beside it) and the details of the hovered
// or selected cell. Clicks come back as the model's commands; the hovered cell and the open
// explanation are the view's own.
//
// Every number is the model's (the engine's softmax weights, the trace's cell terms); nothing here
// computes one.
#include "engine/trace/narration.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/grid.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/heatmap/heatmap_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace neuralpath::ui {

class HeatmapView : public LaidOutView<HeatmapModel> {
 public:
  void draw(const UiContext& ui, const HeatmapModel& model, std::vector<HeatmapModel::Command>& asked);
  // layout(): where the grid was drawn (CSS px from the canvas's top left, last frame) and whether it is
  // wider than the card and scrolls sideways, and where the details (or the hint) sit:
  // {grid: [x, y, w, h], card_width, scrolls, details: [x, y, w, h]}.

 private:
  std::optional<Cell> hovered_;
  kit::KeptHeight details_;  // a cell's details, hovered or not: one height (#34: hover added 180 px)
};

namespace {

void draw_details(const UiContext& ui, const HeatmapModel& model, Explainer& explainer, Cell cell) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  const int head = model.head();
  const std::string heading =
      tr("heatmap.details_title", {{"query", quote_token(t.labels[static_cast<std::size_t>(cell.row)])},
                                   {"key", quote_token(t.labels[static_cast<std::size_t>(cell.col)])}});
  kit::title(ui, t.heads > 1 ? tr("heatmap.details_title_head", {{"title", heading}, {"n", std::to_string(head + 1)}})
                             : heading);
  const Step* score = find_step(t, StepKind::score, head);
  const Step* scale = find_step(t, StepKind::scale, head);
  const Step* mask = find_step(t, StepKind::mask, head);
  const Step* softmax = find_step(t, StepKind::softmax, head);
  if (!score || !scale || !mask || !softmax) return;
  ImFont* body = kit::font(ui, kit::Face::body);
  ImFont* mono = kit::font(ui, kit::Face::mono);
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushID("details");
  // One line per stage of the formula; each number opens its own explanation.
  const auto line = [&](int id, const std::string& lead, const std::string& value, const Step& step,
                        const std::string& tail = "") {
    kit::Flow flow(width, ui.px(5), ui.px(2));
    flow.place(kit::text_size(body, lead));
    ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
    ImGui::TextUnformatted(lead.c_str());
    ImGui::PopStyleColor();
    flow.place(kit::text_size(mono, value));
    ImGui::PushID(id);
    NumberStyle style;
    style.mono = true;
    explainer.number(
        ui, "##v", value, [&model, &step, cell] { return model.explain_step(step, cell); }, style);
    ImGui::PopID();
    if (!tail.empty()) {
      flow.place(kit::text_size(body, tail));
      ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
      ImGui::TextUnformatted(tail.c_str());
      ImGui::PopStyleColor();
    }
    flow.end();
  };
  line(1, tr("heatmap.line_score"), format_number(score->result.values(cell.row, cell.col)), *score);
  if (const CellTerms* products = find_terms(*score, cell))
    kit::wrapped(ui, "= " + products_text(*products), c.muted, kit::Face::small);
  line(2, tr("heatmap.line_scaled", {{"scalar", scale->scalar_name}}),
       format_number(scale->result.values(cell.row, cell.col)), *scale);
  if (t.mask.hides(cell.row, cell.col)) {
    line(3, tr("heatmap.line_masked"), format_number(mask->result.values(cell.row, cell.col)), *mask,
         tr("heatmap.line_masked_tail"));
  } else if (const CellTerms* terms = find_terms(*softmax, cell); terms && !terms->terms.empty()) {
    line(3, tr("heatmap.line_exp"), format_number(terms->terms.front().a), *softmax,
         tr("heatmap.line_exp_tail", {{"value", format_number(terms->terms.front().b)}}));
  }
  line(4, tr("heatmap.line_weight"), format_percent(model.weights()(cell.row, cell.col)), *softmax);
  ImGui::PopID();
  kit::wrapped(ui, narrate(t, *softmax, cell), c.muted, kit::Face::small);
}

}  // namespace

void HeatmapView::draw(const UiContext& ui, const HeatmapModel& model, std::vector<HeatmapModel::Command>& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    const Palette& c = ui.colors();
    const Trace& t = model.trace();
    if (model.bert_switch()) {
      const int picked = kit::segmented(ui, "mask", {tr("heatmap.switch_causal"), tr("heatmap.switch_none")},
                                        model.causal() ? 0 : 1, width);
      if (picked >= 0 && (picked == 0) != model.causal()) asked.push_back(HeatmapModel::SetMask{picked == 0});
    }
    if (const int head = pick_head(ui, t.heads, model.head(), width); head >= 0) asked.push_back(SetHead{head});
    kit::wrapped(ui, tr(model.causal() ? "heatmap.legend_causal" : "heatmap.legend_none"), c.muted, kit::Face::small);
    kit::gap(ui, 4);

    const Matrix& weights = model.weights();
    GridSpec grid = token_grid("weights", t, model.selected());
    grid.cell = [&](int r, int k) {
      GridCell cell;
      const float w = weights(r, k);
      cell.blocked = t.mask.hides(r, k);
      cell.text = cell.blocked ? "⊘ " + format_percent(w) : format_percent(w);
      cell.fallback = cell.blocked ? "⊘" : "";
      cell.fill = heat_color(ui.theme, w);
      return cell;
    };
    std::vector<std::string> sums;
    for (Index r = 0; r < model.row_sums().size(); ++r) sums.push_back(format_percent(model.row_sums()[r]));
    add_row_sums(grid, std::move(sums), c.good, [&model](int r) { return model.explain_row_sum(r); });
    const ImVec2 grid_at = ImGui::GetCursorScreenPos();
    const GridResult result = draw_grid(ui, grid, width, explain_);
    const float css = ui.scale > 0 ? ui.scale : 1;
    layout_ = {{"grid", {grid_at.x / css, grid_at.y / css, result.size.x / css, result.size.y / css}},
               {"card_width", width / css},
               {"scrolls", result.scrolls}};
    hovered_ = result.hovered;
    if (result.picked) asked.push_back(SelectCell{*result.picked});

    kit::gap(ui, 6);
    // Under the hint, a cell's details are always there: the hovered or selected cell's, else
    // those of the last row's heaviest weight (its word has seen the whole sentence). So the card
    // keeps one height as the pointer crosses the grid, and the page under it does not jump
    // (#34: hovering added 180 px).
    const ImVec2 details_at = ImGui::GetCursorScreenPos();
    details_.begin(width);
    kit::wrapped(ui, tr("heatmap.hint"), c.muted, kit::Face::small);
    if (const std::optional<Cell> shown = hovered_ ? hovered_ : model.selected()) {
      draw_details(ui, model, explain_, *shown);
    } else if (weights.rows() > 0) {
      Index heaviest = 0;
      weights.row(weights.rows() - 1).maxCoeff(&heaviest);
      draw_details(ui, model, explain_, Cell{static_cast<int>(weights.rows() - 1), static_cast<int>(heaviest)});
    }
    details_.end();
    layout_["details"] = {details_at.x / css, details_at.y / css, width / css,
                          (ImGui::GetCursorScreenPos().y - details_at.y) / css};
  });
}

const ViewKind& heatmap_view_kind() { return view_kind<HeatmapModel, HeatmapView>(); }

}  // namespace neuralpath::ui
