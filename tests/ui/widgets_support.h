// widgets_support.h: what the widget suites share — the launch lessons loaded once, a widget
// made for a block id through make_widget(), and frames drawn headless at a page width.
// The ImGui context and fonts come from the playback suites' Headless harness.
#pragma once
#include "playback_harness.h"

#include "engine/lesson/lesson.h"
#include "engine/ui/widget.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

namespace widgets_test {

using playback_test::Headless;

// lessons/<id>.md parsed and checked (REQUIREs a clean load), kept for the whole run.
const neuralpath::lesson::Lesson& lesson(const std::string& id = "self-attention");
const neuralpath::ModelSpec& spec(const std::string& id = "self-attention");

// make_widget() for the block with this id in the lesson; REQUIREs one.
std::unique_ptr<neuralpath::ui::Widget> widget(const std::string& block_id,
                                               const std::string& lesson_id = "self-attention");
// The settings of a folder widget kind's block (widget_kinds.h) as their type, and its caption;
// REQUIRE the block.
template <class T>
const T& settings(const std::string& block_id, const std::string& lesson_id = "self-attention");
const neuralpath::lesson::Inline& caption(const std::string& block_id, const std::string& lesson_id = "self-attention");

// update() + draw() for `frames` frames; false if any frame left ImGui's stacks unbalanced.
bool draw_frames(Headless& page, neuralpath::ui::Widget& widget, int frames = 30, float dt = 1.0f / 60);

// The rightmost x of any vertex the last frame drew (its ImDrawData): what a widget drew past
// the page's right edge shows here even where a clip rectangle hid it.
float rightmost_vertex();

// How many times the last frame drew character `c`, in any of the atlas's fonts (by the
// glyph's corner in the atlas, which no other glyph shares).
int drawn_glyphs(unsigned int c);

// `draw` once per page of the sizes the widget suites look at (375, 768 and 1440 CSS px wide,
// `height` tall), each in the light and the dark theme.
template <class Draw>
void at_every_width(float height, Draw&& draw) {
  for (const float width : {375.0f, 768.0f, 1440.0f}) {
    for (const auto theme : {neuralpath::ui::Theme::light, neuralpath::ui::Theme::dark}) {
      CAPTURE(width);
      Headless page(width, height);
      page.ui.theme = theme;
      draw(page, width);
    }
  }
}

// Sends a command and returns its error ("" when it was done).
std::string send(neuralpath::ui::Widget& widget, const nlohmann::json& message);

}  // namespace widgets_test
