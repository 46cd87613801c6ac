// callout_view.h: a tinted card that sets a passage apart — a tip, a common mistake, or a
// note — with an icon, a title (the author's, or the kind's own name) and any blocks inside.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

void draw_callout(PageContext& page, const lesson::Callout& callout, float width);

}  // namespace neuralpath::ui
