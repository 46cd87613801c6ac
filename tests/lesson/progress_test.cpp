// progress_test.cpp: a learner's progress survives the round trip through its stored string;
// a damaged one gives back every part that can be read and says what was left out; a string
// with nothing usable is refused with a reason, never a crash.
#include "helpers.h"

#include "engine/lesson/progress.h"

using namespace lesson_test;

namespace {

Lesson sample() {
  const auto r =
      parse(doc("```check\nid: qk\nquestion: q\noptions:\n  - text: a\n    correct: yes\n    feedback: f\n"
                "  - text: b\n    feedback: g\n```\n\n"
                "```reveal\nid: bert\nlabel: l\n---\nhidden\n```\n\n"
                "## Medium: Second\n\n"
                "```check\nid: many\nquestion: q\nanswer: multiple\noptions:\n"
                "  - text: a\n    correct: yes\n    feedback: f\n  - text: b\n    correct: yes\n    feedback: f\n"
                "  - text: c\n    feedback: f\n```\n"));
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  return r.lesson;
}

}  // namespace

TEST_CASE("progress round-trips through its stored string") {
  const Lesson lesson = sample();
  Progress p;
  p.lesson = lesson.id;
  CHECK(go_to_section(p, lesson, "first-steps"));
  CHECK(go_to_section(p, lesson, "second"));
  REQUIRE(answer_check(p, lesson, "qk", {1}));
  REQUIRE(answer_check(p, lesson, "many", {1, 0}));
  CHECK(open_reveal(p, lesson, "bert"));
  p.step = 5;

  const std::string stored = serialize_progress(p);
  CHECK(stored ==
        "{\"v\":1,\"lesson\":\"test-lesson\",\"section\":\"second\",\"visited\":"
        "[\"first-steps\",\"second\"],\"answers\":{\"many\":[0,1],\"qk\":[1]},"
        "\"reveals\":[\"bert\"],\"step\":5}");
  const ProgressParse back = parse_progress(stored);
  REQUIRE_MESSAGE(back.progress, back.error);
  CHECK(*back.progress == p);
}

TEST_CASE("strings with quotes, backslashes and non-ASCII survive the round trip") {
  Progress p;
  p.lesson = "x";
  p.section = "a\"b\\c\n≤∞";
  const ProgressParse back = parse_progress(serialize_progress(p));
  REQUIRE(back.progress);
  CHECK(back.progress->section == p.section);
}

TEST_CASE("answers are graded and summarised for completion and score") {
  const Lesson lesson = sample();
  Progress p;
  p.lesson = lesson.id;
  auto g = answer_check(p, lesson, "qk", {1});
  REQUIRE(g);
  CHECK_FALSE(g->correct);
  CHECK(g->wrong == std::vector<int>{1});
  ProgressSummary s = summarize(lesson, p);
  CHECK(s.checks == 2);
  CHECK(s.answered == 1);
  CHECK(s.correct == 0);
  CHECK_FALSE(s.completed);

  CHECK(answer_check(p, lesson, "qk", {0})->correct);
  CHECK(answer_check(p, lesson, "many", {0, 1})->correct);
  go_to_section(p, lesson, "first-steps");
  go_to_section(p, lesson, "second");
  s = summarize(lesson, p);
  CHECK(s.completed);
  CHECK(s.success);
  CHECK(s.score == doctest::Approx(1.0));
}

TEST_CASE("actions refuse unknown checks, options, reveals and sections") {
  const Lesson lesson = sample();
  Progress p;
  p.lesson = lesson.id;
  CHECK_FALSE(answer_check(p, lesson, "nope", {0}));
  CHECK_FALSE(answer_check(p, lesson, "qk", {7}));
  CHECK_FALSE(answer_check(p, lesson, "qk", {0, 1}));  // single-answer check
  CHECK_FALSE(answer_check(p, lesson, "qk", {}));
  CHECK_FALSE(open_reveal(p, lesson, "qk"));  // a check is not a reveal
  CHECK_FALSE(go_to_section(p, lesson, "missing"));
  CHECK(p == Progress{lesson.id, "", {}, {}, {}, 0, {}, {}});
}

