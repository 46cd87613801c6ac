// LessonSession: the learner's side of a lesson without any drawing — grading, feedback,
// retry, progress and its events.
#include "engine/lesson/load.h"
#include "engine/ui/lesson_session.h"
#include "engine/widgets/widget_kinds.h"
#include "headless.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using namespace neuralpath::ui;
using nlohmann::json;

namespace {

lesson::Lesson sample() {
  lesson::LoadResult r =
      lesson::load_lesson_file("tests/ui/fixtures/page_sample.md", neuralpath::widgets::with_widgets());
  REQUIRE_MESSAGE(r.ok(), lesson::format_diagnostics(r.diagnostics));
  return std::move(*r.lesson);
}

std::vector<std::string> types(const std::vector<json>& events) {
  std::vector<std::string> out;
  for (const json& e : events) out.push_back(e["type"]);
  return out;
}

}  // namespace

TEST_CASE("a wrong single answer scores 0, a right one 1, and each emits answered then progress") {
  const lesson::Lesson lesson = sample();
  LessonSession session(lesson, "page-sample");
  CHECK(!session.answer("single", {2}));
  CHECK(session.score("single") == 0);
  CHECK(types(session.take_events()) == std::vector<std::string>{"answered", "progress"});
  CHECK(!session.answer("single", {0}));
  CHECK(session.score("single") == 1);
  CHECK(session.check_state("single")->attempts == 2);
}

TEST_CASE("multiple answers earn partial credit: right picks minus wrong picks, over the correct options") {
  const lesson::Lesson lesson = sample();
  LessonSession session(lesson, "page-sample");
  CHECK(!session.answer("several", {0}));
  CHECK(session.score("several") == doctest::Approx(0.5));
  CHECK(!session.answer("several", {0, 2}));
  CHECK(session.score("several") == doctest::Approx(0.0));
  CHECK(!session.answer("several", {0, 1, 2}));
  CHECK(session.score("several") == doctest::Approx(0.5));
  const auto feedback = session.feedback("several");
  REQUIRE(feedback.size() == 3);
  CHECK(feedback[2].correct == false);
  CHECK(session.feedback_text("several").find("✕ It is applied after the softmax: No, then rows") != std::string::npos);
}

TEST_CASE("ticking options does not grade them, submitting does") {
  const lesson::Lesson lesson = sample();
  LessonSession session(lesson, "page-sample");
  CHECK(session.submit_pending("several").has_value());  // nothing ticked yet
  CHECK(!session.toggle_pending("several", 1));
  CHECK(!session.toggle_pending("several", 0));
  CHECK(!session.toggle_pending("several", 2));
  CHECK(!session.toggle_pending("several", 2));  // untick
  CHECK(session.check_state("several")->pending == std::vector<int>{0, 1});
  CHECK(!session.check_state("several")->grade);
  CHECK(session.take_events().empty());
  CHECK(!session.submit_pending("several"));
  CHECK(session.check_state("several")->grade->correct);
}

TEST_CASE("try again clears the choice and withdraws it from the progress, keeping the attempt count") {
  const lesson::Lesson lesson = sample();
  LessonSession session(lesson, "page-sample");
  session.answer("single", {1});
  CHECK(session.progress().answers.count("single") == 1);
  CHECK(!session.retry("single"));
  CHECK(session.check_state("single")->chosen.empty());
  CHECK(!session.check_state("single")->grade);
  CHECK(session.check_state("single")->attempts == 1);
  CHECK(session.progress().answers.count("single") == 0);
}

TEST_CASE("entering a section records the visit and announces it once") {
  const lesson::Lesson lesson = sample();
  LessonSession session(lesson, "page-sample");
  CHECK(!session.enter_section("maths"));
  CHECK(!session.enter_section("maths"));
  CHECK(types(session.take_events()) == std::vector<std::string>{"section", "progress"});
  CHECK(session.enter_section("no-such").has_value());
  CHECK(session.progress().visited.count("maths") == 1);
}

TEST_CASE("checks_json carries what the learner sees and no answer key until it is revealed") {
  const lesson::Lesson lesson = sample();
  LessonSession session(lesson, "page-sample");
  json checks = session.checks_json();
  REQUIRE(checks.size() == 2);
  CHECK(checks[0]["question"] == "Which vectors are multiplied first?");
  CHECK(checks[0]["options"] == json::array({"Query and key", "Value and value", "Query and value"}));
  CHECK(checks[0]["correct"].is_null());
  CHECK(!checks[0].contains("answer"));
  session.reveal_answer("single");
  CHECK(session.checks_json()[0]["answer"] == json::array({0}));
}
