// head_view_view.cpp: the head view drawn from its model (head_view_view.h). Every line's
// opacity and thickness is one of the engine's softmax weights, read through the model.
#include "engine/ui/widgets/head_view/head_view_view.h"
#include "engine/ui/widgets/registry.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_card.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {

ImU32 HeadViewView::head_color(int head) {
  // Okabe and Ito's colour-blind-safe set: distinct under the common colour-vision deficiencies
  // and readable on both the light and the dark page.
  static const ImU32 colors[] = {IM_COL32(0, 114, 178, 255),   IM_COL32(230, 159, 0, 255), IM_COL32(0, 158, 115, 255),
                                 IM_COL32(204, 121, 167, 255), IM_COL32(213, 94, 0, 255),  IM_COL32(86, 180, 233, 255),
                                 IM_COL32(150, 150, 150, 255), IM_COL32(240, 228, 66, 255)};
  return colors[static_cast<std::size_t>(head) % (sizeof colors / sizeof colors[0])];
}

using Asked = HeadViewView::Asked;

namespace {

constexpr float kFaintest = 0.02f;  // weights below this draw no line (they would be invisible anyway)

void draw_head_chips(const UiContext& ui, const HeadViewModel& model, nlohmann::json& layout, float width,
                     Asked& asked) {
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::body);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pad(ui.px(10), ui.px(5));
  kit::Flow flow(width, ui.px(6), ui.px(6));
  for (int h = 0; h < model.heads(); ++h) {
    const std::string label = tr("widgets.head", {{"n", std::to_string(h + 1)}});
    const ImVec2 size(kit::text_size(face, label).x + 2 * pad.x + ui.px(14), face->FontSize + 2 * pad.y);
    const ImVec2 min = flow.place(size), max(min.x + size.x, min.y + size.y);
    layout["heads"].push_back(kit::css_rect(ui, min, max));
    ImGui::PushID(h);
    if (ImGui::InvisibleButton("##head", size)) asked.push_back(HeadViewModel::ToggleHead{h});
    const bool on = model.shown(h), hovered = ImGui::IsItemHovered();
    const ImU32 color = HeadViewView::head_color(h);
    draw->AddRectFilled(min, max, on ? kit::fade(color, 0.22f) : c.page, ui.px(14));
    draw->AddRect(min, max, on || hovered ? color : c.border, ui.px(14), 0, ui.px(on ? 2 : 1));
    if (ImGui::IsItemFocused())
      draw->AddRect(ImVec2(min.x - ui.px(2), min.y - ui.px(2)), ImVec2(max.x + ui.px(2), max.y + ui.px(2)), c.accent,
                    ui.px(16), 0, ui.px(2));
    const ImVec2 dot(min.x + pad.x + ui.px(4), min.y + size.y * 0.5f);
    if (on)
      draw->AddCircleFilled(dot, ui.px(5), color);
    else
      draw->AddCircle(dot, ui.px(5), color, 0, ui.px(1.5f));
    draw->AddText(face, face->FontSize, ImVec2(min.x + pad.x + ui.px(14), min.y + pad.y), on ? c.text : c.muted,
                  label.c_str());
    ImGui::PopID();
  }
  flow.end();
}

