// lesson_page.h: the whole canvas for one lesson — layout, scrolling and the current section.
//
//   wide (≥ 700 CSS px)                     narrow (a phone)
//   ┌──────────┬───────────────────────┐    ┌─────────────────────┐
//   │ contents │   centred column of   │    │ ☰ Contents · section│  top bar
//   │ (side    │   prose, ≤ 760 CSS px │    ├─────────────────────┤
//   │ column)  │                       │    │ column, full width  │
//   │          │                       │    │ with margins        │
//   └──────────┴───────────────────────┘    └─────────────────────┘
//                                           the contents open as a drawer over the page
//
// The page scrolls by wheel, keys (arrows, PgUp/PgDn, Home/End, space), and by dragging empty
// page space (a finger on a phone); a drag that starts on an option or a link turns into a
// scroll once it moves, instead of clicking. A finger's upright swipe scrolls the page wherever
// it starts, on a widget's buttons too (TouchGesture). The section whose heading is in the top quarter
// of the view is the current one (LessonSession::enter_section emits 'section').
#pragma once
#include "engine/ui/lesson_session.h"
#include "engine/ui/page_context.h"
#include "engine/ui/page_scroll.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::ui {

class LessonPage {
 public:
  struct Frame {
    UiContext ui;
    LessonSession* session = nullptr;  // null: the lesson failed to load
    const std::map<const lesson::Block*, Widget*>* widgets = nullptr;
    std::vector<nlohmann::json>* events = nullptr;
    const std::vector<std::string>* errors = nullptr;
    std::string lesson_id;
    std::string notice;  // a line shown above the page (font problems)
    // The course's next lesson, for the card at the lesson's end (App's nextLesson command; an
    // empty title: this is the last lesson; no href at all: say nothing of other lessons).
    std::string next_title, next_href;
    float time = 0;
    float dt = 0;
  };

  void draw(Frame& frame);

  // Scrolls to a section's heading: at once, or gliding (a click in the contents). Before
  // the first frame the page is not laid out yet; the jump then happens after it.
  void goto_section(const std::string& anchor, bool glide, bool reduced_motion);
  void scroll_by(float dy) {
    scroller_.scroll_by(dy);
    release_section_lock();
  }
  void scroll_to(float y) {
    scroller_.jump_to(y);
    release_section_lock();
  }
  // An embedding host's frame shows only part of the canvas (np-host.js): `placed` scrolls the
  // page to where the host put the canvas, which is no scroll of the learner's, so a section
  // a goto went to stays the current one.
  void place_at(float y) {
    scroller_.jump_to(y);
    hold_top_ = false;
  }
  // The part of the canvas the learner sees, device px from its top (none: all of it). The
  // current section is read from this band; `learner_moved` (the learner scrolled the host's
  // page) ends a goto's hold on the section, as a scroll of the engine's own does.
  void set_visible_band(std::optional<std::pair<float, float>> top_and_height, bool learner_moved) {
    visible_band_ = top_and_height;
    if (learner_moved) release_section_lock();
  }
  void set_contents_open(bool open) { contents_open_ = open && narrow_; }
  void reset_scroll() {
    scroller_.jump_to(0);
    locked_section_.reset();
    hold_top_ = false;
  }
  void set_scroll_thumb(bool shown) { scroll_thumb_ = shown; }  // off when an embedding host scrolls

  // A finger's press is held back from ImGui until it shows a tap, a scroll or a drag
  // (page_scroll.h TouchGesture); the platform calls filter_pointer before ImGui::NewFrame.
  void finger_down() { touch_.finger_down(); }
  void filter_pointer(ImGuiIO& io, float slop) { touch_.filter(io, slop); }
  bool touch_pending() const { return touch_.pending(); }

  // Where things are, for state(): rectangles in device pixels (the App converts to CSS).
  const PageGeometry& geometry() const { return geometry_; }
  float scroll() const { return scroller_.offset(); }
  float scroll_max() const { return scroller_.max(); }
  // The height everything on the page needs (top bar included), without the room added so
  // the last heading can reach the top: an embedding frame shows exactly this much (device px).
  float natural_height() const { return natural_height_; }
  bool narrow() const { return narrow_; }
  bool contents_open() const { return contents_open_; }
  float contents_scroll() const { return contents_scroll_; }  // the contents list's own scroll (device px)
  ImRect column() const { return column_; }

 private:
  struct Drag {  // a press on the page that may become a scroll
    bool pending = false;
    bool decided = false;
    bool sideways = false;
    ImVec2 start;
    ImGuiID tap = 0;              // the page button under the press (its click is cancelled)
    ImGuiID side = 0;             // the sideways-scrolling region under the press
    ImGuiWindow* list = nullptr;  // the contents list under the press (scrolls itself)
  };

  void draw_page(PageContext& page, const Frame& frame);
  void draw_header(PageContext& page, float width);
  void draw_section_heading(PageContext& page, const lesson::Section& section, float width);
  void draw_finish(PageContext& page, const Frame& frame, float width);  // the card after the last section
  void draw_top_bar(Frame& frame, const ImRect& bar);
  void draw_contents_column(Frame& frame, const ImRect& rect);
  void begin_contents_list(const UiContext& ui, const char* id, const ImRect& rect, float pad_y);
  void draw_contents_drawer(Frame& frame);
  void draw_scroll_indicator(const UiContext& ui);
  void handle_input(const Frame& frame);
  void track_section(LessonSession& session);
  void release_section_lock() {
    if (!pending_goto_) locked_section_.reset();
    hold_top_ = false;
  }
  void hold_section_top();  // keeps a goto's section at the top while what is above it settles
  // The page is drawn at whole device pixels of scroll: Dear ImGui rounds text and items to
  // pixels, so drawn at a fraction a figure's height changed with its place on the screen (by
  // up to a pixel: "Save image" stitched its pieces with a seam, #34), and its text blurred.
  float drawn_offset() const { return std::round(scroller_.offset()); }
  void pick_section(Frame& frame, const std::string& anchor);

  PageScroller scroller_;
  PageGeometry geometry_;
  PageMemory memory_;
  Drag drag_;
  TouchGesture touch_;
  ImRect area_;           // where the page scrolls (device pixels)
  ImRect column_;         // the reading column inside it
  ImRect contents_rect_;  // the side column or the drawer's list
  ImGuiWindow* contents_window_ = nullptr;
  float contents_scroll_ = 0;
  float content_height_ = 0;  // what scrolls (with room to bring the last section up)
  float natural_height_ = 0;
  bool narrow_ = false;
  bool contents_open_ = false;
  bool scroll_thumb_ = true;
  bool laid_out_ = false;  // section tops are known
  bool reduced_motion_ = false;
  std::optional<std::string> pending_goto_;
  std::optional<std::string> locked_section_;  // set by goto until the learner scrolls
  // A goto's heading stays at the top of the view until the learner scrolls: figures above it
  // may still change height after the jump (a shared link landed ~290 px off on a phone, #34).
  bool hold_top_ = false;
  std::optional<std::pair<float, float>> visible_band_;  // set_visible_band: top, height on the canvas
  float page_end_ = 0;                                   // where the last section ends, page px
  ImGuiID indicator_id_ = 0;
  float indicator_grab_ = 0;
};

}  // namespace neuralpath::ui
