// split_join_view.cpp: the split-and-join step-through drawn from its model (split_join_view.h).
// Every number is the model's, read from the trace; colours only say which head owns a column.
#include "engine/ui/widgets/split_join/split_join_view.h"
#include "engine/ui/widgets/registry.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"
#include "engine/ui/widgets/grid.h"
#include "engine/ui/widgets/head_view/head_view_view.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_card.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {

using Model = SplitJoinModel;

float SplitJoinView::column_tint(bool lit, float level) {
  // Unlit columns were a flat 7% of the head's colour: too pale to tell which head owned them
  // or to read their sizes. Now both follow the number, the unlit ones in a lower band.
  return lit ? 0.30f + 0.55f * level : 0.10f + 0.12f * level;
}

using Asked = SplitJoinView::Asked;

namespace {

// Returns the head tapped, or -1.
int head_chips(const UiContext& ui, const Model& model, nlohmann::json& layout, float width) {
  // One chip per head in the head's colour (the head view's colours, so a head looks the same
  // in every widget of the lesson).
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::body);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pad(ui.px(10), ui.px(6));
  int clicked = -1;
  ImGui::PushID("heads");
  kit::Flow flow(width, ui.px(6), ui.px(6));
  for (int h = 0; h < model.trace().heads; ++h) {
    const std::string label = tr("widgets.head", {{"n", std::to_string(h + 1)}});
    const ImVec2 text = kit::text_size(face, label);
    const ImVec2 size(text.x + 2 * pad.x + ui.px(14), text.y + 2 * pad.y);
    const ImVec2 pos = flow.place(size);
    layout["heads"].push_back(kit::css_rect(ui, pos, ImVec2(pos.x + size.x, pos.y + size.y)));
    ImGui::PushID(h);
    if (ImGui::InvisibleButton("##head", size) ||
        (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)))
      clicked = h;
    const bool on = h == model.head();
    const ImU32 color = HeadViewView::head_color(h);
    const ImVec2 max(pos.x + size.x, pos.y + size.y);
    draw->AddRectFilled(pos, max, on ? kit::fade(color, 0.25f) : c.page, size.y * 0.5f);
    draw->AddRect(pos, max, on || ImGui::IsItemHovered() ? color : c.border, size.y * 0.5f, 0, ui.px(on ? 2 : 1));
    if (ImGui::IsItemFocused())
      draw->AddRect(ImVec2(pos.x - ui.px(2), pos.y - ui.px(2)), ImVec2(max.x + ui.px(2), max.y + ui.px(2)), c.accent,
                    size.y * 0.5f + ui.px(2), 0, ui.px(2));
    draw->AddCircleFilled(ImVec2(pos.x + pad.x + ui.px(4), pos.y + size.y * 0.5f), ui.px(5), color);
    draw->AddText(face, face->FontSize, ImVec2(pos.x + pad.x + ui.px(14), pos.y + pad.y), on ? c.text : c.muted,
                  label.c_str());
    ImGui::PopID();
  }
  flow.end();
  ImGui::PopID();
  return clicked;
}

void draw_choices(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < kSplitStages.size(); ++i)
    labels.push_back(tr("split-join.stage_button", {{"n", std::to_string(i + 1)},
                                                    {"name", tr(std::string("split-join.stage_short.") +
                                                                kSplitStages.name(kSplitStages.at(i)))}}));
  const int picked = kit::segmented(ui, "stage", labels, model.stage_index(), width);
  if (picked >= 0 && picked != model.stage_index()) asked.push_back(Model::SetStage{picked, std::nullopt});
  kit::gap(ui, 2);
  // Back and Next right under the stage buttons, whose rows are the same at every stage: what
  // changes height from stage to stage (the chips, the grid, the sentences) is all below them,
  // so a learner tapping Next again and again finds it where it was (#34: below the grid it
  // drifted down to the screen's edge, at 375 px and at 1440 px).
  ImGui::PushID("nav");
  const int last = static_cast<int>(kSplitStages.size()) - 1;
  const kit::StepNav nav = kit::step_nav(ui, tr("split-join.back").c_str(), tr("split-join.next").c_str(),
                                         model.stage_index() > 0, model.stage_index() < last);
  if (nav.move != 0) asked.push_back(Model::Move{nav.move});
  if (nav.back.shown) layout["back"] = kit::css_rect(ui, nav.back.min, nav.back.max);
  if (nav.next.shown) layout["next"] = kit::css_rect(ui, nav.next.min, nav.next.max);
  ImGui::AlignTextToFramePadding();
  ImGui::PushStyleColor(ImGuiCol_Text, ui.colors().muted);
  ImGui::TextUnformatted(
      tr("split-join.step_of", {{"n", std::to_string(model.stage_index() + 1)}, {"total", std::to_string(last + 1)}})
          .c_str());
  ImGui::PopStyleColor();
  ImGui::PopID();
  kit::gap(ui, 4);
  if (model.stage() == SplitStage::cut) {
    const std::vector<std::string> roles = {tr("split-join.role_q"), tr("split-join.role_k"), tr("split-join.role_v")};
    const int role = kit::segmented(ui, "role", roles, static_cast<int>(model.role()), width);
    if (role >= 0 && role != static_cast<int>(model.role()))
      asked.push_back(Model::SetRole{static_cast<Model::Role>(role)});
  } else if (model.stage() != SplitStage::output) {
    const int head = head_chips(ui, model, layout, width);
    if (head >= 0 && head != model.head()) asked.push_back(SetHead{head});
  }
  if (model.mistake_stage()) {
    // The lesson's common mistake, switched on and off where it happens.
    const Trace& t = model.trace();
    kit::gap(ui, 2);
    const int wrong = kit::segmented(ui, "mistake",
                                     {tr("split-join.mistake_off", {{"root", format_sqrt(t.d_head)}}),
                                      tr("split-join.mistake_on", {{"wrong", format_sqrt(t.d_model)}})},
                                     model.mistake() ? 1 : 0, width);
    if (wrong >= 0 && (wrong == 1) != model.mistake()) asked.push_back(Model::SetMistake{wrong == 1});
  }
  kit::gap(ui, 2);
}

