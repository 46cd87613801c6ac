#include "page_context.h"

#include <algorithm>

namespace neuralpath::ui {

float PageContext::body_size() const {
  return ui.fonts && ui.fonts->body ? ui.fonts->body->FontSize : ImGui::GetFontSize();
}

bool page_button(PageContext& page, ImGuiID id, const ImRect& rect, bool* hovered, bool* held) {
  bool is_hovered = false, is_held = false;
  bool pressed = false;
  if (ImGui::ItemAdd(rect, id)) {
    pressed = ImGui::ButtonBehavior(rect, id, &is_hovered, &is_held);
    page.geometry.taps.push_back(id);
    if (is_hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  }
  if (hovered) *hovered = is_hovered;
  if (held) *held = is_held;
  return pressed;
}

ImVec2 text_button_size(const PageContext& page, std::string_view label) {
  ImFont* font = page.ui.fonts && page.ui.fonts->bold ? page.ui.fonts->bold : ImGui::GetFont();
  const float size = page.body_size() * 0.94f;
  const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, label.data(), label.data() + label.size());
  return ImVec2(text.x + page.px(28), std::max(text.y + page.px(14), page.px(38)));  // 38: a finger's width
}

bool text_button(PageContext& page, const char* id, std::string_view label, ImVec2 pos, bool primary) {
  const Palette& c = page.colors();
  ImFont* font = page.ui.fonts && page.ui.fonts->bold ? page.ui.fonts->bold : ImGui::GetFont();
  const float size = page.body_size() * 0.94f;
  const ImVec2 box = text_button_size(page, label);
  const ImRect rect(pos, pos + box);
  bool hovered = false, held = false;
  const bool pressed = page_button(page, ImGui::GetID(id), rect, &hovered, &held);
  ImDrawList* dl = page.draw_list();
  const float r = page.px(6);
  if (primary) {
    dl->AddRectFilled(rect.Min, rect.Max, hovered ? mix(c.accent, c.text, 0.15f) : c.accent, r);
  } else {
    dl->AddRectFilled(rect.Min, rect.Max, hovered ? mix(c.page, c.accent, 0.12f) : c.page, r);
    dl->AddRect(rect.Min, rect.Max, held ? c.accent : c.border, r, 0, page.px(1));
  }
  const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, label.data(), label.data() + label.size());
  dl->AddText(font, size, ImVec2(rect.Min.x + (box.x - text.x) * 0.5f, rect.Min.y + (box.y - text.y) * 0.5f),
              primary ? text_on(c.accent) : c.text, label.data(), label.data() + label.size());
  return pressed;
}

void vertical_gap(float height) { move_cursor_to_y(ImGui::GetCursorScreenPos().y + height); }

void move_cursor_to_y(float screen_y) { ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, screen_y)); }

ImU32 mix(ImU32 a, ImU32 b, float t) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, x.w + (y.w - x.w) * t));
}

ImU32 with_alpha(ImU32 color, float alpha) {
  ImVec4 v = ImGui::ColorConvertU32ToFloat4(color);
  v.w = std::clamp(alpha, 0.0f, 1.0f);
  return ImGui::ColorConvertFloat4ToU32(v);
}

}  // namespace neuralpath::ui
