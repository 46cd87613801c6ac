#include "prose_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/block_view.h"
#include "engine/ui/inline_text.h"

#include <algorithm>
#include <string>

namespace neuralpath::ui {

void draw_paragraph(PageContext& page, const lesson::Block& block, const lesson::Paragraph& paragraph, float width) {
  draw_inline(page, paragraph.text, width, InlineStyle{}, ImGui::GetID(&block));
}

void draw_heading(PageContext& page, const lesson::Block& block, const lesson::Heading& heading, float width) {
  // ### is the largest heading inside a section (## starts a section); deeper ones step down.
  // Glyphs drawn smaller than their atlas size stay sharp, larger ones blur: ### uses the
  // section heading face scaled down rather than the body's bold scaled up.
  InlineStyle style;
  const Fonts* f = page.ui.fonts;
  style.face = f && f->bold ? f->bold : nullptr;
  style.scale = heading.level == 4 ? 1.0f : 0.94f;
  if (heading.level <= 3 && f && f->heading) {
    style.face = style.bold_face = f->heading;
    style.scale = 0.8f;
  }
  style.line_height = 1.3f;
  if (heading.level >= 5) style.color = page.colors().muted;
  vertical_gap(page.px(heading.level <= 3 ? 10 : 4));
  draw_inline(page, heading.text, width, style, ImGui::GetID(&block));
  vertical_gap(page.px(2));
}

void draw_list(PageContext& page, const lesson::ListBlock& list, float width) {
  const Palette& c = page.colors();
  const Fonts* f = page.ui.fonts;
  ImFont* font = f && f->body ? f->body : ImGui::GetFont();
  const float size = page.body_size();
  const float indent = page.px(list.ordered ? 30 : 24);
  const float line = size * InlineStyle{}.line_height;
  static const char* bullets[] = {"•", "◦", "▪"};
  ++page.list_depth;
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    // The marker sits on the first line's baseline, like the text beside it.
    const std::string marker = list.ordered ? std::to_string(list.start + static_cast<int>(i)) + "."
                                            : bullets[std::min(page.list_depth - 1, 2)];
    const float marker_w = font->CalcTextSizeA(size, FLT_MAX, 0, marker.c_str()).x;
    const float text_top = top.y + (line - size) * 0.5f;
    page.draw_list()->AddText(font, size, ImVec2(top.x + indent - marker_w - page.px(8), text_top),
                              list.ordered ? c.muted : c.text, marker.c_str());
    ImGui::SetCursorScreenPos(ImVec2(top.x + indent, top.y));
    draw_blocks(page, list.items[i], width - indent, page.px(4));
    ImGui::SetCursorScreenPos(ImVec2(top.x, std::max(ImGui::GetCursorScreenPos().y, top.y + line)));
  }
  --page.list_depth;
  // Items end with their own small gap; the list as a block takes the usual one after it.
  vertical_gap(-page.px(4));
}

void draw_quote(PageContext& page, const lesson::Quote& quote, float width) {
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float bar = page.px(4), indent = page.px(18);
  ImGui::SetCursorScreenPos(ImVec2(top.x + indent, top.y));
  draw_blocks(page, quote.blocks, width - indent, page.px(page_metrics::block_gap) * 0.6f);
  const float bottom = ImGui::GetCursorScreenPos().y - page.px(page_metrics::block_gap) * 0.6f;
  page.draw_list()->AddRectFilled(top, ImVec2(top.x + bar, bottom), page.colors().border, bar * 0.5f);
  ImGui::SetCursorScreenPos(ImVec2(top.x, bottom));
}

void draw_rule(PageContext& page, float width) {
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float y = top.y + page.px(10);
  page.draw_list()->AddLine(ImVec2(top.x, y), ImVec2(top.x + width, y), page.colors().border, page.px(1));
  move_cursor_to_y(y + page.px(10));
}

ImVec2 draw_level_badge(PageContext& page, lesson::Level level, ImVec2 pos, bool measure_only) {
  if (!*lesson::level_name(level)) return ImVec2(0, 0);
  // The file says "Beginner" in every language; the badge says it in the page's ([levels]).
  const std::string label = tr(std::string("levels.") + lesson::level_name(level));
  const char* name = label.c_str();
  const Palette& c = page.colors();
  const ImU32 tone = level == lesson::Level::Beginner ? c.good
                     : level == lesson::Level::Medium ? c.code_number
                                                      : c.code_keyword;
  const Fonts* f = page.ui.fonts;
  ImFont* font = f && f->bold ? f->bold : ImGui::GetFont();
  const float size = page.body_size() * 0.72f;
  const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, name);
  const ImVec2 box(text.x + page.px(14), text.y + page.px(6));
  if (measure_only) return box;
  ImDrawList* dl = page.draw_list();
  dl->AddRectFilled(pos, pos + box, with_alpha(tone, 0.14f), box.y * 0.5f);
  dl->AddRect(pos, pos + box, with_alpha(tone, 0.55f), box.y * 0.5f, 0, page.px(1));
  dl->AddText(font, size, ImVec2(pos.x + page.px(7), pos.y + page.px(3)), tone, name);
  return box;
}

}  // namespace neuralpath::ui
