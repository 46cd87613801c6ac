// playback_harness.h: what the playback suites share — a headless ImGui context with the
// page's fonts, one frame at a time, and the board built for "AI Agents Build Future".
#pragma once
#include "engine/ui/widgets/playback/playback_widget.h"  // PlaybackWidget: the model and view the page holds

#include <imgui.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace playback_test {

// A headless ImGui context: fonts from Debian's DejaVu files, a full-window page, input to set.
class Headless {
 public:
  Headless(float width, float height, float scale = 1.0f);
  ~Headless();
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  // One frame: `body` draws inside the full-window page. Returns false if ImGui's stacks (windows,
  // IDs, colours, style vars, fonts) were left unbalanced by `body`.
  bool frame(const std::function<void(const neuralpath::ui::UiContext&)>& body, float dt = 1.0f / 60);
  void resize(float width, float height);
  void press(ImGuiKey key);      // pressed during the next frame only
  void click(ImVec2 at);         // mouse down on the next frame, up on the one after
  neuralpath::ui::UiContext ui;  // fonts, theme, scale, reduced motion for the views
  std::string font_error;

 private:
  ImGuiContext* context_ = nullptr;
  neuralpath::ui::Fonts fonts_;
  std::vector<int> keys_;
  int click_frames_ = 0;
  ImVec2 click_at_;
};

// The launch example: a playback over every step with a code block of the seed's function.
neuralpath::lesson::Lesson example_lesson();
neuralpath::widgets::PlaybackSettings example_playback();
std::unique_ptr<neuralpath::ui::PlaybackWidget> example_board(const std::string& sentence = "AI Agents Build Future");

// A lesson file's first playback board (the course-playback lesson in English, or its Spanish
// translation in Spanish), built as the page builds it: the lesson, its widget, the board.
struct LessonBoard {
  neuralpath::lesson::Lesson lesson;
  std::unique_ptr<neuralpath::ui::Widget> widget;
  neuralpath::ui::PlaybackWidget* board = nullptr;
};
LessonBoard course_board(const std::string& file);

// Numbers as a sentence or a cell prints them: "1.90", "-0.47", "41.2%", "-∞".
std::vector<std::string> numbers_in(const std::string& text);

}  // namespace playback_test
