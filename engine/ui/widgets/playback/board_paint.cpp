#include "board_paint.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::ui::playback {

namespace {
ImFont* or_current(ImFont* font) { return font ? font : ImGui::GetFont(); }
}  // namespace

ImFont* Painter::body() const { return or_current(ui.fonts ? ui.fonts->body : nullptr); }
ImFont* Painter::bold() const { return or_current(ui.fonts ? ui.fonts->bold : nullptr); }
ImFont* Painter::mono() const { return or_current(ui.fonts ? ui.fonts->mono : nullptr); }
ImFont* Painter::small() const { return or_current(ui.fonts ? ui.fonts->small : nullptr); }

ImVec2 Painter::measure(ImFont* font, float size, std::string_view s, float wrap) const {
  font = or_current(font);
  if (size <= 0) size = font->FontSize;
  return font->CalcTextSizeA(size, FLT_MAX, wrap, s.data(), s.data() + s.size());
}

ImVec2 Painter::text(ImVec2 pos, std::string_view s, ImU32 color, ImFont* font, float size, float wrap,
                     bool record) const {
  font = or_current(font ? font : body());
  if (size <= 0) size = font->FontSize;
  draw->AddText(font, size, pos, color, s.data(), s.data() + s.size(), wrap);
  if (record && drawn) drawn->emplace_back(s);
  return measure(font, size, s, wrap);
}

std::vector<std::string> Painter::wrap(ImFont* font, float size, std::string_view s, float width) const {
  std::vector<std::string> lines;
  std::string line;
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t space = s.find(' ', at);
    const std::string_view word = s.substr(at, space == std::string_view::npos ? s.npos : space - at);
    at = space == std::string_view::npos ? s.size() : space + 1;
    if (word.empty()) continue;
    const std::string candidate = line.empty() ? std::string(word) : line + " " + std::string(word);
    if (!line.empty() && measure(font, size, candidate).x > width) {
      lines.push_back(line);
      line = std::string(word);
    } else {
      line = candidate;
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

bool Painter::tapped(ImVec2 min, ImVec2 max) const {
  const ImGuiIO& io = ImGui::GetIO();
  if (!ImGui::IsMouseReleased(0) || !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) return false;
  const ImRect box(min, max);
  const ImVec2 moved = io.MousePos - io.MouseClickedPos[0];
  return box.Contains(io.MouseClickedPos[0]) && box.Contains(io.MousePos) &&
         std::fabs(moved.x) + std::fabs(moved.y) < px(8);
}

void Painter::centered(ImVec2 min, ImVec2 max, std::string_view s, ImU32 color, ImFont* font, float size) const {
  const ImVec2 box = measure(font, size, s);
  const ImVec2 at(std::floor(min.x + (max.x - min.x - box.x) * 0.5f),
                  std::floor(min.y + (max.y - min.y - box.y) * 0.5f));
  draw->PushClipRect(min, max, true);
  text(at, s, color, font, size);
  draw->PopClipRect();
}

ImU32 mix(ImU32 a, ImU32 b, float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, x.w + (y.w - x.w) * t));
}

ImU32 signed_color(Theme theme, float t) {
  if (!std::isfinite(t)) t = 0;
  t = std::clamp(t, -1.0f, 1.0f);
  if (t >= 0) return heat_color(theme, t);
  const ImU32 cold = theme == Theme::dark ? IM_COL32(90, 150, 255, 255) : IM_COL32(40, 100, 210, 255);
  return mix(palette(theme).panel, cold, std::sqrt(-t));  // same square-root ramp as heat_color
}

}  // namespace neuralpath::ui::playback
