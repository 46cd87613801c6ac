// Theme: the colours and measures every view draws with, for light and dark pages.
// Views ask the palette for a role ("accent", "good") instead of writing colours inline, so a
// theme change (or a new theme) touches this file only.
#pragma once
#include <imgui.h>

namespace neuralpath::ui {

enum class Theme { light, dark };

struct Palette {
  ImU32 page;    // canvas background
  ImU32 text;    // body text
  ImU32 muted;   // captions, axis labels
  ImU32 accent;  // links, the current step, focus rings
  ImU32 good;    // correct answers
  ImU32 bad;     // incorrect answers, the "mistake" callout
  ImU32 tip;     // the "tip" callout
  ImU32 panel;   // cards behind widgets, code and callouts
  ImU32 border;  // card outlines, grid lines
  ImU32 masked;  // masked (blocked) attention cells
  ImU32 code_keyword, code_builtin, code_string, code_number, code_comment;
};

const Palette& palette(Theme theme);

// Heat colour for a weight in [0, 1]: pale to saturated, readable in both themes. Values
// outside [0, 1] are clamped.
ImU32 heat_color(Theme theme, float weight);
// Black or white, whichever reads better on `background`.
ImU32 text_on(ImU32 background);

// Applies the palette to ImGui's own style colours (buttons, frames, scrollbars).
void apply_imgui_style(Theme theme);

}  // namespace neuralpath::ui
