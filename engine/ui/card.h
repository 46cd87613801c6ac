// card.h: draw_card() — a background drawn after its content, on a layer beneath it.
// `body` runs first on a foreground layer at the cursor; then the card, sized to what was
// drawn, goes underneath. Used by callouts, reveals, checks and code. Returns its rectangle.
#pragma once
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

template <class Body>
ImRect draw_card(PageContext& page, float width, ImU32 fill, ImU32 border, Body&& body) {
  ImDrawList* dl = page.draw_list();
  // One splitter per card: cards nest (a callout inside a reveal), and ImDrawList's own
  // splitter cannot.
  ImDrawListSplitter splitter;
  splitter.Split(dl, 2);
  splitter.SetCurrentChannel(dl, 1);
  const ImVec2 top = ImGui::GetCursorScreenPos();
  body();
  const ImVec2 end = ImGui::GetCursorScreenPos();
  const ImRect rect(top, ImVec2(top.x + width, end.y));
  splitter.SetCurrentChannel(dl, 0);
  const float rounding = page.px(page_metrics::rounding);
  if (fill) dl->AddRectFilled(rect.Min, rect.Max, fill, rounding);
  if (border) dl->AddRect(rect.Min, rect.Max, border, rounding, 0, page.px(1));
  splitter.Merge(dl);
  ImGui::SetCursorScreenPos(ImVec2(top.x, end.y));
  return rect;
}

}  // namespace neuralpath::ui
