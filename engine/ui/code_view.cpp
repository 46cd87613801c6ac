#include "code_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/card.h"
#include "engine/ui/inline_text.h"
#include "engine/ui/table_view.h"

#include <algorithm>
#include <string>

namespace neuralpath::ui {
namespace {

ImU32 token_color(const Palette& c, lesson::CodeToken::Kind kind) {
  switch (kind) {
    case lesson::CodeToken::Kind::Keyword: return c.code_keyword;
    case lesson::CodeToken::Kind::Builtin: return c.code_builtin;
    case lesson::CodeToken::Kind::String: return c.code_string;
    case lesson::CodeToken::Kind::Number: return c.code_number;
    case lesson::CodeToken::Kind::Comment: return c.code_comment;
    case lesson::CodeToken::Kind::Operator:
    case lesson::CodeToken::Kind::Plain: break;
  }
  return c.text;
}

// Draws `text` from x, expanding tabs to four columns; returns the x after it.
float draw_run(ImDrawList* dl, ImFont* font, float size, float x, float y, ImU32 color, std::string_view text,
               float column_width, float line_start) {
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\t') continue;
    if (i > begin) {
      if (dl) dl->AddText(font, size, ImVec2(x, y), color, text.data() + begin, text.data() + i);
      x += font->CalcTextSizeA(size, FLT_MAX, 0, text.data() + begin, text.data() + i).x;
    }
    if (i < text.size()) {  // a tab: on to the next multiple of four columns
      const float columns = (x - line_start) / column_width;
      x = line_start + (static_cast<float>(static_cast<int>(columns / 4)) + 1) * 4 * column_width;
    }
    begin = i + 1;
  }
  return x;
}

}  // namespace

std::string code_text(const lesson::CodeBlock& code) {
  std::string out;
  for (std::size_t i = 0; i < code.lines.size(); ++i) {
    if (i) out += '\n';
    out += code.lines[i].text;
  }
  return out;
}

