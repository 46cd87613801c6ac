// grid.cpp: the token × token grid shared by the heatmap and the mask steps (see grid.h).
#include "engine/ui/widgets/grid.h"

#include "engine/text/catalogue.h"
#include "engine/ui/widgets/kit.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace neuralpath::ui {

GridSpec token_grid(const char* id, const Trace& trace, std::optional<Cell> selected) {
  GridSpec grid;
  grid.id = id;
  grid.rows = grid.cols = trace.labels;
  grid.selected = selected;
  grid.corner = tr("widgets.grid_corner");
  return grid;
}

void add_row_sums(GridSpec& grid, std::vector<std::string> sums, ImU32 color, std::function<Explanation(int)> explain) {
  grid.row_end_title = tr("widgets.row_sum");
  grid.row_end_color.assign(sums.size(), color);
  grid.row_end = std::move(sums);
  grid.explain_row_end = std::move(explain);
}

int pick_head(const UiContext& ui, int heads, int current, float width) {
  if (heads <= 1) return -1;
  std::vector<std::string> names;
  for (int h = 0; h < heads; ++h) names.push_back(tr("widgets.head", {{"n", std::to_string(h + 1)}}));
  const int picked = kit::segmented(ui, "head", names, current, width);
  return picked != current ? picked : -1;
}

namespace {

// Inside a grid's sideways-scrolling child window: a sideways drag that starts on the grid
// scrolls it instead of picking the cell it started on (#34: on a phone a sideways swipe lit a
// cell and the grid stayed where it was; the page's TouchGesture hands sideways moves to ImGui
// for sliders and timelines, so here they arrive as a press on a cell that moves). And the
// column spec.show_col is brought into view when the grid first shows or it changes.
void scroll_sideways(const UiContext& ui, const GridSpec& spec, int cols, float cell_w, float label_w) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID dragging_key = ImGui::GetID("##dragging"), shown_key = ImGui::GetID("##shown-col");
  bool& dragging = *storage->GetBoolRef(dragging_key, false);
  const ImVec2 min = ImGui::GetWindowPos(), max(min.x + ImGui::GetWindowWidth(), min.y + ImGui::GetWindowHeight());
  const ImVec2 from = io.MouseClickedPos[0];
  const bool pressed_here =
      ImGui::IsMouseDown(0) && from.x >= min.x && from.x < max.x && from.y >= min.y && from.y < max.y;
  if (!pressed_here) {
    dragging = false;
  } else if (!dragging) {
    const ImVec2 moved = ImGui::GetMouseDragDelta(0, 0.0f);
    if (std::fabs(moved.x) > ui.px(8) && std::fabs(moved.x) > std::fabs(moved.y) &&
        ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) {
      dragging = true;
      if (ImGui::GetActiveID() != 0) ImGui::ClearActiveID();  // the cell it started on is not picked
      ImGui::SetScrollX(ImGui::GetScrollX() - moved.x);       // the whole way from where it landed
    }
  } else {
    ImGui::SetScrollX(ImGui::GetScrollX() - io.MouseDelta.x);
  }
  // show_col, centred in what the cells have of the width (-1: none asked).
  const int want = spec.show_col && *spec.show_col >= 0 && *spec.show_col < cols ? *spec.show_col : -1;
  int& shown = *storage->GetIntRef(shown_key, -2);
  if (want != shown && ImGui::GetScrollMaxX() > 0) {  // once the child knows its width (its second frame)
    shown = want;
    if (want >= 0) {
      const float view = ImGui::GetWindowWidth() - label_w;
      ImGui::SetScrollX(std::max(0.0f, cell_w * (static_cast<float>(want) + 0.5f) - view * 0.5f));
    }
  }
}

}  // namespace

