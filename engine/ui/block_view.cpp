#include "block_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/callout_view.h"
#include "engine/ui/check_view.h"
#include "engine/ui/code_view.h"
#include "engine/ui/equation_view.h"
#include "engine/ui/inline_text.h"
#include "engine/ui/prose_view.h"
#include "engine/ui/reveal_view.h"
#include "engine/ui/table_view.h"
#include "engine/ui/widgets/kit.h"

#include <cmath>
#include <cstdint>

#include <variant>

namespace neuralpath::ui {
namespace {

// Under a widget, outside its rectangle (so an exported picture never shows them): "Save
// image", and the heatmap's numbers as CSV. The page's JS does the export (np-share.js); the
// event names the block, and the App swaps that for the widget's id.
void draw_export_row(PageContext& page, const lesson::Block& block, const Widget& widget, float width) {
  std::vector<std::pair<std::string, const char*>> actions = {{tr("share.save_image"), "png"}};
  if (std::string_view(widget.kind()) == "heatmap") actions.push_back({tr("share.save_csv"), "csv"});
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float padding = page.px(12), spacing = page.px(8);
  float row = 0;
  for (const auto& [label, format] : actions)
    row += ImGui::CalcTextSize(label.c_str()).x + 2 * padding + (row > 0 ? spacing : 0);
  ImGui::SetCursorScreenPos(ImVec2(start.x + std::max(0.0f, width - row), start.y + page.px(6)));
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (i > 0) ImGui::SameLine(0, spacing);
    ImGui::PushID(actions[i].second);
    if (kit::button(page.ui, actions[i].first.c_str()))
      page.events.push_back({{"type", "export"},
                             {"format", actions[i].second},
                             {"block", static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&block))}});
    ImGui::PopID();
  }
  (void)style;
  ImGui::SetCursorScreenPos(ImVec2(start.x, ImGui::GetItemRectMax().y));
}

// The interactive view made for a widget block, drawn across the column.
void draw_widget(PageContext& page, const lesson::Block& block, float width) {
  const ImVec2 top = ImGui::GetCursorScreenPos();
  auto it = page.widgets.find(&block);
  if (it != page.widgets.end() && it->second) {
    // A widget lays itself out with ImGui's cursor and content region. Inside a callout or a
    // list the flow is narrower than the window, so both edges move in for the widget's sake:
    // the left through the indent, the right through the region ImGui measures against.
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float indent = top.x - (window->Pos.x + window->DC.Indent.x + window->DC.ColumnsOffset.x);
    const float saved_content = window->ContentRegionRect.Max.x, saved_work = window->WorkRect.Max.x;
    window->ContentRegionRect.Max.x = window->WorkRect.Max.x = top.x + width;
    if (indent != 0) ImGui::Indent(indent);
    ImGui::PushItemWidth(width);
    it->second->draw(page.ui);
    ImGui::PopItemWidth();
    if (indent != 0) ImGui::Unindent(indent);
    window->ContentRegionRect.Max.x = saved_content;
    window->WorkRect.Max.x = saved_work;
  } else {
    // No view for this block (the engine refused its sentence when the page opened): say so
    // in place instead of leaving a silent hole in the lesson.
    const Palette& c = page.colors();
    InlineStyle muted;
    muted.color = c.muted;
    const float pad = page.px(page_metrics::card_pad);
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad));
    draw_text(page, tr("page.widget_failed"), width - 2 * pad, muted);
    const float bottom = ImGui::GetCursorScreenPos().y + pad;
    page.draw_list()->AddRect(top, ImVec2(top.x + width, bottom), c.border, page.px(page_metrics::rounding), 0,
                              page.px(1));
    ImGui::SetCursorScreenPos(ImVec2(top.x, bottom));
  }
  const float bottom = ImGui::GetCursorScreenPos().y;
  page.geometry.widget_rect[&block] = ImRect(top, ImVec2(top.x + width, bottom));
  ImGui::SetCursorScreenPos(ImVec2(top.x, bottom));  // widgets end wherever ImGui put the cursor
  if (it != page.widgets.end() && it->second) draw_export_row(page, block, *it->second, width);
}

}  // namespace

void draw_block(PageContext& page, const lesson::Block& block, float width) {
  ImGui::PushID(&block);
  std::visit(
      [&](const auto& content) {
        using T = std::decay_t<decltype(content)>;
        if constexpr (std::is_same_v<T, lesson::Paragraph>)
          draw_paragraph(page, block, content, width);
        else if constexpr (std::is_same_v<T, lesson::Heading>)
          draw_heading(page, block, content, width);
        else if constexpr (std::is_same_v<T, lesson::ListBlock>)
          draw_list(page, content, width);
        else if constexpr (std::is_same_v<T, lesson::Quote>)
          draw_quote(page, content, width);
        else if constexpr (std::is_same_v<T, lesson::Rule>)
          draw_rule(page, width);
        else if constexpr (std::is_same_v<T, lesson::Table>)
          draw_table(page, block, content, width);
        else if constexpr (std::is_same_v<T, lesson::Check>)
          draw_check(page, block, content, width);
        else if constexpr (std::is_same_v<T, lesson::Reveal>)
          draw_reveal(page, block, content, width);
        else if constexpr (std::is_same_v<T, lesson::Callout>)
          draw_callout(page, content, width);
        else if constexpr (std::is_same_v<T, lesson::EquationBlock>)
          draw_equation_block(page, content, width);
        else if constexpr (std::is_same_v<T, lesson::CodeBlock>)
          draw_code(page, block, content, width);
        else
          draw_widget(page, block, width);
      },
      block.content);
  ImGui::PopID();
}

void draw_blocks(PageContext& page, const lesson::Blocks& blocks, float width, float gap) {
  const float x = ImGui::GetCursorScreenPos().x;
  for (const lesson::Block& block : blocks) {
    // Each block starts on a whole device pixel (the page scrolls by whole pixels too). Dear
    // ImGui rounds its items' places toward zero, so a figure begun at a fraction of a pixel
    // was laid out a pixel or two taller once its top had scrolled above the screen: its parts
    // moved as the page scrolled, and "Save image" stitched them with a seam (#34).
    ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, std::floor(ImGui::GetCursorScreenPos().y)));
    draw_block(page, block, width);
    ImGui::SetCursorScreenPos(ImVec2(x, ImGui::GetCursorScreenPos().y + gap));
  }
}

}  // namespace neuralpath::ui
