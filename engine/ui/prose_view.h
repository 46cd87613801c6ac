// prose_view.h: paragraphs, headings inside a section, bulleted and numbered lists, quotes
// and horizontal rules. The text itself is laid out by inline_text.h.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

void draw_paragraph(PageContext& page, const lesson::Block& block, const lesson::Paragraph& paragraph, float width);
void draw_heading(PageContext& page, const lesson::Block& block, const lesson::Heading& heading, float width);
void draw_list(PageContext& page, const lesson::ListBlock& list, float width);
void draw_quote(PageContext& page, const lesson::Quote& quote, float width);
void draw_rule(PageContext& page, float width);

// The pill that names a level ("Beginner", "Medium", "Advanced") at `pos`; returns its size.
// `measure_only` skips drawing.
ImVec2 draw_level_badge(PageContext& page, lesson::Level level, ImVec2 pos, bool measure_only = false);

}  // namespace neuralpath::ui