void draw_lines(const UiContext& ui, const HeadViewModel& model, Explainer& explainer, nlohmann::json& layout,
                float width, Asked& asked) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::body);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int n = static_cast<int>(t.tokens.size());
  const int focus = model.focus();
  const ImVec2 pad(ui.px(8), ui.px(3));
  const float row_h = face->FontSize + 2 * pad.y, pitch = row_h + ui.px(5);
  // Each column is as wide as the longest word, but never more than a third of the card.
  float column = 0;
  for (const auto& label : t.labels) column = std::max(column, kit::text_size(face, label).x + 2 * pad.x);
  column = std::min(column, width / 3.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float right_x = origin.x + width - column;
  const auto left_anchor = [&](int i) {
    return ImVec2(origin.x + column + ui.px(4), origin.y + i * pitch + row_h * 0.5f);
  };
  const auto right_anchor = [&](int j) { return ImVec2(right_x - ui.px(4), origin.y + j * pitch + row_h * 0.5f); };

  // Lines first, under the words, each head's slightly offset so that two heads on the same pair
  // stay visible side by side. The heaviest are drawn first and the lightest last, so a thin
  // line is never hidden under a thick one; of equal weights, head 1's comes last, on top
  // (#34: head 1's line lay under head 2's).
  struct Line {
    int head, from, to;
    float weight;
  };
  std::vector<Line> lines;
  const int heads = model.heads();
  for (int h = 0; h < heads; ++h) {
    if (!model.shown(h)) continue;
    const Matrix& w = model.weights(h);
    for (int i = 0; i < n; ++i) {
      if (focus >= 0 && i != focus) continue;
      for (int j = 0; j < n; ++j) {
        const float weight = std::clamp(w(i, j), 0.0f, 1.0f);
        if (weight >= kFaintest) lines.push_back({h, i, j, weight});  // also skips NaN
      }
    }
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.weight != b.weight ? a.weight > b.weight : a.head > b.head;
  });
  nlohmann::json order = nlohmann::json::array();
  for (const Line& line : lines) {
    const float offset = (static_cast<float>(line.head) - 0.5f * static_cast<float>(heads - 1)) * ui.px(1.5f);
    const ImVec2 from = left_anchor(line.from), to = right_anchor(line.to);
    const float alpha = focus >= 0 ? 0.25f + 0.75f * line.weight : 0.1f + 0.6f * line.weight;
    const float thickness = ui.px(1.0f) + ui.px(focus >= 0 ? 4.0f : 2.0f) * line.weight;
    draw->AddLine(ImVec2(from.x, from.y + offset), ImVec2(to.x, to.y + offset),
                  kit::fade(HeadViewView::head_color(line.head), alpha), thickness);
    order.push_back({{"head", line.head}, {"from", line.from}, {"to", line.to}, {"width", thickness / ui.scale}});
  }
  layout["lines"] = std::move(order);  // in drawing order: the last is on top

  // The words: left ones choose the focus (tap again for every word); right ones, with a focus,
  // explain the heaviest shown head's weight on them.
  for (int side = 0; side < 2; ++side) {
    for (int j = 0; j < n; ++j) {
      const auto uj = static_cast<std::size_t>(j);
      const ImVec2 min(side == 0 ? origin.x : right_x, origin.y + j * pitch), max(min.x + column, min.y + row_h);
      ImGui::PushID(side * 1000 + j);
      ImGui::SetCursorScreenPos(min);
      bool hovered = false;
      if (side == 0) {
        if (ImGui::InvisibleButton("##word", ImVec2(column, row_h)))
          asked.push_back(HeadViewModel::Focus{focus == j ? -1 : j});
        hovered = ImGui::IsItemHovered();
      } else {
        int best = -1;  // the shown head giving this word the most weight from the focus word
        for (int h = 0; h < heads && focus >= 0; ++h)
          if (model.shown(h) && (best < 0 || model.weights(h)(focus, j) > model.weights(best)(focus, j))) best = h;
        if (best >= 0) {
          hovered = explainer.area(ui, "##key", min, max,
                                   [&model, best, focus, j] { return model.explain_cell(best, focus, j); });
        } else {
          ImGui::Dummy(ImVec2(column, row_h));
        }
      }
      const bool selected = side == 0 && j == focus;
      draw->AddRectFilled(min, max,
                          selected  ? c.accent
                          : hovered ? kit::mix(c.page, c.accent, 0.12f)
                                    : c.page,
                          ui.px(5));
      draw->AddRect(min, max, selected || hovered ? c.accent : c.border, ui.px(5), 0, ui.px(1));
      const std::string label = kit::fit_text(face, t.labels[uj], column - 2 * pad.x);
      const float text_x = side == 0 ? max.x - pad.x - kit::text_size(face, label).x : min.x + pad.x;
      draw->AddText(face, face->FontSize, ImVec2(text_x, min.y + pad.y), selected ? text_on(c.accent) : c.text,
                    label.c_str());
      ImGui::PopID();
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + n * pitch));
  ImGui::Dummy(ImVec2(width, 0));
}

void draw_tops(const UiContext& ui, const HeadViewModel& model, Explainer& explainer, float width) {
  const Trace& t = model.trace();
  const Palette& c = ui.colors();
  if (model.focus() < 0) {
    kit::wrapped(ui, tr("multihead.head_view_hint"), c.muted, kit::Face::small);
    return;
  }
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImFont* small = kit::font(ui, kit::Face::small);
  const std::string query = quoted(t.labels[static_cast<std::size_t>(model.focus())]);
  for (const HeadViewModel::Top& top : model.top()) {
    if (top.index < 0) continue;
    ImGui::PushID(top.head);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw->AddCircleFilled(ImVec2(at.x + ui.px(5), at.y + small->FontSize * 0.6f), ui.px(5),
                          HeadViewView::head_color(top.head));
    ImGui::SetCursorScreenPos(ImVec2(at.x + ui.px(16), at.y));
    const std::string text =
        tr("multihead.head_looks_line", {{"head", tr("widgets.head", {{"n", std::to_string(top.head + 1)}})},
                                         {"query", query},
                                         {"key", quoted(t.labels[static_cast<std::size_t>(top.index)])}});
    ImGui::PushFont(small);
    ImGui::PushStyleColor(ImGuiCol_Text, c.text);
    ImGui::TextUnformatted(kit::fit_text(small, text, width * 0.7f).c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::SameLine();
    NumberStyle style;
    style.small = true;
    style.color = HeadViewView::head_color(top.head);
    const int head = top.head, focus = model.focus(), key = top.index;
    explainer.number(
        ui, "##top", format_percent(top.weight),
        [&model, head, focus, key] { return model.explain_cell(head, focus, key); }, style);
    ImGui::PopID();
  }
}

}  // namespace

void HeadViewView::draw(const UiContext& ui, const HeadViewModel& model, Asked& asked) {
  // A weight's derivation opens in a sheet across the bottom of the screen, not a popup: the
  // learner reading it can still toggle heads with the chips (a popup would take that tap).
  explain_.use_sheet(true);
  layout_ = nlohmann::json::object();
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_head_chips(ui, model, layout_, width, asked);
    kit::gap(ui, 4);
    draw_lines(ui, model, explain_, layout_, width, asked);
    kit::gap(ui, 4);
    draw_tops(ui, model, explain_, width);
    if (!model.input_error().empty()) kit::wrapped(ui, model.input_error(), ui.colors().bad, kit::Face::small);
  });
}

const ViewKind& head_view_view_kind() { return view_kind<HeadViewModel, HeadViewView>(); }

}  // namespace neuralpath::ui
