// progress_test.cpp: a learner's progress survives the round trip through its stored string,
// and a damaged string is refused with a reason, never a crash.
#include "helpers.h"

#include "engine/lesson/progress.h"

using namespace lesson_test;

namespace {

Lesson sample() {
    const auto r = parse(doc(
        "```check\nid: qk\nquestion: q\noptions:\n  - text: a\n    correct: yes\n    feedback: f\n"
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
    CHECK(stored == "{\"v\":1,\"lesson\":\"test-lesson\",\"section\":\"second\",\"visited\":"
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
    CHECK_FALSE(answer_check(p, lesson, "qk", {0, 1}));   // single-answer check
    CHECK_FALSE(answer_check(p, lesson, "qk", {}));
    CHECK_FALSE(open_reveal(p, lesson, "qk"));             // a check is not a reveal
    CHECK_FALSE(go_to_section(p, lesson, "missing"));
    CHECK(p == Progress{lesson.id, "", {}, {}, {}, 0});
}

TEST_CASE("reconcile drops what the lesson no longer has") {
    const Lesson lesson = sample();
    const ProgressParse old = parse_progress(
        "{\"v\":1,\"lesson\":\"test-lesson\",\"section\":\"gone\",\"visited\":[\"second\",\"gone\"],"
        "\"answers\":{\"qk\":[0],\"removed\":[1],\"many\":[9]},\"reveals\":[\"bert\",\"old\"],\"step\":2}");
    REQUIRE(old.progress);
    const Progress p = reconcile(lesson, *old.progress);
    CHECK(p.section.empty());
    CHECK(p.visited == std::set<std::string>{"second"});
    CHECK(p.answers.size() == 1);
    CHECK(p.answers.at("qk") == std::vector<int>{0});
    CHECK(p.reveals == std::set<std::string>{"bert"});
    CHECK(p.step == 2);
    // Progress stored for another lesson starts fresh.
    Progress other = *old.progress;
    other.lesson = "another";
    CHECK(reconcile(lesson, other).answers.empty());
}

TEST_CASE("corrupt progress strings are refused with a reason") {
    const char* bad[] = {
        "",
        "not json",
        "[1,2]",
        "{\"v\":1}",                                      // no lesson
        "{\"lesson\":\"x\"}",                             // no version
        "{\"v\":2,\"lesson\":\"x\"}",                     // a newer format
        "{\"v\":1,\"lesson\":\"x\"",                      // truncated
        "{\"v\":1,\"lesson\":\"x\",\"answers\":{\"a\":[-1]}}",
        "{\"v\":1,\"lesson\":\"x\",\"answers\":{\"a\":[0.5]}}",
        "{\"v\":1,\"lesson\":\"x\",\"answers\":[]}",
        "{\"v\":1,\"lesson\":\"x\",\"visited\":[1]}",
        "{\"v\":1,\"lesson\":\"x\",\"step\":\"3\"}",
        "{\"v\":1,\"lesson\":\"x\"} trailing",
        "{\"v\":1,\"lesson\":\"\\uZZZZ\"}",
        "{\"v\":1,\"lesson\":\"x\",\"a\":[[[[[[[[[[[[1]]]]]]]]]]]}",
    };
    for (const char* s : bad) {
        CAPTURE(s);
        const ProgressParse r = parse_progress(s);
        CHECK_FALSE(r.progress);
        CHECK_FALSE(r.error.empty());
    }
    CHECK_FALSE(parse_progress(std::string(kMaxProgressBytes + 1, ' ')).progress);
}

TEST_CASE("unknown keys from a host or a newer minor version are ignored") {
    const ProgressParse r = parse_progress("{\"v\":1,\"lesson\":\"x\",\"theme\":\"dark\",\"extra\":{\"k\":[true,null]}}");
    REQUIRE_MESSAGE(r.progress, r.error);
    CHECK(r.progress->lesson == "x");
}
