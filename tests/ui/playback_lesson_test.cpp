// The board on the launch lesson lessons/course-playback.md, built as the page builds it.
#include "playback_harness.h"

#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/widgets/playback/playback_steps.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

#include <set>

using namespace neuralpath;
using playback_test::course_board;
using playback_test::LessonBoard;

TEST_CASE("the course-playback lesson's board runs AI Agents Build Future through two heads") {
  LessonBoard b = course_board("lessons/course-playback.md");
  const nlohmann::json s = b.board->state();
  CHECK(s["kind"] == "playback");
  CHECK(s["error"] == "");
  CHECK(s["tokens"] == nlohmann::json::array({"AI", "Agents", "Build", "Future"}));
  CHECK(s["heads"] == 2);
  CHECK(s["steps"].get<int>() > 20);
  CHECK(s["code"] == "block-code");
}

TEST_CASE("the lesson's code lines light up with the steps they compute") {
  LessonBoard b = course_board("lessons/course-playback.md");
  std::set<std::string> lit_kinds;
  for (int k = 0; k < b.board->model().controller().count(); ++k) {
    REQUIRE(b.board->command({{"type", "seek"}, {"step", k}}).done());
    const nlohmann::json s = b.board->state();
    if (!s["code_lines"].empty()) lit_kinds.insert(s["step_kind"].get<std::string>());
    if (s["step_kind"] == "score") CHECK(s["code_lines"] == nlohmann::json::array({25}));
    if (s["step_kind"] == "softmax") CHECK(s["code_lines"] == nlohmann::json::array({29}));
  }
  // Every step of the lesson's list has lines in its code block.
  CHECK(lit_kinds.size() == 17);
}

TEST_CASE("the board's step names agree with the lesson library's step table") {
  for (const std::string& name : lesson::playback_steps())
    for (StepKind kind : lesson::step_kinds(name)) CHECK(widgets::playback::lesson_step_name(kind) == name);
}

TEST_CASE("the lesson's board draws every step at phone and desktop widths with every caption number on it") {
  LessonBoard b = course_board("lessons/course-playback.md");
  for (const float width : {360.0f, 1280.0f}) {
    playback_test::Headless page(width, 1000);
    page.ui.reduced_motion = true;
    for (int k = 0; k < b.board->model().controller().count(); ++k) {
      REQUIRE(b.board->command({{"type", "seek"}, {"step", k}}).done());
      CHECK(page.frame([&](const ui::UiContext& ui) { b.board->draw(ui); }));
      std::set<std::string> shown;
      for (const std::string& str : b.board->view().drawn_strings())
        for (const std::string& n : playback_test::numbers_in(str)) shown.insert(n);
      const std::string& caption = b.board->model().controller().current()->caption;
      CAPTURE(caption);
      for (const std::string& n : playback_test::numbers_in(caption)) CHECK(shown.count(n) == 1);
    }
  }
}
