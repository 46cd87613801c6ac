// toc_view.h: the table of contents — the lesson's title and level, then one entry per section
// with its level badge and whether its checks are done; the current section is marked. Drawn
// in the side column on wide screens and in the drawer on phones (lesson_page.h decides).
#pragma once
#include "engine/ui/page_context.h"

#include <string>

namespace neuralpath::ui {

// Draws the contents across `width` at the cursor; returns the anchor of the section the
// learner picked, or "" when none was picked this frame.
std::string draw_toc(PageContext& page, float width);

}  // namespace neuralpath::ui