TEST_CASE("reconcile drops what the lesson no longer has, and says what") {
  const Lesson lesson = sample();
  const ProgressParse old = parse_progress(
      "{\"v\":1,\"lesson\":\"test-lesson\",\"section\":\"gone\",\"visited\":[\"second\",\"gone\"],"
      "\"answers\":{\"qk\":[0],\"removed\":[1],\"many\":[9]},\"reveals\":[\"bert\",\"old\"],\"step\":2}");
  REQUIRE(old.complete());
  std::vector<std::string> dropped;
  const Progress p = reconcile(lesson, *old.progress, &dropped);
  CHECK(p.section.empty());
  CHECK(p.visited == std::set<std::string>{"second"});
  CHECK(p.answers.size() == 1);
  CHECK(p.answers.at("qk") == std::vector<int>{0});
  CHECK(p.reveals == std::set<std::string>{"bert"});
  CHECK(p.step == 2);
  REQUIRE(dropped.size() == 5);  // section, visited, two answers, reveal
  CHECK(dropped[0].find("\"gone\"") != std::string::npos);
  // Progress stored for another lesson starts fresh, and says why.
  Progress other = *old.progress;
  other.lesson = "another";
  dropped.clear();
  CHECK(reconcile(lesson, other, &dropped).answers.empty());
  REQUIRE(dropped.size() == 1);
  CHECK(dropped[0].find("\"another\"") != std::string::npos);
}

TEST_CASE("a string with nothing usable is refused with a reason") {
  const std::string deep = "{\"v\":1,\"lesson\":\"x\",\"a\":" + std::string(20, '[') + std::string(20, ']') + "}";
  const std::string bad[] = {
      "",
      "not json",
      "[1,2]",
      "\"just text\"",
      "{\"v\":1}",  // no lesson: whose is it?
      "{\"v\":1,\"lesson\":7}",
      "{\"v\":1,\"lesson\":\"\"}",
      "{\"v\":1,\"lesson\":\"x\"",  // truncated
      "{\"v\":1,\"lesson\":\"x\"} trailing",
      "{\"v\":1,\"lesson\":\"\\uZZZZ\"}",
      "{\"v\":1,\"lesson\":\"x\",\"step\":1e400}",  // a number out of range
      "{\"v\":1,\"lesson\":\"\xff\"}",              // not UTF-8
      deep,
      std::string(200'000, '['),  // deep enough to overflow a recursive reader
  };
  for (const std::string& s : bad) {
    CAPTURE(s.substr(0, 80));
    const ProgressParse r = parse_progress(s);
    CHECK_FALSE(r.progress);
    CHECK_FALSE(r.error.empty());
  }
  const ProgressParse big = parse_progress(std::string(kMaxProgressBytes + 1, ' '));
  CHECK_FALSE(big.progress);
  CHECK(big.error.find("too large") != std::string::npos);
}

TEST_CASE("one bad field loses that field only: the rest is read and the loss is named") {
  struct Case {
    const char* stored;
    const char* reason;  // a phrase of the one reason given
  };
  const Case cases[] = {
      {"{\"lesson\":\"x\",\"answers\":{\"b\":[1]}}", "no version"},
      {"{\"v\":\"one\",\"lesson\":\"x\",\"answers\":{\"b\":[1]}}", "not a number"},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"a\":[-1],\"b\":[1]}}", "the answer to \"a\""},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"a\":[0.5],\"b\":[1]}}", "the answer to \"a\""},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"a\":\"0\",\"b\":[1]}}", "the answer to \"a\""},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"b\":[1]},\"visited\":[1]}", "'visited' item 1"},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"b\":[1]},\"reveals\":{}}", "'reveals' is not a list"},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"b\":[1]},\"step\":\"3\"}", "'step'"},
      {"{\"v\":1,\"lesson\":\"x\",\"answers\":{\"b\":[1]},\"section\":null}", "'section'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.stored);
    const ProgressParse r = parse_progress(c.stored);
    REQUIRE_MESSAGE(r.progress, r.error);
    CHECK_FALSE(r.complete());
    CHECK(r.progress->lesson == "x");
    CHECK(r.progress->answers.at("b") == std::vector<int>{1});
    REQUIRE(r.dropped.size() == 1);
    CHECK_MESSAGE(r.dropped[0].find(c.reason) != std::string::npos, r.dropped[0]);
  }
  // An answers field that is not an object loses the answers, not the position.
  const ProgressParse r = parse_progress("{\"v\":1,\"lesson\":\"x\",\"answers\":[],\"section\":\"s\",\"step\":4}");
  REQUIRE(r.progress);
  CHECK(r.progress->section == "s");
  CHECK(r.progress->step == 4);
  CHECK(r.dropped.size() == 1);
}