void draw_matrix(const UiContext& ui, const Model& model, Explainer& explainer, nlohmann::json& layout,
                 std::optional<Cell>& hovered, float width, Asked& asked) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  const Model::Shown& shown = model.shown();
  const Matrix& m = shown.values;
  const auto [low, high] = model.shown_range();
  const float reach = std::max(std::abs(low), std::abs(high));
  const SplitStage stage = model.stage();
  const bool token_grid = stage == SplitStage::scores || stage == SplitStage::scale || stage == SplitStage::softmax;
  GridSpec grid;
  grid.id = "split-grid";
  grid.rows = t.labels;
  grid.cols = shown.columns;
  grid.selected = model.selected();
  grid.corner = token_grid ? tr("widgets.grid_corner") : tr("split-join.grid_corner");
  grid.fallback_together = true;
  ImFont* small = kit::font(ui, kit::Face::small);
  float widest = 0;  // the widest full-length number, to know which the grid printed
  grid.cell = [&, low = low, high = high](int r, int k) {
    GridCell cell;
    const float v = m(r, k);
    // On a phone 8 columns of "-0.47" (or 7 of "41.2%" and the row sums) scroll sideways,
    // hiding heads' columns; one decimal fewer fits (a tap still explains the full number).
    cell.text = shown.weights ? Model::weight(v, false) : Model::number(v, false);
    cell.fallback = shown.weights ? Model::weight(v, true) : Model::number(v, true);
    widest = std::max(widest, kit::text_size(small, cell.text).x);
    const int owner = shown.column_head[static_cast<std::size_t>(k)];
    if (owner >= 0) {
      // A column a head owns: that head's colour, stronger for larger numbers.
      const float level = reach > 0 ? std::abs(v) / reach : 0.0f;
      cell.fill = kit::mix(c.page, HeadViewView::head_color(owner),
                           SplitJoinView::column_tint(shown.lit[static_cast<std::size_t>(k)], level));
    } else {
      const float level = shown.weights ? v : high > low ? (v - low) / (high - low) : 0.5f;
      cell.fill = heat_color(ui.theme, level);
    }
    return cell;
  };
  if (shown.weights) {
    const Vector sums = m.rowwise().sum();  // the trace's weights, added up for the row-end column
    std::vector<std::string> printed;
    for (Index r = 0; r < sums.size(); ++r) printed.push_back(format_number(sums[r]));
    add_row_sums(grid, std::move(printed), c.good, [&model](int r) { return model.explain_row_sum(r); });
  }
  const GridResult result = draw_grid(ui, grid, width, explainer);
  hovered = result.hovered;
  // The grid printed the short numbers when the full ones did not fit a cell (grid.cpp's rule
  // for fallback_together); the model narrates in whichever it printed.
  const bool printed_short = widest > result.cell_size.x - ui.px(3);
  if (printed_short != model.short_numbers()) asked.push_back(Model::SetShortNumbers{printed_short});
  // Where cell (r, k) is, so a test (or a host) can tap a number it chose: origin + (k, r)·size,
  // visible inside clip (a phone's grid scrolls sideways).
  layout["cells"] = {{"origin", {result.cells_min.x / ui.scale, result.cells_min.y / ui.scale}},
                     {"size", {result.cell_size.x / ui.scale, result.cell_size.y / ui.scale}},
                     {"clip", kit::css_rect(ui, result.clip_min, result.clip_max)}};
  if (result.picked) {
    asked.push_back(SelectCell{*result.picked});
    explainer.open(model.explain_cell(*result.picked));
  }
}

}  // namespace

void SplitJoinView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  layout_ = nlohmann::json::object();
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    const Palette& c = ui.colors();
    draw_choices(ui, model, layout_, width, asked);
    kit::wrapped(ui, model.formula(), model.mistake() ? c.bad : c.accent, kit::Face::mono);
    kit::gap(ui, 2);
    const ImVec2 grid_at = ImGui::GetCursorScreenPos();
    draw_matrix(ui, model, explain_, layout_, hovered_, width, asked);
    layout_["grid"] = kit::css_rect(
        ui, grid_at, ImVec2(grid_at.x + width, ImGui::GetItemRectMax().y));  // the grid's last item ends it
    kit::gap(ui, 4);
    said_.begin(width);  // the card keeps its height as the pointer moves on and off cells
    const ImVec2 said_at = ImGui::GetCursorScreenPos();
    kit::wrapped(ui, model.narration(), c.text);
    layout_["narration"] = kit::css_rect(ui, said_at, ImVec2(said_at.x + width, ImGui::GetCursorScreenPos().y));
    if (hovered_) {
      // The cell under the pointer in the narrator's words, below the stage's sentence.
      const SplitJoinModel::Shown& shown = model.shown();
      if (hovered_->row < shown.values.rows() && hovered_->col < shown.values.cols())
        kit::wrapped(ui, model.explain_cell(*hovered_).text, c.muted, kit::Face::small);
    }
    said_.end();
  });
}

const ViewKind& split_join_view_kind() { return view_kind<SplitJoinModel, SplitJoinView>(); }

}  // namespace neuralpath::ui
