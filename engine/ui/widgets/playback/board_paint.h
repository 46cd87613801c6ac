// board_paint.h: what every part of the board draws with — the draw list, the faces and
// colours of this frame, and a record of every string drawn, so a test can check that each
// number the narrator speaks is on the board (the caption itself is not recorded).
#pragma once
#include "engine/ui/widget.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImVec2 arithmetic (IMGUI_DEFINE_MATH_OPERATORS, 1.86 keeps it here)

#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::ui::playback {

struct Painter {
  const UiContext& ui;
  ImDrawList* draw;
  std::vector<std::string>* drawn;  // strings drawn this frame (nullptr = not recorded)

  ImFont* body() const;  // the faces of UiContext, or ImGui's current font when absent
  ImFont* bold() const;
  ImFont* mono() const;
  ImFont* small() const;
  float body_size() const { return body()->FontSize; }
  float small_size() const { return small()->FontSize; }
  float cell_text_size() const { return mono()->FontSize * 0.78f; }
  const Palette& colors() const { return ui.colors(); }
  float px(float css) const { return ui.px(css); }

  ImVec2 measure(ImFont* font, float size, std::string_view text, float wrap = 0) const;
  // Draws `text`; records it unless `record` is false. Returns its size.
  ImVec2 text(ImVec2 pos, std::string_view text, ImU32 color, ImFont* font = nullptr, float size = 0, float wrap = 0,
              bool record = true) const;
  // Lines of at most `width`, broken at spaces only (ImGui's own wrap also breaks after '.',
  // which would split "13.8%" across two lines). A word wider than `width` gets a line alone.
  std::vector<std::string> wrap(ImFont* font, float size, std::string_view text, float width) const;
  // A tap (press and release without moving) inside [min, max]. No ImGui item is made, so a
  // finger that drags from there still scrolls the page (lesson_page.cpp's drag rule).
  bool tapped(ImVec2 min, ImVec2 max) const;
  // Text centred in a box (clipped to it).
  void centered(ImVec2 min, ImVec2 max, std::string_view text, ImU32 color, ImFont* font, float size) const;
};

// Colours for numbers: weights in [0, 1] use the theme's heat ramp; signed values go from a
// blue (negative) through the panel colour (0) to the heat colour (positive).
ImU32 signed_color(Theme theme, float t);  // t in [-1, 1]
ImU32 mix(ImU32 a, ImU32 b, float t);      // a -> b, t in [0, 1]

}  // namespace neuralpath::ui::playback