void draw_code(PageContext& page, const lesson::Block& block, const lesson::CodeBlock& code, float width) {
  const Palette& c = page.colors();
  const Fonts* f = page.ui.fonts;
  ImFont* mono = f && f->mono ? f->mono : ImGui::GetFont();
  ImFont* small = f && f->small ? f->small : ImGui::GetFont();
  const float size = mono->FontSize;
  const float line_h = std::round(size * 1.5f);
  const float column_w = mono->CalcTextSizeA(size, FLT_MAX, 0, "0").x;
  const float pad = page.px(12);
  const ImGuiID id = ImGui::GetID(&block);

  draw_card(page, width, c.panel, c.border, [&] {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImDrawList* dl = page.draw_list();
    // Header: file name or language on the left, Copy on the right.
    const float header_h = page.px(40);
    const std::string label = !code.file.empty() ? code.file : code.language == "text" ? "" : code.language;
    dl->AddText(small, small->FontSize, ImVec2(top.x + pad, top.y + (header_h - small->FontSize) * 0.5f), c.muted,
                label.c_str());
    const float since = page.time - (page.memory.copied_at.count(id) ? page.memory.copied_at[id] : -100.0f);
    const std::string copied = tr("page.copied");
    const std::string copy_label = since < 2.0f ? copied : tr("page.copy");
    const ImVec2 button = text_button_size(page, copied);
    const ImVec2 button_pos(top.x + width - pad * 0.5f - button.x, top.y + (header_h - button.y) * 0.5f);
    if (text_button(page, "copy", copy_label, button_pos)) {
      ImGui::SetClipboardText(code_text(code).c_str());
      page.memory.copied_at[id] = page.time;
    }
    dl->AddLine(ImVec2(top.x, top.y + header_h), ImVec2(top.x + width, top.y + header_h), c.border, page.px(1));

    // Gutter with line numbers, then the code, which scrolls sideways when too wide.
    const int digits = static_cast<int>(std::to_string(std::max<std::size_t>(1, code.lines.size())).size());
    const float gutter = column_w * static_cast<float>(digits) + page.px(22);
    float widest = 0;
    for (const lesson::CodeLine& line : code.lines)
      widest = std::max(widest, draw_run(nullptr, mono, size, 0, 0, 0, line.text, column_w, 0));
    const float body_top = top.y + header_h + page.px(8);
    const float body_h = line_h * static_cast<float>(code.lines.size());
    const ImRect view(ImVec2(top.x + gutter, body_top), ImVec2(top.x + width - page.px(2), body_top + body_h));
    const float offset = side_scroll_offset(page, id, view, widest + pad * 2);
    for (std::size_t i = 0; i < code.lines.size(); ++i) {
      const float y = body_top + line_h * static_cast<float>(i);
      const bool lit =
          std::find(code.highlight.begin(), code.highlight.end(), static_cast<int>(i) + 1) != code.highlight.end();
      if (lit) {
        dl->AddRectFilled(ImVec2(top.x + page.px(1), y), ImVec2(top.x + width - page.px(1), y + line_h),
                          with_alpha(c.accent, 0.12f));
        dl->AddRectFilled(ImVec2(top.x + page.px(1), y), ImVec2(top.x + page.px(4), y + line_h), c.accent);
      }
      const std::string number = std::to_string(i + 1);
      const float number_w = mono->CalcTextSizeA(size, FLT_MAX, 0, number.c_str()).x;
      const float text_y = y + (line_h - size) * 0.5f;
      dl->AddText(mono, size, ImVec2(top.x + gutter - page.px(12) - number_w, text_y), lit ? c.accent : c.muted,
                  number.c_str());
    }
    ImGui::PushClipRect(view.Min, view.Max, true);
    const float start = view.Min.x + page.px(4) - offset;
    for (std::size_t i = 0; i < code.lines.size(); ++i) {
      const lesson::CodeLine& line = code.lines[i];
      const float y = body_top + line_h * static_cast<float>(i) + (line_h - size) * 0.5f;
      if (!ImGui::IsRectVisible(ImVec2(view.Min.x, y), ImVec2(view.Max.x, y + line_h))) continue;
      float x = start;
      std::size_t done = 0;
      for (const lesson::CodeToken& token : line.tokens) {
        const auto begin = static_cast<std::size_t>(std::clamp(token.begin, 0, static_cast<int>(line.text.size())));
        const auto end = static_cast<std::size_t>(std::clamp(token.end, 0, static_cast<int>(line.text.size())));
        if (begin > done)
          x = draw_run(dl, mono, size, x, y, c.text, std::string_view(line.text).substr(done, begin - done), column_w,
                       start);
        if (end > begin)
          x = draw_run(dl, mono, size, x, y, token_color(c, token.kind),
                       std::string_view(line.text).substr(begin, end - begin), column_w, start);
        done = std::max(done, end);
      }
      if (done < line.text.size())
        draw_run(dl, mono, size, x, y, c.text, std::string_view(line.text).substr(done), column_w, start);
    }
    ImGui::PopClipRect();
    if (offset < widest + pad * 2 - view.GetWidth() - 1) {
      const float fade = page.px(18);
      dl->AddRectFilledMultiColor(ImVec2(view.Max.x - fade, view.Min.y), view.Max, with_alpha(c.panel, 0), c.panel,
                                  c.panel, with_alpha(c.panel, 0));
    }
    // Code wider than the card: a scroll bar under it shows there is more and where the view is
    // (#15: on a phone the cut lines gave no sign that they scroll sideways).
    const float content_w = widest + pad * 2, extra = content_w - view.GetWidth();
    if (extra > 0) {
      const float track_y = view.Max.y + page.px(3), bar_h = page.px(4);
      const float thumb_w = std::max(view.GetWidth() * view.GetWidth() / content_w, page.px(24));
      const float thumb_x = view.Min.x + (view.GetWidth() - thumb_w) * std::clamp(offset / extra, 0.0f, 1.0f);
      dl->AddRectFilled(ImVec2(view.Min.x, track_y), ImVec2(view.Max.x, track_y + bar_h), with_alpha(c.muted, 0.18f),
                        bar_h);
      dl->AddRectFilled(ImVec2(thumb_x, track_y), ImVec2(thumb_x + thumb_w, track_y + bar_h), with_alpha(c.muted, 0.7f),
                        bar_h);
    }
    ImGui::SetCursorScreenPos(ImVec2(top.x, view.Max.y + page.px(extra > 0 ? 12 : 8)));
  });
  if (!code.caption.empty()) {
    vertical_gap(page.px(6));
    InlineStyle caption;
    caption.scale = 0.88f;
    caption.color = c.muted;
    draw_inline(page, code.caption, width, caption, ImGui::GetID("caption"));
  }
}

}  // namespace neuralpath::ui
