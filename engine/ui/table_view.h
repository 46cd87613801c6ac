// table_view.h: a Markdown table — a bold header row, striped body rows, per-column alignment.
// Columns share the width by how much text they hold; a table too wide for a phone keeps
// readable columns and scrolls sideways (drag, shift+wheel) inside its own frame.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

void draw_table(PageContext& page, const lesson::Block& block, const lesson::Table& table, float width);

// Sideways scroll for a region wider than the column: clamps the remembered offset for `id`,
// registers the region with the page's drag handling, and returns the offset to draw with.
float side_scroll_offset(PageContext& page, ImGuiID id, const ImRect& visible, float content_width);

}  // namespace neuralpath::ui
