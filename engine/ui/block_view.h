// block_view.h: the reading flow — each lesson block drawn by its view, one under the other.
//
//   Paragraph, Heading, ListBlock, Quote, Rule   prose_view.h
//   Table                                        table_view.h
//   Check                                        check_view.h
//   Reveal                                       reveal_view.h
//   Callout                                      callout_view.h
//   EquationBlock                                equation_view.h
//   CodeBlock                                    code_view.h
//   WidgetBlock                                  the Widget made for the block
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

// Draws `blocks` across `width` at the cursor, `gap` device pixels apart (and after the last).
void draw_blocks(PageContext& page, const lesson::Blocks& blocks, float width, float gap);
void draw_block(PageContext& page, const lesson::Block& block, float width);

}  // namespace neuralpath::ui
