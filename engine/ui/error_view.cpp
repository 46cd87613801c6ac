#include "error_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/page_context.h"

#include <imgui.h>

#include <algorithm>

namespace neuralpath::ui {
namespace {

// Wrapped text in one face at the cursor; returns the height.
float wrapped(ImFont* font, float size, ImU32 color, const std::string& text, float width) {
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImVec2 box = font->CalcTextSizeA(size, FLT_MAX, width, text.c_str());
  ImGui::GetWindowDrawList()->AddText(font, size, pos, color, text.c_str(), nullptr, width);
  ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + box.y));
  return box.y;
}

}  // namespace

void draw_error_panel(const UiContext& ui, const std::string& lesson_id, const std::vector<std::string>& errors,
                      float width) {
  const Palette& c = ui.colors();
  ImFont* fallback = ImGui::GetFont();
  ImFont* heading = ui.fonts && ui.fonts->heading ? ui.fonts->heading : fallback;
  ImFont* body = ui.fonts && ui.fonts->body ? ui.fonts->body : fallback;
  ImFont* mono = ui.fonts && ui.fonts->mono ? ui.fonts->mono : fallback;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float pad = ui.px(18), bar = ui.px(5);
  const float inner = width - 2 * pad - bar;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImDrawListSplitter layers;
  layers.Split(dl, 3);  // 0: the card, 1: row tints, 2: text
  layers.SetCurrentChannel(dl, 2);
  ImGui::SetCursorScreenPos(ImVec2(top.x + bar + pad, top.y + pad));
  wrapped(heading, heading->FontSize, c.bad, tr("page.error_title"), inner);
  ImGui::SetCursorScreenPos(ImVec2(top.x + bar + pad, ImGui::GetCursorScreenPos().y + ui.px(8)));
  const std::string count =
      tr_n("page.problems", static_cast<long long>(errors.size()), {{"n", std::to_string(errors.size())}});
  wrapped(body, body->FontSize, c.text, tr("page.error_text", {{"id", lesson_id}, {"count", count}}), inner);
  for (const std::string& error : errors) {
    ImGui::SetCursorScreenPos(ImVec2(top.x + bar + pad, ImGui::GetCursorScreenPos().y + ui.px(10)));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float h = mono->CalcTextSizeA(mono->FontSize, FLT_MAX, inner - ui.px(12), error.c_str()).y;
    layers.SetCurrentChannel(dl, 1);
    dl->AddRectFilled(ImVec2(at.x - ui.px(8), at.y - ui.px(4)), ImVec2(at.x + inner, at.y + h + ui.px(4)),
                      with_alpha(c.bad, 0.08f), ui.px(4));
    layers.SetCurrentChannel(dl, 2);
    wrapped(mono, mono->FontSize, c.text, error, inner - ui.px(12));
  }
  const float bottom = ImGui::GetCursorScreenPos().y + pad;
  layers.SetCurrentChannel(dl, 0);
  dl->AddRectFilled(top, ImVec2(top.x + width, bottom), c.panel, ui.px(8));
  dl->AddRectFilled(top, ImVec2(top.x + bar, bottom), c.bad, ui.px(8), ImDrawFlags_RoundCornersLeft);
  layers.Merge(dl);
  ImGui::SetCursorScreenPos(ImVec2(top.x, bottom));
}

}  // namespace neuralpath::ui
