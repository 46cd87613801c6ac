// kit.h: the small drawing pieces the lesson widgets share (faces, cards, button rows, flow
// layout, hatching, upright column labels). Drawing only: nothing here computes a number the
// learner reads.
//
//   font(ui, Face::bold)            a face that is never null (ImGui's default as a fallback)
//   Card card(ui, "id")             a rounded panel behind everything drawn until card.end()
//   segmented(ui, id, labels, i)    a row of exclusive choices; returns the index clicked or -1
//   Flow flow(width)                places items left to right, wrapping onto new lines
//   hatch / dashed_rect / text_up   draw-list helpers for blocked cells, seeded tokens, labels
#pragma once
#include "engine/ui/widget.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include <string>
#include <vector>

namespace neuralpath::ui::kit {

// [SECTION] Where a view drew --------------------------------------------------------------------

// A screen rectangle as state()'s "layout" reports it: [x, y, w, h] in CSS px from the canvas's
// top left (the page's own rectangles are the same, app.cpp), for the tests and the page's taps.
nlohmann::json css_rect(const UiContext& ui, ImVec2 min, ImVec2 max);

// [SECTION] Faces and text ---------------------------------------------------------------------

enum class Face { body, bold, italic, mono, small };
ImFont* font(const UiContext& ui, Face face);
ImVec2 text_size(ImFont* face, const std::string& text);  // at the face's own size, unwrapped
// `text` cut (at a UTF-8 character boundary) with "…" so it is at most `max_width` wide.
std::string fit_text(ImFont* face, const std::string& text, float max_width);

// `text` without the characters the fonts cannot draw (drawable.h), so a field that shows a
// refused sentence holds no "?" where its emoji were (one space is left where one stood between words).
std::string drawable_only(const std::string& text);
// Fills a text field's buffer with drawable_only(text), cut at a character's start when longer.
void fill_field(char* buffer, std::size_t size, const std::string& text);
// The field follows the model: refilled with `text` when it differs from `filled_from` (the text
// it was last filled from; a command, a shared link or a refusal changed it), else what the
// learner typed stays.
void follow_field(char* buffer, std::size_t size, std::string& filled_from, const std::string& text);
// Text at the cursor, wrapped at the available width, in `color` (0 = the theme's text).
void wrapped(const UiContext& ui, const std::string& text, ImU32 color = 0, Face face = Face::body);
// The lines `text` wraps into at `width` (screen px, the face's own size): Dear ImGui's word wrap,
// except that a number is never cut at its decimal point ("0.|83", "1.048.|576").
std::vector<std::string> wrap_lines(ImFont* face, const std::string& text, float width);
// A bold part title ("Try your own sentence").
void title(const UiContext& ui, const std::string& text);
// Vertical gap of `css` CSS pixels.
void gap(const UiContext& ui, float css);

// A part of a card whose content comes and goes (a hovered cell's details under a grid): it
// keeps the tallest height its content has had at this width, so the card, and the page below
// it, do not jump when the pointer moves on or off a cell (#34: the heatmap's hover added 180 px).
// A change of a pixel or two is not kept but followed: Dear ImGui 1.86 truncates item positions
// toward zero, so the same content drawn above the screen's top comes out a pixel taller, and
// kept, that pixel stayed for the rest of the visit.
//   kept.begin(width); ...draw...; kept.end();
class KeptHeight {
 public:
  void begin(float width);
  void end();  // pads the cursor down to the tallest height
  float tallest() const { return tallest_; }

 private:
  float width_ = -1, tallest_ = 0, top_ = 0;
};

// [SECTION] Card -------------------------------------------------------------------------------

// Everything drawn between construction and end() sits on a rounded panel with padding.
// inner_width() is the width content should use. Uses its own draw-list splitter (not the
// window's channels), so it nests inside whatever the page draws around it.
class Card {
 public:
  Card(const UiContext& ui, const char* id);
  ~Card();
  Card(const Card&) = delete;
  Card& operator=(const Card&) = delete;
  float inner_width() const { return inner_width_; }
  void end();

