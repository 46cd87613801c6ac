// explain.cpp: numbers as focusable items and the popup that explains them (see explain.h).
#include "engine/ui/widgets/explain.h"

#include "engine/text/catalogue.h"
#include "engine/ui/widgets/kit.h"

#include <algorithm>
#include <cfloat>
#include <cstdio>

namespace neuralpath::ui {

bool Explainer::activated() {
  // Space activates a focused item in Dear ImGui 1.86; Enter does not, so we read it here.
  return ImGui::IsItemFocused() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
                                    ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false));
}

bool Explainer::number(const UiContext& ui, const char* id, const std::string& text, const Make& make,
                       const NumberStyle& style) {
  ImFont* face = kit::font(ui, style.bold    ? kit::Face::bold
                               : style.mono  ? kit::Face::mono
                               : style.small ? kit::Face::small
                                             : kit::Face::body);
  const ImVec2 size = kit::text_size(face, text);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const bool pressed = ImGui::InvisibleButton(id, ImVec2(std::max(size.x, 1.0f), size.y));
  if (pressed || activated()) {
    open(make());
    centred_ = false;  // ImGui places it by the pointer (or the focused item)
  }
  const bool hovered = ImGui::IsItemHovered();
  const bool focused = ImGui::IsItemFocused();
  const Palette& c = ui.colors();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 max(pos.x + size.x, pos.y + size.y);
  if (hovered) draw->AddRectFilled(pos, max, kit::fade(c.accent, 0.14f), ui.px(3));
  if (focused)
    draw->AddRect(ImVec2(pos.x - ui.px(2), pos.y - ui.px(1)), ImVec2(max.x + ui.px(2), max.y + ui.px(1)), c.accent,
                  ui.px(3), 0, ui.px(2));
  draw->AddText(face, face->FontSize, pos, style.color ? style.color : c.text, text.c_str());
  // A dotted underline says "this number can tell you where it came from".
  const float y = max.y - ui.px(1);
  for (float x = pos.x; x < max.x; x += ui.px(4))
    draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + ui.px(2), max.x), y), kit::fade(c.accent, 0.8f), ui.px(1));
  if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  return hovered;
}

bool Explainer::area(const UiContext& ui, const char* id, ImVec2 min, ImVec2 max, const Make& make) {
  ImGui::SetCursorScreenPos(min);
  const bool pressed = ImGui::InvisibleButton(id, ImVec2(std::max(max.x - min.x, 1.0f), std::max(max.y - min.y, 1.0f)));
  if (pressed || activated()) {
    open(make());
    centred_ = false;
  }
  const bool hovered = ImGui::IsItemHovered();
  const bool focused = ImGui::IsItemFocused();
  if (focused) ImGui::GetWindowDrawList()->AddRect(min, max, ui.colors().accent, ui.px(2), 0, ui.px(2));
  if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  return hovered || focused;
}

void Explainer::open(Explanation explanation) {
  events_.push_back({{"type", "explain"}, {"title", explanation.title}, {"text", explanation.text}});
  current_ = std::move(explanation);
  open_requested_ = true;
  centred_ = true;
}

void Explainer::draw_popup(const UiContext& ui, float owner_top, float owner_bottom) {
  if (sheet_) {
    draw_sheet(ui, owner_top, owner_bottom);
    return;
  }
  if (open_requested_) {
    ImGui::OpenPopup("##explain");
    open_requested_ = false;
    shown_ = true;
  }
  if (!shown_) return;
  const Palette& c = ui.colors();
  const float viewport_w = ImGui::GetMainViewport()->Size.x;
  const float max_w = std::max(ui.px(160), std::min(ui.px(440), viewport_w - ui.px(24)));
  if (centred_) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.4f), ImGuiCond_Always,
        ImVec2(0.5f, 0.5f));
  }
  ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(ui.px(260), max_w), 0), ImVec2(max_w, FLT_MAX));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(14), ui.px(12)));
  ImGui::PushStyleVar(ImGuiStyleVar_PopupRounding, ui.px(8));
  ImGui::PushStyleColor(ImGuiCol_PopupBg, c.panel);
  ImGui::PushStyleColor(ImGuiCol_Border, c.accent);
  const bool visible = ImGui::BeginPopup("##explain");
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar(2);
  if (!visible) {  // closed by Escape or a click outside
    shown_ = false;
    current_.reset();
    return;
  }
  if (current_) draw_body(ui, max_w - ui.px(14));
  if (kit::button(ui, tr("widgets.close").c_str())) {
    ImGui::CloseCurrentPopup();
    shown_ = false;
    current_.reset();
  }
  ImGui::EndPopup();
}

