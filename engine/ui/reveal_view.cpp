#include "reveal_view.h"

#include "engine/ui/block_view.h"
#include "engine/ui/card.h"
#include "engine/ui/inline_text.h"

namespace neuralpath::ui {

void draw_reveal(PageContext& page, const lesson::Block& block, const lesson::Reveal& reveal, float width) {
  const Palette& c = page.colors();
  const bool open = page.session.reveal_open(block.id);
  const float pad = page.px(page_metrics::card_pad);
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const Fonts* f = page.ui.fonts;
  ImFont* bold = f && f->bold ? f->bold : ImGui::GetFont();
  const float size = page.body_size();

  const ImRect rect = draw_card(page, width, open ? mix(c.page, c.panel, 0.7f) : c.panel, c.border, [&] {
    // The header is the button: a disclosure triangle and the author's label.
    InlineStyle label;
    label.face = bold;
    label.color = c.accent;
    const float arrow_w = page.px(24);
    const float label_h = measure_inline(page, reveal.label, width - 2 * pad - arrow_w, label);
    const ImRect header(top, ImVec2(top.x + width, top.y + label_h + 2 * pad * 0.8f));
    bool hovered = false;
    if (page_button(page, ImGui::GetID("toggle"), header, &hovered)) page.session.set_reveal(block.id, !open);
    if (hovered)
      page.draw_list()->AddRectFilled(header.Min, header.Max, with_alpha(c.accent, 0.07f),
                                      page.px(page_metrics::rounding));
    const char* arrow = open ? "▾" : "▸";
    const float line = size * label.line_height;
    page.draw_list()->AddText(bold, size, ImVec2(top.x + pad, top.y + pad * 0.8f + (line - size) * 0.5f), c.accent,
                              arrow);
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad + arrow_w, top.y + pad * 0.8f));
    draw_inline(page, reveal.label, width - 2 * pad - arrow_w, label, ImGui::GetID("label"));
    ImGui::SetCursorScreenPos(ImVec2(top.x, header.Max.y));
    if (open) {
      page.draw_list()->AddLine(ImVec2(top.x + pad, header.Max.y), ImVec2(top.x + width - pad, header.Max.y), c.border,
                                page.px(1));
      ImGui::SetCursorScreenPos(ImVec2(top.x + pad, header.Max.y + pad));
      draw_blocks(page, reveal.blocks, width - 2 * pad, page.px(12));
      ImGui::SetCursorScreenPos(ImVec2(top.x, ImGui::GetCursorScreenPos().y - page.px(12) + pad));
    }
  });
  page.geometry.reveal_rect[block.id] = rect;
}

}  // namespace neuralpath::ui
