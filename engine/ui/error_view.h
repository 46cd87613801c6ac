// error_view.h: what the page shows instead of a lesson that failed to load — a heading, what
// to do, and every problem as "file:line:col: error: message", the same lines
// `neuralpath-cli check` prints, so an author can go straight to each one.
#pragma once
#include "engine/ui/widget.h"

#include <string>
#include <vector>

namespace neuralpath::ui {

// Draws the panel across `width` at the cursor and moves the cursor below it.
void draw_error_panel(const UiContext& ui, const std::string& lesson_id, const std::vector<std::string>& errors,
                      float width);

}  // namespace neuralpath::ui