void Explainer::draw_body(const UiContext& ui, float wrap) {
  const Palette& c = ui.colors();
  const Explanation& e = *current_;
  ImGui::PushTextWrapPos(wrap);
  kit::wrapped(ui, e.title, 0, kit::Face::bold);
  if (!e.formula.empty()) kit::wrapped(ui, e.formula, c.accent, kit::Face::mono);
  if (!e.inputs.empty()) {
    kit::gap(ui, 2);
    for (const auto& [name, value] : e.inputs) kit::wrapped(ui, name + ":  " + value, c.muted, kit::Face::small);
  }
  if (!e.text.empty()) {
    kit::gap(ui, 2);
    kit::wrapped(ui, e.text);
  }
  ImGui::PopTextWrapPos();
  kit::gap(ui, 2);
}

void Explainer::draw_sheet(const UiContext& ui, float owner_top, float owner_bottom) {
  open_requested_ = false;
  sheet_rect_.reset();
  if (!current_) {
    sheet_top_ = FLT_MAX;
    owner_seen_ = seen_above_sheet_ = false;
    return;
  }
  // Scrolled away: the widget it explains has left the screen, or, having been seen above the
  // sheet, has gone wholly behind it. The sheet would otherwise sit over whatever the learner
  // scrolled to (#15 walk: the model view's sheet covered the split-join walk's Next button, and
  // taps on it did nothing). A widget only ever seen behind the sheet (a tap low on the screen)
  // keeps it, and so does one never seen yet (a command may open a sheet for a widget off screen).
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const bool on_screen = owner_bottom > viewport->Pos.y && owner_top < viewport->Pos.y + viewport->Size.y;
  const bool above_sheet = sheet_top_ < FLT_MAX && owner_bottom > viewport->Pos.y && owner_top < sheet_top_;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) || (owner_seen_ && !on_screen) ||
      (seen_above_sheet_ && !above_sheet)) {
    current_.reset();
    sheet_top_ = FLT_MAX;
    owner_seen_ = seen_above_sheet_ = false;
    return;
  }
  owner_seen_ = owner_seen_ || on_screen;
  seen_above_sheet_ = seen_above_sheet_ || above_sheet;
  // Across the bottom of the screen, at most 40% of its height (longer text scrolls inside): a
  // widget's top, where its controls are, stays in view above it. Centred under the window the
  // widget is drawn in (the reading column on a desk, so it does not cover the contents).
  const Palette& c = ui.colors();
  const float column_w = std::min(ImGui::GetWindowWidth(), viewport->Size.x);
  const float w = std::min(column_w - ui.px(16), ui.px(560));
  const float centre = std::clamp(ImGui::GetWindowPos().x + column_w * 0.5f, viewport->Pos.x + w * 0.5f,
                                  viewport->Pos.x + viewport->Size.x - w * 0.5f);
  ImGui::SetNextWindowPos(ImVec2(centre, viewport->Pos.y + viewport->Size.y - ui.px(8)), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, viewport->Size.y * 0.4f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(14), ui.px(12)));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, ui.px(8));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, ui.px(1));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, c.panel);
  ImGui::PushStyleColor(ImGuiCol_Border, c.accent);
  // One window per Explainer (a window's name is global in Dear ImGui, not under the ID stack).
  char name[48];
  std::snprintf(name, sizeof name, "##explain-sheet-%p", static_cast<const void*>(this));
  ImGui::Begin(name, nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar(3);
  draw_body(ui, w - ui.px(14));
  const bool closed = kit::button(ui, tr("widgets.close").c_str());
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImGui::End();
  sheet_rect_ = nlohmann::json::array({pos.x / ui.scale, pos.y / ui.scale, size.x / ui.scale, size.y / ui.scale});
  sheet_top_ = pos.y;
  if (closed) {
    current_.reset();
    sheet_rect_.reset();
    sheet_top_ = FLT_MAX;
  }
}

nlohmann::json Explainer::state() const {
  if (!current_) return {{"open", false}};
  nlohmann::json j = current_->to_json();
  j["open"] = true;
  if (sheet_rect_) j["sheet"] = *sheet_rect_;
  return j;
}

std::vector<nlohmann::json> Explainer::take_events() {
  std::vector<nlohmann::json> out;
  out.swap(events_);
  return out;
}

}  // namespace neuralpath::ui
