// page_context.h: what every lesson-page view reads and writes while drawing one frame.
//
//   PageContext      faces, colours, scale (UiContext), the learner's session, the widgets, and
//                    the frame's records: where checks and sections landed, the taps, events
//   PageMemory       view state that outlives a frame (a code block's sideways scroll, when
//                    "Copied" was pressed), keyed by the block it belongs to
//   page_button()    a clickable rectangle that a touch drag can still turn into a scroll
//
// Views lay themselves out at ImGui's cursor, across `width` device pixels, and advance the
// cursor past what they drew. Sizes are written in CSS pixels and scaled with ui.px().
#pragma once
#include "engine/lesson/lesson.h"
#include "engine/ui/lesson_session.h"
#include "engine/ui/widget.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace neuralpath::ui {

// Measures of the page in CSS pixels (multiply by UiContext::scale to draw).
namespace page_metrics {
inline constexpr float column_max = 760;    // longest comfortable line of prose
inline constexpr float narrow_below = 700;  // under this width the contents become a drawer
inline constexpr float margin_narrow = 18;  // side margins on a phone
inline constexpr float margin_wide = 36;
inline constexpr float top_bar = 48;    // the narrow layout's bar with the contents button
inline constexpr float block_gap = 16;  // space after a paragraph or block
inline constexpr float card_pad = 14;   // inner padding of checks, callouts, code
inline constexpr float rounding = 8;
}  // namespace page_metrics

// Where things were drawn this frame. Rectangles are in screen (device) pixels; section tops
// are in page coordinates (distance from the top of the scrolled content).
struct PageGeometry {
  std::map<std::string, float> section_top;
  std::map<std::string, ImRect> check_rect;
  std::map<std::string, std::vector<ImRect>> option_rect;
  std::map<std::string, ImRect> reveal_rect;
  std::map<const lesson::Block*, ImRect> widget_rect;
  ImRect finish, next_lesson;  // the card at the lesson's end and its next-lesson button (none: empty)
  std::vector<ImGuiID> taps;   // page_button ids (drag may scroll)
  struct SideScroll {
    ImGuiID id;
    ImRect rect;
    float max;
  };
  std::vector<SideScroll> side_scroll;  // regions that scroll sideways
  void clear() { *this = PageGeometry{}; }
};

// View state kept between frames.
struct PageMemory {
  std::map<ImGuiID, float> side_offset;  // sideways scroll of wide code and tables
  std::map<ImGuiID, float> copied_at;    // time of the last "Copy" press per code block
};

struct PageContext {
  UiContext ui;
  LessonSession& session;
  PageGeometry& geometry;
  PageMemory& memory;
  const std::map<const lesson::Block*, Widget*>& widgets;
  std::vector<nlohmann::json>& events;  // openLink and other page events
  float time = 0;                       // seconds since the lesson opened
  float scroll_y = 0;                   // page offset, for section tops
  float content_top = 0;                // screen y of page offset 0
  int list_depth = 0;                   // nesting of lists (bullet shape)

  const Palette& colors() const { return ui.colors(); }
  float px(float css) const { return ui.px(css); }
  float body_size() const;  // body text size in device pixels
  ImDrawList* draw_list() const { return ImGui::GetWindowDrawList(); }
  // Page offset of a screen y (what the section tracker compares with the scroll position).
  float page_y(float screen_y) const { return screen_y - content_top + scroll_y; }
};

// A clickable rectangle (an option, a link, a button). Returns true when it was clicked.
// `hovered`/`held` report its state for drawing. The id is registered so a touch drag that
// starts on it scrolls the page instead of clicking.
bool page_button(PageContext& page, ImGuiID id, const ImRect& rect, bool* hovered = nullptr, bool* held = nullptr);

// A rounded button with a text label at `pos` (screen pixels); returns true on click.
bool text_button(PageContext& page, const char* id, std::string_view label, ImVec2 pos, bool primary = false);
ImVec2 text_button_size(const PageContext& page, std::string_view label);

// Moves the cursor down by `height` device pixels (a gap in the reading flow). Views place
// themselves with the cursor only, never with ImGui's item spacing, so the layout is exact.
void vertical_gap(float height);
void move_cursor_to_y(float screen_y);

// Mixes two colours: t = 0 gives a, 1 gives b.
ImU32 mix(ImU32 a, ImU32 b, float t);
ImU32 with_alpha(ImU32 color, float alpha);

}  // namespace neuralpath::ui
