// App: the root of everything drawn inside the canvas. The platform layer (web/main.cpp, or a
// headless test) owns the window and the ImGui frame; it calls into App and nothing else.
//
//   platform                         App
//   --------                         ---
//   ImGui::NewFrame()          ──►   frame(dt)           draw the page for this frame
//   JS fetch of lessons/ID.md  ──►   load_lesson(...)    parse; show the lesson or its errors
//   window.neuralpath.*        ──►   command(json)       goto / answer / setSentence / play ...
//                              ◄──   state_json()        what the learner sees, as numbers
//                              ◄──   take_events()       answered / section / progress ...
#pragma once
#include "fonts.h"
#include "theme.h"

#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::ui {

struct ViewportInfo {
  float css_width = 0;     // canvas size in CSS pixels
  float css_height = 0;
  float pixel_scale = 1;   // device pixels per CSS pixel; ImGui works in device pixels
};

class App {
 public:
  App();

  void set_fonts(const Fonts& fonts) { fonts_ = fonts; }
  void set_font_error(std::string error) { font_error_ = std::move(error); }
  void set_theme(Theme theme);
  Theme theme() const { return theme_; }
  void set_viewport(const ViewportInfo& viewport) { viewport_ = viewport; }

  // Parses and shows a lesson; a broken one shows its errors instead (never a crash).
  void load_lesson(std::string_view id, std::string_view markdown);

  // Draws one frame into a full-window ImGui window. `dt` is seconds since the last frame.
  void frame(float dt);

  // The page as data, for window.neuralpath.state() and tests (a JSON object).
  std::string state_json() const;

  // Runs one command from JS ({"type": "goto", ...}); returns {"ok": true} or
  // {"ok": false, "error": "..."} as JSON. Unknown or malformed commands are refused, not run.
  std::string command(std::string_view json);

  // Events for the host page since the last call, each a JSON object with a "type".
  std::vector<std::string> take_events();

 private:
  Fonts fonts_;
  std::string font_error_;
  Theme theme_ = Theme::light;
  ViewportInfo viewport_;
  std::string lesson_id_;
  std::string lesson_title_;
  std::vector<std::string> events_;
};

}  // namespace neuralpath::ui
