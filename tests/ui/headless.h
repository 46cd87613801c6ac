// headless.h: the App in a test, with no window — an ImGui context with the real fonts, frames
// at a chosen size (CSS pixels × device pixel ratio), and a simulated mouse, wheel and keys.
//
//   Headless page(375, 740, /*scale=*/2);     a phone
//   page.load_file("lessons/self-attention.md");
//   page.frames(10);                           NewFrame → App::frame → Render, ten times
//   page.click(x, y);                          press and release at CSS (x, y), a frame each
//   page.swipe(x, y0, x, y1);                  a finger: lands, moves, lifts (a phone's scroll)
//   page.state()["checks"][0]["correct"]       what state() says
//
// ImGui is built for tests with IM_ASSERT throwing ImGuiAssertion (imgui_test_config.h), so
// any assertion inside a frame fails the test that ran it.
#pragma once
#include "engine/ui/app.h"
#include "engine/ui/widget.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace neuralpath::ui::test {

// A suite says `using namespace neuralpath::ui::test;` and has the page's names, the widget
// models' (widget.h), json and the harness below.
using namespace neuralpath::ui;
using nlohmann::json;

struct ImGuiAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr const char* kFontDir = "/usr/share/fonts/truetype/dejavu";

class Headless {
 public:
  Headless(float css_width, float css_height, float scale = 1, Theme theme = Theme::light);
  ~Headless();
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  App& app() { return app_; }
  const Fonts& fonts() const { return fonts_; }
  float scale() const { return scale_; }

  void load(const std::string& id, const std::string& markdown);
  void load_file(const std::string& path);  // id = the file's stem
  void resize(float css_width, float css_height);

  void frames(int count = 1, float dt = 1.0f / 60);
  // Mouse in CSS pixels. click() = move, press (one frame), release (one frame).
  void move(float x, float y);
  void click(float x, float y);
  void drag(float x0, float y0, float x1, float y1, int steps = 8);
  // A finger (App::finger_down, then its press): lands, moves in `steps` frames, lifts. A tap
  // lands and lifts where it is; a frame after each lift lets a held-back press finish.
  void tap(float x, float y);
  void swipe(float x0, float y0, float x1, float y1, int steps = 8);
  void wheel(float notches);                   // positive scrolls up, as GLFW reports it
  void key(ImGuiKey key, bool shift = false);  // press for one frame, then release

  nlohmann::json state() const;
  nlohmann::json command(const nlohmann::json& message);           // the reply
  std::vector<nlohmann::json> events();                            // drained
  std::vector<nlohmann::json> events_of(const std::string& type);  // drained, filtered

 private:
  void finger_frame(float x, float y, bool down);  // the finger's state, then one frame

  ImGuiContext* context_ = nullptr;
  App app_;
  Fonts fonts_;
  float css_width_, css_height_, scale_;
  std::vector<nlohmann::json> pending_;  // events taken but not yet asked for
};

// The launch lessons in lessons/ (FORMAT.md and README.md excluded), in name order.
std::vector<std::string> lesson_files();
std::string read_file(const std::string& path);

// The object of `list` whose "id" is `id` (a check, reveal or widget of state()); fails the test
// that asked when there is none.
nlohmann::json with_id(const nlohmann::json& list, const std::string& id);
// The widget `id` of the page's state(), as with_id.
nlohmann::json widget_state(const Headless& page, const std::string& id);
// What a learner does on a first visit: every section, every check answered (its first option)
// and its answer shown, every reveal opened, the dark theme, the transport stepped and played
// (where the lesson has one), and two frames.
void walk_as_a_learner(Headless& page);
// The centre of a [x, y, w, h] rectangle of a layout (CSS px): where a test taps.
ImVec2 centre(const nlohmann::json& rect);

}  // namespace neuralpath::ui::test
