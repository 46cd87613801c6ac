// code_panel.h: the lesson's code block beside the board, with the lines of the current step
// highlighted (CodeBlock::steps maps playback step names to 1-based lines).
#pragma once
#include "board_paint.h"
#include "engine/lesson/lesson.h"

#include <vector>

namespace neuralpath::ui::playback {

// The lines shown: at most `max_lines` of them, placed so the lit lines sit in the middle
// (a long listing then never pushes the caption and the controls off the screen).
struct CodeWindow {
  int first = 1, last = 0;
};  // 1-based, inclusive
CodeWindow code_window(const lesson::CodeBlock& code, const std::vector<int>& lit, int max_lines);

// Height of the panel showing `window`.
float code_panel_height(const Painter& p, const lesson::CodeBlock& code, CodeWindow window);
// Draws the panel; `lit` are the highlighted 1-based lines.
void draw_code_panel(const Painter& p, ImVec2 pos, float width, const lesson::CodeBlock& code,
                     const std::vector<int>& lit, CodeWindow window);

}  // namespace neuralpath::ui::playback
