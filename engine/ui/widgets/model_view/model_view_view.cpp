// model_view_view.cpp: the model view drawn from its model (model_view_view.h). Every colour of
// a thumbnail and every number of the open grid is one of the engine's softmax weights.
#include "engine/ui/widgets/model_view/model_view_view.h"
#include "engine/ui/widgets/registry.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/grid.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_card.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {

using nlohmann::json;
using Asked = ModelViewView::Asked;

namespace {

// [SECTION] Thumbnails -------------------------------------------------------------------------

void draw_thumbnails(const UiContext& ui, const ModelViewModel& model, json& layout, float width, Asked& asked) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int n = static_cast<int>(t.tokens.size());
  const float gap = ui.px(10), label_h = small->FontSize + ui.px(4);
  json thumbs = json::array();
  for (int l = 0; l < model.layers(); ++l) {
    if (model.layers() > 1)
      kit::wrapped(ui, tr("model-view.layer", {{"n", std::to_string(l + 1)}}), c.muted, kit::Face::small);
    // One row of a layer's heads when they fit at 56 px or more; else they wrap. A thumbnail
    // never grows past 132 px (it is a glance; the open grid is for reading) nor past the card.
    const int heads = model.heads(l);
    const float fit = (width - gap * static_cast<float>(heads - 1)) / static_cast<float>(heads);
    const float cell =
        std::max(1.0f, std::floor(std::min(std::clamp(fit, ui.px(56), ui.px(132)), width) / static_cast<float>(n)));
    const float box = cell * static_cast<float>(n);
    kit::Flow flow(width, gap, gap);
    for (int h = 0; h < heads; ++h) {
      const ModelViewModel::Head head{l, h};
      const std::string name = tr("widgets.head", {{"n", std::to_string(h + 1)}});
      const ImVec2 item(std::max(box, kit::text_size(small, name).x) + ui.px(4), box + label_h + ui.px(4));
      const ImVec2 min = flow.place(item), max(min.x + item.x, min.y + item.y);
      ImGui::PushID(l * 1000 + h);
      if (ImGui::InvisibleButton("##thumb", item) ||
          (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false))) {
        if (model.open() == std::optional(head))
          asked.push_back(ModelViewModel::Close{});
        else
          asked.push_back(ModelViewModel::Open{head});
      }
      const bool hovered = ImGui::IsItemHovered(), focused = ImGui::IsItemFocused();
      // What a click does: open it, or close the one that is open (#34: "Open Head 4" on Head 4).
      const bool is_open = model.open() == std::optional(head);
      if (hovered)
        ImGui::SetTooltip(
            "%s", tr(is_open ? "model-view.close_tip" : "model-view.open_tip", {{"head", model.label(head)}}).c_str());
      ImGui::PopID();
      // The weights, one square per (asking word, looked-at word); masked cells in grey.
      const ImVec2 at(min.x + ui.px(2), min.y + ui.px(2));
      const Matrix& w = model.weights(head);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const ImVec2 a(at.x + cell * static_cast<float>(j), at.y + cell * static_cast<float>(i));
          draw->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell),
                              t.mask.hides(i, j) ? c.masked : heat_color(ui.theme, w(i, j)));
        }
      const bool open = model.open() == std::optional(head);
      draw->AddRect(ImVec2(at.x - ui.px(2), at.y - ui.px(2)), ImVec2(at.x + box + ui.px(2), at.y + box + ui.px(2)),
                    open || hovered || focused ? c.accent : c.border, ui.px(3), 0, open ? ui.px(2.5f) : ui.px(1));
      draw->AddText(open ? kit::font(ui, kit::Face::bold) : small, small->FontSize, ImVec2(at.x, at.y + box + ui.px(4)),
                    open ? c.accent : c.text, name.c_str());
      thumbs.push_back({{"layer", l}, {"head", h}, {"rect", kit::css_rect(ui, min, max)}});
    }
    flow.end();
    kit::gap(ui, 4);
  }
  layout["thumbs"] = std::move(thumbs);
}

// [SECTION] The open head ----------------------------------------------------------------------

void draw_open(const UiContext& ui, const ModelViewModel& model, Explainer& explainer, json& layout,
               std::optional<Cell>& hovered, float width, Asked& asked) {
  const Trace& t = model.trace();
  const ModelViewModel::Head head = *model.open();
  kit::title(ui, model.label(head));
  const Matrix& w = model.weights(head);
  GridSpec grid = token_grid("model-view", t, model.selected());
  grid.cell = [&](int r, int k) {
    GridCell cell;
    cell.blocked = t.mask.hides(r, k);
    cell.text = format_percent(w(r, k));
    cell.fallback = cell.blocked ? "⊘" : "";
    cell.fill = heat_color(ui.theme, w(r, k));
    return cell;
  };
  // On a phone the open grid scrolls sideways: each head opens on the column it looks at most,
  // its largest column of weights (#34: head 3 opened on 5 of its 11 columns, its bright one off
  // screen). Picking a cell does not move the grid: the cell is where the finger is.
  float best = -1;
  for (Index k = 0; k < w.cols(); ++k)
    if (const float sum = w.col(k).sum(); sum > best) best = sum, grid.show_col = static_cast<int>(k);
  const GridResult result = draw_grid(ui, grid, width, explainer);
  hovered = result.hovered;
  if (result.picked) {  // a tap selects the cell and opens how its weight was made
    asked.push_back(SelectCell{*result.picked});
    explainer.open(model.explain_cell(head, *result.picked));
  }
  layout["cells"] = {{"origin", {result.cells_min.x / ui.scale, result.cells_min.y / ui.scale}},
                     {"size", {result.cell_size.x / ui.scale, result.cell_size.y / ui.scale}},
                     {"clip", kit::css_rect(ui, result.clip_min, result.clip_max)},
                     {"labels_x", result.labels_x / ui.scale},
                     {"rows", t.tokens.size()}};
  kit::gap(ui, 4);
  const std::optional<Cell> lit = hovered ? hovered : model.selected();
  if (lit) {
    kit::wrapped(ui, model.explain_cell(head, *lit).title, 0, kit::Face::small);
  }
  kit::wrapped(ui, tr("model-view.hint_open"), ui.colors().muted, kit::Face::small);
}

}  // namespace

void ModelViewView::draw(const UiContext& ui, const ModelViewModel& model, Asked& asked) {
  // A cell's derivation opens in a sheet across the bottom of the screen: a popup at the finger
  // covered the open grid on a phone, and took the next tap just to close itself.
  explain_.use_sheet(true);
  // Every derivation here is of the selected cell: when the head closes or another opens, the
  // cell is gone from the screen and its sheet goes with it.
  if (explain_.is_open() && !model.selected()) explain_.close();
  layout_ = json::object();
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_thumbnails(ui, model, layout_, width, asked);
    kit::gap(ui, 6);
    if (model.open())
      draw_open(ui, model, explain_, layout_, hovered_, width, asked);
    else
      kit::wrapped(ui, tr("model-view.hint_grid"), ui.colors().muted, kit::Face::small);
    if (!model.input_error().empty()) kit::wrapped(ui, model.input_error(), ui.colors().bad, kit::Face::small);
    // Everything above ends here; the card's caption follows, never under a thumbnail (#15).
    layout_["body_end"] = ImGui::GetCursorScreenPos().y / ui.scale;
  });
}

const ViewKind& model_view_view_kind() { return view_kind<ModelViewModel, ModelViewView>(); }

}  // namespace neuralpath::ui