GridResult draw_grid(const UiContext& ui, const GridSpec& spec, float width, Explainer& explain) {
  const Palette& c = ui.colors();
  ImFont* body = kit::font(ui, kit::Face::body);
  ImFont* small = kit::font(ui, kit::Face::small);
  const int rows = static_cast<int>(spec.rows.size());
  const int cols = static_cast<int>(spec.cols.size());
  const bool has_end = !spec.row_end.empty();
  GridResult result;

  // [measure] cells are sized by their widest text; the label column by the longest token.
  // `widest`: every text at full length; `narrowest`: blocked cells down to their fallback.
  std::vector<GridCell> cells(static_cast<std::size_t>(rows * cols));
  float widest = 0, narrowest = 0;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k) {
      GridCell& cell = cells[static_cast<std::size_t>(r * cols + k)] = spec.cell(r, k);
      const float full = kit::text_size(small, cell.text).x;
      widest = std::max(widest, full);
      narrowest = std::max(narrowest, cell.fallback.empty() ? full : kit::text_size(small, cell.fallback).x);
    }
  const float pad = ui.px(6);
  float label_w = 0;
  for (const std::string& s : spec.rows) label_w = std::max(label_w, kit::text_size(body, s).x);
  label_w = std::min(label_w + 2 * pad, std::max(width * 0.28f, ui.px(56)));
  // The row-end column has its title on one line where the cells keep their full width anyway;
  // where they would not, it is as wide as its numbers (or the title's longest word) and the title
  // wraps in the header above it ("suma de la fila" on a phone cost the grid a sideways scroll).
  float end_w = 0;
  std::vector<std::string> end_title;
  if (has_end) {
    float numbers_w = 0, word_w = 0;
    for (const std::string& s : spec.row_end) numbers_w = std::max(numbers_w, kit::text_size(small, s).x);
    for (std::size_t at = 0; at < spec.row_end_title.size();) {
      const std::size_t space = std::min(spec.row_end_title.find(' ', at), spec.row_end_title.size());
      word_w = std::max(word_w, kit::text_size(small, spec.row_end_title.substr(at, space - at)).x);
      at = space + 1;
    }
    const float one_line = std::max(numbers_w, kit::text_size(small, spec.row_end_title).x) + 2 * pad;
    const bool roomy = cols > 0 && (width - label_w - one_line) / static_cast<float>(cols) >= widest + ui.px(8);
    end_w = roomy ? one_line : std::max(numbers_w, word_w) + 2 * pad;
    end_title = roomy ? std::vector<std::string>{spec.row_end_title}
                      : kit::wrap_lines(small, spec.row_end_title, end_w - 2 * pad + ui.px(1));
  }
  float header_h = 0;
  for (const std::string& s : spec.cols) header_h = std::max(header_h, kit::text_size(small, s).x);
  header_h = std::min(header_h, ui.px(84)) + pad;
  header_h = std::max(header_h, static_cast<float>(end_title.size()) * small->FontSize + pad);
  // Cells share the width up to 80 px each; when that is too narrow for every text, they may
  // shrink to the fallbacks with a tight margin; only below that does the grid scroll.
  const float fit = cols > 0 ? (width - label_w - end_w) / static_cast<float>(cols) : 0;
  float cell_w = std::min(fit, ui.px(80));
  // The fallback's margin is the one the cells' fit test below uses (3 px): Spanish percentages
  // ("35,8 %", with a no-break space) overflowed a 375 px heatmap by 1.7 px at 4 px.
  if (cell_w < widest + ui.px(8)) cell_w = std::max(fit, narrowest + ui.px(3));
  cell_w = std::max(cell_w, ui.px(30));
  const float cell_h = std::clamp(cell_w * 0.6f, small->FontSize + ui.px(10), ui.px(40));
  const float total_w = label_w + cell_w * static_cast<float>(cols) + end_w;
  const float total_h = header_h + cell_h * static_cast<float>(rows);

  // [scroll] a phone cannot fit 12 columns of "41.2%": the grid then scrolls sideways.
  const bool scroll = total_w > width + 0.5f;
  if (scroll) {
    ImGui::BeginChild(spec.id, ImVec2(width, total_h + ImGui::GetStyle().ScrollbarSize + ui.px(6)), false,
                      ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  }
  ImGui::PushID(spec.id);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float grid_x = origin.x + label_w, grid_y = origin.y + header_h;
  // Scrolled sideways, the row labels stay at the grid's left edge and the cells pass under
  // them (#34: on a phone the labels scrolled away with the columns); nothing under the labels
  // can be tapped.
  const float labels_x = scroll ? ImGui::GetWindowPos().x : origin.x;
  if (scroll) {
    scroll_sideways(ui, spec, cols, cell_w, label_w);
    ImGui::PushClipRect(ImVec2(labels_x + label_w, -FLT_MAX), ImVec2(FLT_MAX, FLT_MAX), true);
  }

  // [cells] each is a button: hover or focus previews it, click or Enter picks it.
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k) {
      const GridCell& cell = cells[static_cast<std::size_t>(r * cols + k)];
      const ImVec2 min(grid_x + cell_w * static_cast<float>(k), grid_y + cell_h * static_cast<float>(r));
      const ImVec2 max(min.x + cell_w, min.y + cell_h);
      const ImVec2 inner_min(min.x + ui.px(1), min.y + ui.px(1)), inner_max(max.x - ui.px(1), max.y - ui.px(1));
      ImGui::SetCursorScreenPos(min);
      ImGui::PushID(r * cols + k);
      if (ImGui::InvisibleButton("##cell", ImVec2(cell_w, cell_h)) ||
          (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)))
        result.picked = Cell{r, k};
      if (ImGui::IsItemHovered() || ImGui::IsItemFocused()) result.hovered = Cell{r, k};
      ImGui::PopID();
      const ImU32 fill = cell.blocked ? c.masked : cell.fill ? cell.fill : c.page;
      draw->AddRectFilled(inner_min, inner_max, fill, ui.px(3));
      if (cell.blocked) kit::hatch(draw, inner_min, inner_max, kit::fade(c.muted, 0.35f), ui.px(6), ui.px(1));
      const bool fits = spec.fallback_together ? widest <= cell_w - ui.px(3)
                                               : kit::text_size(small, cell.text).x <= cell_w - ui.px(3);
      const std::string& text = fits ? cell.text : cell.fallback;
      if (!text.empty()) {
        const ImVec2 size = kit::text_size(small, text);
        draw->AddText(small, small->FontSize,
                      ImVec2(min.x + (cell_w - size.x) * 0.5f, min.y + (cell_h - size.y) * 0.5f),
                      cell.blocked ? c.muted : text_on(fill), text.c_str());
      }
    }
  const std::optional<Cell> lit = result.hovered ? result.hovered : spec.selected;
  const auto outline = [&](Cell cell, ImU32 color, float thickness) {
    const ImVec2 min(grid_x + cell_w * static_cast<float>(cell.col), grid_y + cell_h * static_cast<float>(cell.row));
    draw->AddRect(min, ImVec2(min.x + cell_w, min.y + cell_h), color, ui.px(3), 0, thickness);
  };
  if (spec.selected) outline(*spec.selected, c.accent, ui.px(2.5f));
  const auto same = [](const std::optional<Cell>& a, const std::optional<Cell>& b) {
    return a && b && a->row == b->row && a->col == b->col;
  };
  if (result.hovered && !same(result.hovered, spec.selected)) outline(*result.hovered, c.text, ui.px(1.5f));

  // [labels] the lit cell's query and key are drawn in the accent colour.
  for (int k = 0; k < cols; ++k) {
    const bool on = lit && lit->col == k;
    const std::string text = kit::fit_text(small, spec.cols[static_cast<std::size_t>(k)], header_h - pad);
    const float x = grid_x + cell_w * (static_cast<float>(k) + 0.5f) - small->FontSize * 0.5f;
    kit::text_up(draw, small, ImVec2(x, grid_y - pad * 0.7f), on ? c.accent : c.text, text);
  }
  if (scroll) {
    ImGui::PopClipRect();
    // The label column over the cells that scrolled under it, in the card's colour.
    draw->AddRectFilled(ImVec2(labels_x, origin.y), ImVec2(labels_x + label_w, origin.y + total_h), c.panel);
  }
  const float label_right = labels_x + label_w;
  for (int r = 0; r < rows; ++r) {
    const bool on = lit && lit->row == r;
    const std::string text = kit::fit_text(body, spec.rows[static_cast<std::size_t>(r)], label_w - 2 * pad);
    const ImVec2 size = kit::text_size(body, text);
    draw->AddText(
        body, body->FontSize,
        ImVec2(label_right - pad - size.x, grid_y + cell_h * static_cast<float>(r) + (cell_h - size.y) * 0.5f),
        on ? c.accent : c.text, text.c_str());
  }
  // The corner says which way the grid reads, when the label column has room for it.
  const auto corner = spec.corner.find("  ");
  if (corner != std::string::npos) {
    const std::string first = spec.corner.substr(0, corner), second = spec.corner.substr(corner + 2);
    if (std::max(kit::text_size(small, first).x, kit::text_size(small, second).x) <= label_w - pad &&
        header_h > 2 * small->FontSize + pad) {
      draw->AddText(small, small->FontSize, ImVec2(labels_x, grid_y - 2 * small->FontSize - pad * 0.5f), c.muted,
                    second.c_str());
      draw->AddText(small, small->FontSize, ImVec2(labels_x, grid_y - small->FontSize - pad * 0.3f), c.muted,
                    first.c_str());
    }
  }

  // [row end] e.g. each row's sum, every number explaining itself.
  if (has_end) {
    const float x = grid_x + cell_w * static_cast<float>(cols) + pad;
    for (std::size_t i = 0; i < end_title.size(); ++i) {  // the title's last line just above the cells
      const float up = static_cast<float>(end_title.size() - i) * small->FontSize;
      draw->AddText(small, small->FontSize, ImVec2(x, grid_y - up - pad * 0.5f), c.muted, end_title[i].c_str());
    }
    for (int r = 0; r < rows && r < static_cast<int>(spec.row_end.size()); ++r) {
      ImGui::SetCursorScreenPos(ImVec2(x, grid_y + cell_h * static_cast<float>(r) + (cell_h - small->FontSize) * 0.5f));
      ImGui::PushID(10000 + r);
      NumberStyle style;
      style.small = true;
      style.color =
          r < static_cast<int>(spec.row_end_color.size()) ? spec.row_end_color[static_cast<std::size_t>(r)] : 0;
      explain.number(
          ui, "##end", spec.row_end[static_cast<std::size_t>(r)],
          [&spec, r] { return spec.explain_row_end ? spec.explain_row_end(r) : Explanation{}; }, style);
      ImGui::PopID();
    }
  }
  ImGui::PopID();
  result.cells_min = ImVec2(grid_x, grid_y);
  result.cell_size = ImVec2(cell_w, cell_h);
  result.clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
  result.clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  if (scroll)
    result.clip_min.x = std::max(result.clip_min.x, labels_x + label_w);  // the cells show right of the labels
  result.size = ImVec2(total_w, total_h);
  result.labels_x = labels_x;
  result.scrolls = scroll;
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + total_h));
  ImGui::Dummy(ImVec2(scroll ? total_w : width, 0));
  if (scroll) ImGui::EndChild();
  return result;
}

}  // namespace neuralpath::ui
