#include "callout_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/block_view.h"
#include "engine/ui/card.h"
#include "engine/ui/inline_text.h"

namespace neuralpath::ui {

void draw_callout(PageContext& page, const lesson::Callout& callout, float width) {
  const Palette& c = page.colors();
  const ImU32 tone = callout.kind == lesson::Callout::Kind::Tip       ? c.tip
                     : callout.kind == lesson::Callout::Kind::Mistake ? c.bad
                                                                      : c.accent;
  const char* icon = callout.kind == lesson::Callout::Kind::Tip       ? "★"
                     : callout.kind == lesson::Callout::Kind::Mistake ? "⚠"
                                                                      : "✎";
  const std::string name = tr(callout.kind == lesson::Callout::Kind::Tip       ? "page.tip"
                              : callout.kind == lesson::Callout::Kind::Mistake ? "page.mistake"
                                                                               : "page.note");
  const float pad = page.px(page_metrics::card_pad), bar = page.px(4);
  draw_card(page, width, mix(c.page, tone, 0.08f), 0, [&] {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float inner = width - 2 * pad - bar;
    const float x = top.x + bar + pad;
    ImGui::SetCursorScreenPos(ImVec2(x, top.y + pad));
    // Title row: the icon, then the author's title or the kind's name, in the callout's colour.
    const Fonts* f = page.ui.fonts;
    ImFont* bold = f && f->bold ? f->bold : ImGui::GetFont();
    const float size = page.body_size();
    const float icon_w = bold->CalcTextSizeA(size, FLT_MAX, 0, icon).x + page.px(8);
    const float line = size * InlineStyle{}.line_height;
    page.draw_list()->AddText(bold, size, ImVec2(x, top.y + pad + (line - size) * 0.5f), tone, icon);
    ImGui::SetCursorScreenPos(ImVec2(x + icon_w, top.y + pad));
    InlineStyle title;
    title.face = bold;
    title.color = tone;
    if (callout.title.empty())
      draw_text(page, name, inner - icon_w, title);
    else
      draw_inline(page, callout.title, inner - icon_w, title, ImGui::GetID("title"));
    ImGui::SetCursorScreenPos(ImVec2(x, ImGui::GetCursorScreenPos().y + page.px(4)));
    draw_blocks(page, callout.blocks, inner, page.px(10));
    const float bottom = ImGui::GetCursorScreenPos().y - page.px(10) + pad;
    page.draw_list()->AddRectFilled(top, ImVec2(top.x + bar, bottom), tone, page.px(page_metrics::rounding),
                                    ImDrawFlags_RoundCornersLeft);
    ImGui::SetCursorScreenPos(ImVec2(top.x, bottom));
  });
}

}  // namespace neuralpath::ui