 private:
  const UiContext& ui_;
  ImDrawListSplitter splitter_;
  ImDrawList* draw_ = nullptr;
  ImVec2 start_;
  float width_ = 0, inner_width_ = 0, pad_ = 0;
  bool open_ = true;
};

// [SECTION] Controls ---------------------------------------------------------------------------

// Exclusive choices drawn as joined buttons, the selected one filled with the accent colour;
// wraps onto more lines when `width` is too narrow. Returns the index clicked, or -1.
int segmented(const UiContext& ui, const char* id, const std::vector<std::string>& labels, int selected, float width);
// A plain button sized to its label (scaled padding), or to `size` (screen px) where a finger
// needs a larger target than the label gives; true when clicked.
bool button(const UiContext& ui, const char* label, bool primary = false, ImVec2 size = ImVec2(0, 0));
// A step-through's Back and Next on one line. Back's place is kept on the first step (nothing
// drawn there), so Next never slides under the pointer when Back appears: a second click on
// Next is Next again. Next is left out on the last step. Leaves the cursor on the same line.
struct StepNav {
  struct Drawn {
    bool shown = false;
    ImVec2 min, max;
  };                 // a button's screen rectangle
  int move = 0;      // -1 Back clicked, +1 Next clicked, 0 neither
  Drawn back, next;  // where each was drawn, for layout reports
};
StepNav step_nav(const UiContext& ui, const char* back_label, const char* next_label, bool can_back, bool can_next);
// A text field for the learner's own text with its button beside it (under it on a card narrower
// than 420 CSS px), the field at most `max_width` CSS px wide, in the card's field style.
struct TextEntry {
  const char* field_id;        // the field's ImGui id, "##text"
  std::string button;          // the button's words
  const char* button_id = "";  // added to the button's ImGui label ("##show") where its words recur
  const char* hint = nullptr;  // grey words in the empty field
  float max_width = 620;       // CSS px
  bool primary = true;         // the accent-filled button
};
// True when the learner pressed Enter in the field or clicked the button.
bool text_entry(const UiContext& ui, const TextEntry& entry, char* buffer, std::size_t size, float width);
// A view's field for the learner's own text, N bytes with its NUL, that follows the model
// (follow_field): draw() fills it with the model's text when that changed, draws it with its
// button (text_entry) and says whether the learner sent it; text() is what it holds.
template <std::size_t N>
class FollowingField {
 public:
  bool draw(const UiContext& ui, const TextEntry& entry, const std::string& model_text, float width) {
    follow_field(buffer_, N, filled_from_, model_text);
    return text_entry(ui, entry, buffer_, N, width);
  }
  const char* text() const { return buffer_; }
  void refill() { filled_from_.clear(); }  // the next draw shows the model's text, over unsent typing

 private:
  char buffer_[N] = {};
  std::string filled_from_;  // the model's text buffer_ was last filled from
};
// Text fields and sliders drawn on a card need their own frame: page-coloured, outlined, with
// an accent grab. Push before the field, pop after it.
void push_field_style(const UiContext& ui);
void pop_field_style();
// A thin rule across `width` at the cursor (ImGui::Separator would run past the card).
void rule(const UiContext& ui, float width);

// [SECTION] Flow layout ------------------------------------------------------------------------

// Lays items out left to right from the cursor and starts a new line when the next item does
// not fit in `width`. place() moves the ImGui cursor to where an item of that size goes.
class Flow {
 public:
  Flow(float width, float spacing_x, float spacing_y);
  ImVec2 place(ImVec2 size);
  // A new line unless `width` (items placed next, with their spacing) fits on this one, so a
  // group such as "0.22 ]" is never split across lines.
  void keep_together(float width);
  float spacing() const { return sx_; }
  void newline();
  void end();  // leaves the cursor below the last line
  float bottom() const { return y_ + line_h_; }

 private:
  float x0_, right_, x_, y_, line_h_ = 0, sx_, sy_;
};

// [SECTION] Draw-list helpers ------------------------------------------------------------------

void hatch(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color, float spacing, float thickness);
void dashed_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color, float dash, float thickness);
// Text rotated a quarter turn counter-clockwise (reading upwards), starting at `bottom_left`.
void text_up(ImDrawList* draw, ImFont* face, ImVec2 bottom_left, ImU32 color, const std::string& text);
// `color` with its alpha multiplied by `alpha` (0..1).
ImU32 fade(ImU32 color, float alpha);
// Linear mix of two colours, t in [0, 1].
ImU32 mix(ImU32 a, ImU32 b, float t);

}  // namespace neuralpath::ui::kit
