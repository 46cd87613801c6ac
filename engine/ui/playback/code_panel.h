// code_panel.h: the lesson's code block beside the board, with the lines of the current step
// highlighted (CodeBlock::steps maps playback step names to 1-based lines).
#pragma once
#include "board_paint.h"
#include "engine/lesson/lesson.h"

#include <vector>

namespace neuralpath::ui::playback {

// Height the panel needs at `width`.
float code_panel_height(const Painter& p, const lesson::CodeBlock& code);
// Draws the panel; `lit` are the highlighted 1-based lines.
void draw_code_panel(const Painter& p, ImVec2 pos, float width, const lesson::CodeBlock& code,
                     const std::vector<int>& lit);

}  // namespace neuralpath::ui::playback