TEST_CASE("a newer version's record is read as far as this version understands it, and flagged") {
  const ProgressParse r =
      parse_progress("{\"v\":2,\"lesson\":\"x\",\"section\":\"s\",\"answers\":{\"qk\":[0]},\"streak\":{\"days\":3}}");
  REQUIRE(r.progress);
  CHECK(r.version == 2);
  CHECK(r.progress->answers.at("qk") == std::vector<int>{0});
  CHECK(r.progress->section == "s");
  REQUIRE(r.dropped.size() == 1);
  CHECK(r.dropped[0].find("newer version (2)") != std::string::npos);
}

TEST_CASE("many bad entries are each left out, with a bounded list of reasons") {
  std::string stored = "{\"v\":1,\"lesson\":\"x\",\"visited\":[";
  for (int i = 0; i < 10'000; ++i)
    stored += (i ? "," : "") + std::string(i % 2 ? "\"s" + std::to_string(i) + "\"" : "0");
  stored += "]}";
  const ProgressParse r = parse_progress(stored);
  REQUIRE(r.progress);
  CHECK(r.progress->visited.size() == 5'000);
  CHECK(r.dropped.size() == 6);  // five reasons, then "more entries ... were left out"
  CHECK(r.dropped.back().find("more entries of 'visited'") != std::string::npos);
}

TEST_CASE("a large record (10k sections visited) is read whole") {
  Progress p;
  p.lesson = "big";
  for (int i = 0; i < 10'000; ++i) p.visited.insert("section-number-" + std::to_string(i));
  const std::string stored = serialize_progress(p);
  REQUIRE(stored.size() < kMaxProgressBytes);
  const ProgressParse back = parse_progress(stored);
  REQUIRE(back.complete());
  CHECK(*back.progress == p);
}

TEST_CASE("unknown keys from a host or a newer version are kept and written back unchanged") {
  const ProgressParse r = parse_progress("{\"v\":1,\"lesson\":\"x\",\"theme\":\"dark\",\"extra\":{\"k\":[true,null]}}");
  REQUIRE_MESSAGE(r.complete(), r.error);
  CHECK(r.progress->lesson == "x");
  const std::string again = serialize_progress(*r.progress);
  CHECK(again.find(",\"extra\":{\"k\":[true,null]}") != std::string::npos);
  CHECK(again.find(",\"theme\":\"dark\"") != std::string::npos);
  CHECK(*parse_progress(again).progress == *r.progress);
  // They survive reconcile too (the save after a restore keeps them).
  const Lesson lesson = sample();
  Progress mine = *r.progress;
  mine.lesson = lesson.id;
  CHECK(reconcile(lesson, mine).extra == r.progress->extra);
}

TEST_CASE("the percent reaches 100 exactly when the lesson is completed") {
  const Lesson lesson = sample();  // two sections, two checks
  Progress p;
  p.lesson = lesson.id;
  CHECK(summarize(lesson, p).percent == 0);
  REQUIRE(answer_check(p, lesson, "qk", {0}));
  REQUIRE(answer_check(p, lesson, "many", {0, 1}));
  ProgressSummary s = summarize(lesson, p);
  CHECK(s.correct == s.checks);  // every check right...
  CHECK_FALSE(s.completed);      // ...but no section visited
  CHECK(s.percent == 50);
  go_to_section(p, lesson, "first-steps");
  s = summarize(lesson, p);
  CHECK(s.percent == 75);
  CHECK_FALSE(s.completed);
  go_to_section(p, lesson, "second");
  s = summarize(lesson, p);
  CHECK(s.completed);
  CHECK(s.percent == 100);
}
