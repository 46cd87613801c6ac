#include "theme.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {
namespace {

constexpr ImU32 rgb(unsigned r, unsigned g, unsigned b) { return IM_COL32(r, g, b, 255); }

const Palette light_palette = {
    .page = rgb(250, 250, 247),
    .text = rgb(29, 29, 31),
    .muted = rgb(96, 98, 108),
    .accent = rgb(53, 89, 199),
    .good = rgb(24, 128, 56),
    .bad = rgb(192, 57, 43),
    .tip = rgb(30, 120, 160),
    .panel = rgb(240, 240, 236),
    .border = rgb(210, 210, 204),
    .masked = rgb(222, 222, 218),
    .code_keyword = rgb(150, 40, 140),
    .code_builtin = rgb(30, 100, 170),
    .code_string = rgb(20, 120, 60),
    .code_number = rgb(170, 90, 0),
    .code_comment = rgb(120, 120, 120),
};
const Palette dark_palette = {
    .page = rgb(21, 23, 28),
    .text = rgb(232, 232, 234),
    .muted = rgb(160, 164, 176),
    .accent = rgb(138, 166, 255),
    .good = rgb(90, 200, 120),
    .bad = rgb(240, 110, 95),
    .tip = rgb(100, 190, 230),
    .panel = rgb(32, 35, 42),
    .border = rgb(60, 64, 74),
    .masked = rgb(44, 46, 52),
    .code_keyword = rgb(220, 130, 220),
    .code_builtin = rgb(120, 180, 250),
    .code_string = rgb(140, 210, 140),
    .code_number = rgb(240, 170, 90),
    .code_comment = rgb(140, 144, 150),
};

ImVec4 to_vec4(ImU32 color) { return ImGui::ColorConvertU32ToFloat4(color); }

}  // namespace

const Palette& palette(Theme theme) { return theme == Theme::dark ? dark_palette : light_palette; }

ImU32 heat_color(Theme theme, float weight) {
  // Interpolate from the panel colour (weight 0) to a strong orange-red (weight 1), with a
  // square-root ramp so small but non-zero weights are still visible.
  const float t = std::sqrt(std::clamp(std::isfinite(weight) ? weight : 0.0f, 0.0f, 1.0f));
  const ImVec4 low = to_vec4(palette(theme).panel);
  const ImVec4 high = theme == Theme::dark ? ImVec4(0.98f, 0.45f, 0.20f, 1) : ImVec4(0.86f, 0.28f, 0.08f, 1);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(low.x + (high.x - low.x) * t, low.y + (high.y - low.y) * t, low.z + (high.z - low.z) * t, 1));
}

ImU32 text_on(ImU32 background) {
  const ImVec4 c = to_vec4(background);
  const float luma = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
  return luma > 0.55f ? rgb(20, 20, 22) : rgb(250, 250, 250);
}

void apply_imgui_style(Theme theme) {
  if (theme == Theme::dark)
    ImGui::StyleColorsDark();
  else
    ImGui::StyleColorsLight();
  const Palette& p = palette(theme);
  ImGuiStyle& style = ImGui::GetStyle();
  style.Colors[ImGuiCol_WindowBg] = to_vec4(p.page);
  style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  style.Colors[ImGuiCol_Text] = to_vec4(p.text);
  style.Colors[ImGuiCol_TextDisabled] = to_vec4(p.muted);
  style.Colors[ImGuiCol_Border] = to_vec4(p.border);
  style.Colors[ImGuiCol_FrameBg] = to_vec4(p.panel);
  style.Colors[ImGuiCol_NavHighlight] = to_vec4(p.accent);
  style.FrameRounding = 6;
  style.GrabRounding = 6;
  style.WindowRounding = 0;
  style.ChildRounding = 8;
  style.PopupRounding = 8;
  style.ScrollbarSize = 12;
}

}  // namespace neuralpath::ui
