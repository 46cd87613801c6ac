// reveal_view.h: a hidden passage behind a button ("Why not 0?"). Clicking the button (or the
// command reveal{id}) opens it; the open state is kept in the learner's progress.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

void draw_reveal(PageContext& page, const lesson::Block& block, const lesson::Reveal& reveal, float width);

}  // namespace neuralpath::ui
