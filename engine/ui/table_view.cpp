#include "table_view.h"

#include "engine/ui/inline_text.h"

#include <algorithm>
#include <numeric>

namespace neuralpath::ui {

float side_scroll_offset(PageContext& page, ImGuiID id, const ImRect& visible, float content_width) {
  const float max = std::max(0.0f, content_width - visible.GetWidth());
  float& offset = page.memory.side_offset[id];
  offset = std::clamp(offset, 0.0f, max);
  if (max > 0) page.geometry.side_scroll.push_back({id, visible, max});
  return offset;
}

void draw_table(PageContext& page, const lesson::Block& block, const lesson::Table& table, float width) {
  const std::size_t columns = table.header.size();
  if (columns == 0) return;
  const Palette& c = page.colors();
  const Fonts* f = page.ui.fonts;
  InlineStyle body;
  body.scale = 0.94f;
  body.line_height = 1.4f;
  InlineStyle head = body;
  head.face = f && f->bold ? f->bold : nullptr;
  const float pad_x = page.px(10), pad_y = page.px(7);

  // Column widths: each column's natural (one-line) width when everything fits; otherwise the
  // spare room goes to the columns that would wrap most; never below their longest word.
  std::vector<float> natural(columns, 0), least(columns, page.px(48));
  auto cell_style = [&](std::size_t row) -> const InlineStyle& { return row == 0 ? head : body; };
  for (std::size_t r = 0; r <= table.rows.size(); ++r) {
    const auto& cells = r == 0 ? table.header : table.rows[r - 1];
    for (std::size_t col = 0; col < columns && col < cells.size(); ++col) {
      natural[col] = std::max(natural[col], inline_natural_width(page, cells[col], cell_style(r)) + 2 * pad_x);
      least[col] = std::max(least[col], inline_min_width(page, cells[col], cell_style(r)) + 2 * pad_x);
    }
  }
  for (std::size_t col = 0; col < columns; ++col) natural[col] = std::max(natural[col], least[col]);
  const float sum_natural = std::accumulate(natural.begin(), natural.end(), 0.0f);
  const float sum_least = std::accumulate(least.begin(), least.end(), 0.0f);
  std::vector<float> widths(columns);
  if (sum_natural <= width) {
    for (std::size_t col = 0; col < columns; ++col) widths[col] = natural[col] * width / sum_natural;
  } else if (sum_least <= width) {
    const float spare = width - sum_least, wants = sum_natural - sum_least;
    for (std::size_t col = 0; col < columns; ++col)
      widths[col] = least[col] + (wants > 0 ? spare * (natural[col] - least[col]) / wants : 0);
  } else {
    widths = least;
  }
  const float table_width = std::accumulate(widths.begin(), widths.end(), 0.0f);

  // Row heights from the wrapped cells.
  std::vector<float> heights(table.rows.size() + 1, 0);
  for (std::size_t r = 0; r < heights.size(); ++r) {
    const auto& cells = r == 0 ? table.header : table.rows[r - 1];
    for (std::size_t col = 0; col < columns && col < cells.size(); ++col)
      heights[r] = std::max(heights[r], measure_inline(page, cells[col], widths[col] - 2 * pad_x, cell_style(r)));
    heights[r] += 2 * pad_y;
  }
  const float total_height = std::accumulate(heights.begin(), heights.end(), 0.0f);

  const ImVec2 top = ImGui::GetCursorScreenPos();
  const ImRect frame(top, ImVec2(top.x + width, top.y + total_height));
  const float offset = side_scroll_offset(page, ImGui::GetID("table"), frame, table_width);
  ImDrawList* dl = page.draw_list();
  ImGui::PushClipRect(frame.Min, frame.Max, true);
  float y = top.y;
  for (std::size_t r = 0; r < heights.size(); ++r) {
    const auto& cells = r == 0 ? table.header : table.rows[r - 1];
    const ImVec2 row_min(top.x - offset, y), row_max(top.x - offset + table_width, y + heights[r]);
    if (r == 0)
      dl->AddRectFilled(row_min, row_max, c.panel);
    else if (r % 2 == 0)
      dl->AddRectFilled(row_min, row_max, with_alpha(c.panel, 0.55f));
    dl->AddLine(ImVec2(row_min.x, row_max.y), ImVec2(row_max.x, row_max.y), c.border, page.px(r == 0 ? 1.5f : 1.0f));
    float x = top.x - offset;
    for (std::size_t col = 0; col < columns; ++col) {
      if (col < cells.size()) {
        const lesson::Table::Align align = col < table.align.size() ? table.align[col] : lesson::Table::Align::Default;
        const float inner = widths[col] - 2 * pad_x;
        InlineStyle style = cell_style(r);
        style.center = align == lesson::Table::Align::Center;
        style.right = align == lesson::Table::Align::Right;
        ImGui::SetCursorScreenPos(ImVec2(x + pad_x, y + pad_y));
        ImGui::PushID(static_cast<int>(r * columns + col));
        draw_inline(page, cells[col], inner, style, ImGui::GetID("cell"));
        ImGui::PopID();
      }
      x += widths[col];
    }
    y += heights[r];
  }
  ImGui::PopClipRect();
  if (table_width > width) {
    // A fade on the cut edge says there is more to the side.
    const float fade = page.px(18);
    dl->AddRectFilledMultiColor(ImVec2(frame.Max.x - fade, frame.Min.y), frame.Max, with_alpha(c.page, 0), c.page,
                                c.page, with_alpha(c.page, 0));
  }
  (void)block;
  ImGui::SetCursorScreenPos(ImVec2(top.x, frame.Max.y));
}

}  // namespace neuralpath::ui
