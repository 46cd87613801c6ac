// inline_text.h: rich text laid out in lines — the one place prose is measured and wrapped.
//
// A lesson::Inline (spans of plain, bold, italic, struck, `code`, $maths$ and links) becomes
// atoms (a word, a piece of code, an equation), grouped into clusters that may not be split
// ("**bold**," keeps its comma), wrapped to a width and drawn on shared baselines. A word
// longer than the whole line is broken between characters rather than overflowing.
// Links are page buttons: clicking one queues {"type": "openLink", "url": ...}.
#pragma once
#include "engine/ui/page_context.h"

#include <string_view>

namespace neuralpath::ui {

struct InlineStyle {
  ImFont* face = nullptr;       // the regular face (nullptr: body); bold/italic spans switch
  ImFont* bold_face = nullptr;  // face for **bold** (nullptr: fonts.bold)
  float scale = 1;              // text size relative to the face's own size
  ImU32 color = 0;              // 0: the palette's text colour
  float line_height = 1.5f;     // in multiples of the text size
  bool center = false;          // centre each line (captions)
  bool right = false;           // push each line to the right edge (numbers in tables)
};

// Draws `text` wrapped to `width` at the cursor and moves the cursor below it. `id` keeps
// link buttons apart between paragraphs. Returns the height drawn.
float draw_inline(PageContext& page, const lesson::Inline& text, float width, const InlineStyle& style, ImGuiID id);
// The height draw_inline would take, without drawing.
float measure_inline(PageContext& page, const lesson::Inline& text, float width, const InlineStyle& style);
// The width of `text` on one line (no wrapping).
float inline_natural_width(PageContext& page, const lesson::Inline& text, const InlineStyle& style);
// The width of the longest unbreakable piece (the narrowest the text can be wrapped to).
float inline_min_width(PageContext& page, const lesson::Inline& text, const InlineStyle& style);

// Plain UI text (labels, feedback), wrapped the same way.
float draw_text(PageContext& page, std::string_view text, float width, const InlineStyle& style);
lesson::Inline plain_inline(std::string_view text);

}  // namespace neuralpath::ui
