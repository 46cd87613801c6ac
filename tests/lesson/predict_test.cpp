// predict_test.cpp: the predict-then-reveal block (```predict): one guess, committed once, then
// the answer, its explanation and an optional value measured by a widget of the lesson.
#include "helpers.h"

#include "engine/lesson/progress.h"
#include "engine/lesson/translation.h"

using namespace lesson_test;

namespace {

// `text` with the first `from` replaced by `to` (the test fails when `from` is missing).
std::string replaced_first(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not found: " << from);
  return text.replace(at, from.size(), to);
}

const std::string kPredict =
    "```predict\nid: guess\nquestion: Which line will the loss cross first?\n"
    "explanation: The bigram line, because it needs only the token before.\n"
    "options:\n  - text: the bigram line\n    correct: yes\n    feedback: yes\n"
    "  - text: none\n    feedback: no\n```\n";

}  // namespace

TEST_CASE("a predict block reads as a single-answer check with an explanation") {
  const auto r = parse(doc(kPredict));
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  const Check* c = find_check(r.lesson, "guess");
  REQUIRE(c);
  CHECK(c->predict);
  CHECK_FALSE(c->multiple);
  CHECK(plain_text(c->explanation) == "The bigram line, because it needs only the token before.");
  CHECK_FALSE(c->measured.has_value());
  REQUIRE(c->options.size() == 2);
  CHECK(c->options[0].correct);
}

TEST_CASE("a predict block refuses two right answers, a hint, and answer: multiple") {
  const std::string two =
      doc("```predict\nid: p\nquestion: q\noptions:\n  - text: a\n    correct: yes\n    feedback: f\n"
          "  - text: b\n    correct: yes\n    feedback: f\n```\n");
  CHECK(all_messages(parse(two)).find("a predict block has one correct option; it has 2") != std::string::npos);
  const std::string hint =
      doc("```predict\nid: p\nquestion: q\nhint: no\noptions:\n  - text: a\n    correct: yes\n    feedback: f\n"
          "  - text: b\n    feedback: f\n```\n");
  const auto r = parse(hint);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics.front().pos == pos_of(hint, "hint"));
  CHECK(parse(replaced_first(hint, "hint: no", "answer: multiple")).diagnostics.size() == 1);
}

TEST_CASE("a measured value names a widget of the lesson and a path into its state") {
  const std::string widget = "```lm-train\nid: trainer\n```\n\n";
  const std::string measured =
      "measured:\n  widget: trainer\n  value: /training/bigram_loss\n  label: The bigram model's loss\n";
  const std::string good = doc(widget + replaced_first(kPredict, "options:", measured + "options:"));
  const auto r = parse(good);
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  const Check* c = find_check(r.lesson, "guess");
  REQUIRE(c);
  REQUIRE(c->measured.has_value());
  CHECK(c->measured->widget == "trainer");
  CHECK(c->measured->pointer == "/training/bigram_loss");
  CHECK(plain_text(c->measured->label) == "The bigram model's loss");

  const std::string missing = replaced_first(good, "widget: trainer", "widget: nowhere");
  const auto m = parse(missing);
  REQUIRE(m.diagnostics.size() == 1);
  CHECK(m.diagnostics.front().pos == pos_of(missing, "nowhere"));
  CHECK(m.diagnostics.front().message == "no block has the id 'nowhere'");

  const std::string not_a_widget = replaced_first(good, "widget: trainer", "widget: guess");
  CHECK(all_messages(parse(not_a_widget)).find("'guess' is not a widget") != std::string::npos);

  const std::string no_slash = replaced_first(good, "value: /training", "value: training");
  const auto n = parse(no_slash);
  REQUIRE(n.diagnostics.size() == 1);
  CHECK(n.diagnostics.front().message.find("starts with '/'") != std::string::npos);
}

TEST_CASE("a prediction is committed once, and a wrong guess still completes the lesson") {
  const auto r = parse(doc(kPredict));
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  Progress p;
  p.lesson = r.lesson.id;
  REQUIRE(go_to_section(p, r.lesson, "first-steps"));
  const auto graded = answer_check(p, r.lesson, "guess", {1});
  REQUIRE(graded);
  CHECK_FALSE(graded->correct);
  CHECK_FALSE(answer_check(p, r.lesson, "guess", {0}));  // no second guess
  CHECK(p.answers.at("guess") == std::vector<int>{1});
  CHECK(answer_check(p, r.lesson, "guess", {1}));  // the same guess again changes nothing
  const ProgressSummary s = summarize(r.lesson, p);
  CHECK(s.completed);
  CHECK(s.success);
  CHECK(s.score == doctest::Approx(1.0));
}

TEST_CASE("a translated predict block may reword its explanation and label, not its structure") {
  const std::string original =
      kHead + "```lm-train\nid: trainer\n```\n\n" +
      replaced_first(kPredict,
                     "options:", "measured:\n  widget: trainer\n  value: /training/step\n  label: Step\noptions:");
  std::string es = replaced_first(original, "The bigram line, because", "La línea del bigrama, porque");
  es = replaced_first(es, "label: Step", "label: Paso");
  const auto same = check_translation(es, "es/test.md", original, "test.md", neuralpath::widgets::block_parsers());
  CHECK_MESSAGE(same.empty(), format_diagnostics(same));
  const std::string moved = replaced_first(es, "value: /training/step", "value: /training/loss");
  CHECK_FALSE(
      check_translation(moved, "es/test.md", original, "test.md", neuralpath::widgets::block_parsers()).empty());
}
