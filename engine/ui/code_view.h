// code_view.h: a code block — a header with the file name (or language) and a Copy button,
// line numbers in a gutter, Python (and C++/JS) syntax colours from lesson::CodeToken, lines
// the author highlighted, and a sideways scroll for lines longer than a phone is wide.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

void draw_code(PageContext& page, const lesson::Block& block, const lesson::CodeBlock& code, float width);

// The block's source as one string (what Copy puts on the clipboard).
std::string code_text(const lesson::CodeBlock& code);

}  // namespace neuralpath::ui
