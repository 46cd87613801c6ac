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
//
// Commands (each replies {"ok": true} or {"ok": false, "error": "..."}; a refused command
// changes nothing): the page's own are typed structs read by one name table
// (page_commands.h); docs/protocol.md documents each, with every state field and event.
// Anything else goes to a widget: the one named by "widget" (a block id), else the first in
// the current section that takes it, else the first in the lesson that does (setSentence,
// play, pause, step, restart, seek, speed, speechEnded, ...).
#pragma once
#include "fonts.h"
#include "theme.h"

#include <imgui.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::ui {

struct ViewportInfo {
  float css_width = 0;  // canvas size in CSS pixels
  float css_height = 0;
  float pixel_scale = 1;  // device pixels per CSS pixel; ImGui works in device pixels
};

// How App::load_lesson opens a lesson.
struct LessonOpening {
  // A `lesson-weights: trained` lesson without its shipped weights trains while it loads
  // (native tests), or is refused with a file:line:col error (the page: web/main.cpp).
  bool train_weights = true;
  // Its widgets (each computes its first numbers) are not built yet: the page builds them with
  // build_widgets, a few per task, so opening a lesson never holds the main thread for all of
  // them at once. Anything that reads or draws widgets (frame, state_json, command,
  // take_events, wants_another_frame) builds those left first, in the same order, so nothing
  // ever sees a lesson with part of its widgets.
  bool widgets_later = false;
  // The site's build has checked this very text (the page compares its SHA-256 with the
  // build's list): the engine's checks are skipped (lesson::LoadOptions::engine_checks).
  bool checked_by_build = false;
};

class App {
 public:
  App();
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  void set_fonts(const Fonts& fonts) { fonts_ = fonts; }
  void set_font_error(std::string error) { font_error_ = std::move(error); }
  void set_theme(Theme theme);
  Theme theme() const { return theme_; }
  void set_viewport(const ViewportInfo& viewport) { viewport_ = viewport; }
  void set_reduced_motion(bool reduce) { reduced_motion_ = reduce; }

  // Parses and shows a lesson; a broken one shows its errors instead (never a crash).
  void load_lesson(std::string_view id, std::string_view markdown, LessonOpening how = {});
  std::size_t build_widgets(std::size_t count);  // builds up to `count` more; returns how many are left
  std::size_t widgets_pending() const;           // widgets not built yet

  // Draws one frame into a full-window ImGui window. `dt` is seconds since the last frame.
  void frame(float dt);

  // A finger (web/shell/np-input.js says so before its press): the page holds the press back
  // from ImGui until the finger shows a tap, a scroll or a drag (page_scroll.h TouchGesture).
  // before_new_frame() runs after the platform has set io's pointer, before ImGui::NewFrame.
  void finger_down();
  void before_new_frame();

  // Idle hook: true while the page changes with time alone, even where frames look alike (a
  // widget's Widget::wants_another_frame: a kernel run in progress, playback playing). When
  // false and no input or command arrives, the platform may stop running frames (web/main.cpp;
  // it sees animations that move pixels by itself).
  bool wants_another_frame() const;

  // The page as data, for window.neuralpath.state() and tests (a JSON object).
  std::string state_json() const;

  // The lesson as plain data for the accessible DOM mirror (document_export.h), with the
  // lesson's errors; {"sections": []} before a lesson is loaded.
  std::string document_json() const;

  // The text of the lesson loaded last, as it was handed over ("" before one): what the train
  // widgets' trainer worker builds the same model from (docs/lm-worker.md).
  const std::string& lesson_text() const;

  // Runs one command from JS ({"type": "goto", ...}); returns {"ok": true} or
  // {"ok": false, "error": "..."} as JSON. Unknown or malformed commands are refused, not run.
  std::string command(std::string_view json);

  // Events for the host page since the last call, each a JSON object with a "type".
  std::vector<std::string> take_events();

 private:
  struct Impl;    // the lesson, its session, widgets and page (app.cpp)
  struct Runner;  // runs one typed page command (page_commands.h) on the App

  void apply_style();
  float scale() const;

  Fonts fonts_;
  std::string font_error_;
  Theme theme_ = Theme::light;
  ViewportInfo viewport_;
  bool reduced_motion_ = false;
  float styled_scale_ = 0;  // the scale and theme style_ was made for
  Theme styled_theme_ = Theme::light;
  bool style_built_ = false;
  std::unique_ptr<ImGuiStyle> style_;  // ImGui's global style, set every frame
  std::unique_ptr<Impl> impl_;
  std::vector<std::string> events_;
};

}  // namespace neuralpath::ui
