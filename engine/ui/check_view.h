// check_view.h: a knowledge check. The learner picks an option (or ticks several and presses
// Check); the chosen options turn green or red and the feedback written for each says why.
// Then: Try again, Show hint, Show answer. State lives in LessonSession, so the command
// answer{check, option} and a click give the same result.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

void draw_check(PageContext& page, const lesson::Block& block, const lesson::Check& check, float width);

}  // namespace neuralpath::ui
