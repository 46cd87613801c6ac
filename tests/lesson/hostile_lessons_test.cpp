// hostile_lessons_test.cpp: lessons the third round of hostile inputs found passing `check` and
// then breaking the page, or keeping the checker busy for minutes (issue #35). Each is now one
// `file:line:col` error at the place that asks too much, found quickly; the same limits hold
// for the page (engine/lesson/limits.h).
#include "helpers.h"

#include "engine/trace/trace.h"
#include "engine/lesson/limits.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"
#include "engine/lesson/translation.h"

#include <cmath>
#include <ctime>
#include <functional>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

using namespace lesson_test;

namespace {

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// The diagnostics of loading `text` as the CLI and the page do.
std::vector<Diagnostic> problems(const std::string& text, LoadOptions options = {}) {
  options.widgets = neuralpath::widgets::block_parsers();  // lessons use every widget kind
  return load_lesson_text(text, "hostile.md", options).diagnostics;
}

// The one diagnostic the text produces: it must mention `words` and sit at `at`.
void only_error_at(const std::string& text, std::string_view words, SourcePos at, LoadOptions options = {}) {
  const auto found = problems(text, options);
  INFO(format_diagnostics(found));
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find(words) != std::string::npos);
  CHECK(found[0].pos == at);
}

double cpu_seconds(const std::function<void()>& work) {
  const std::clock_t start = std::clock();
  work();
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

// A sentence of n words the default model knows.
std::string words(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += i ? " cat" : "the";
  return s;
}

}  // namespace

// [SECTION] Text the page cannot show ------------------------------------------------------------

TEST_CASE("a byte that is not UTF-8 is an error at its line and column, wherever it is") {
  // One 0xFF passed the checker and then stopped the page ("[object WebAssembly.Exception]").
  SUBCASE("in the title") {
    std::string text = kHead;
    text.replace(text.find("A test lesson") + 2, 0, "\xFF");
    only_error_at(text, "(0xFF) is not UTF-8", {3, 10});
  }
  SUBCASE("in a heading") {
    only_error_at(doc("## Beginner: Caf\xC3 more\n\nText.\n"), "(0xC3) is not UTF-8", {9, 17});
  }
  SUBCASE("in a check's question") {
    const std::string text =
        doc("```check\nid: q\nquestion: Which \xED\xA0\x80 one?\noptions:\n"
            "  - text: a\n    correct: yes\n    feedback: y\n  - text: b\n    feedback: n\n```\n");
    only_error_at(text, "(0xED) is not UTF-8", {11, 17});  // a UTF-16 surrogate, encoded
  }
  SUBCASE("overlong and cut-short forms") {
    CHECK_FALSE(problems(doc("Over\xC0\xAF long.\n")).empty());
    CHECK_FALSE(problems(doc("Cut \xE2\x82")).empty());
    CHECK_FALSE(problems(doc("Past U+10FFFF \xF4\x90\x80\x80.\n")).empty());
  }
  SUBCASE("valid text in any script still loads") {
    CHECK(problems(doc("Atención: 注意 — “quotes” 🙂 and ü.\n")).empty());
  }
}

TEST_CASE("a widget sentence the page would refuse is refused by the checker, with the page's own figure") {
  // The checker allowed 512 tokens; the heatmap shows 24, the mask steps 16, split-and-join 12.
  // Each kind says its figure (its model's kMaxTokens, engine/widgets/<kind>/) and hands it
  // over with the sentence; the lesson library names no kind.
  const std::map<std::string, int> shown = {{"heatmap", 24},   {"mask-steps", 16}, {"model-view", 24},
                                            {"head-view", 24}, {"spotlight", 48},  {"split-join", 12},
                                            {"playback", 16},  {"train", 48}};
  for (const auto& [kind, most] : shown) {
    CAPTURE(kind);
    const bool queried = kind == "spotlight" || kind == "head-view" || kind == "train" || kind == "split-join";
    const std::string query = queried ? "query: the\n" : "";
    const auto block = [&](std::size_t n) {
      return doc("```" + kind + "\nsentence: " + words(n) + "\n" + query + "```\n");
    };
    const ParseResult parsed = parse_lesson(block(3), "limits.md", neuralpath::widgets::block_parsers());
    REQUIRE(parsed.sentences.size() == 1);
    CHECK(parsed.sentences.front().max_tokens == most);
    if (kind == "playback" || kind == "train" || kind == "split-join") continue;  // their blocks need more keys
    CHECK(problems(block(static_cast<std::size_t>(most))).empty());
    only_error_at(block(static_cast<std::size_t>(most) + 1), "shows at most " + std::to_string(most) + " tokens",
                  {10, 11});
  }
}

TEST_CASE("a widget sentence longer than a sentence field is an error at its start") {
  // A 1.9 MB one-word sentence came through a shared link; a lesson could carry one too.
  const std::string word = "the " + repeat("a", kMaxSentenceBytes);
  only_error_at(doc("```heatmap\nsentence: " + word + "\n```\n"), "a sentence holds at most 511", {10, 11});
  CHECK(problems(doc("```heatmap\nsentence: the cat sat\n```\n")).empty());
}

// [SECTION] The model -------------------------------------------------------------------------------

namespace {

const std::string kVocabulary =
    "```vocabulary\nfeatures: [animate, place]\nwords:\n  the: [0, 0]\n  cat: [1, 0]\n"
    "  mat: [0, 1]\n```\n\n";

std::string with_weights(const std::string& weights) {
  return doc(kVocabulary + "```weights\n" + weights + "```\n\n```heatmap\nsentence: the cat\n```\n");
}

}  // namespace

TEST_CASE("positions, temperature and weights a float cannot carry are errors at the value") {
  // positions: 1e38 and temperature: 1e-45 passed the checker; the engine then printed NaN.
  only_error_at(with_weights("positions: 1e38\n"), "'positions' is on, off or a scale", {18, 12});
  only_error_at(with_weights("temperature: 1e-45\n"), "'temperature' is a number from 0.1 to 5", {18, 14});
  only_error_at(with_weights("temperature: 50\n"), "'temperature' is a number from 0.1 to 5", {18, 14});
  only_error_at(with_weights("attention:\n  W_Q:\n    animate -> place: 1e38\n"), "'1e38' is too large", {20, 23});
  CHECK(
      problems(with_weights("positions: 0.5\ntemperature: 1\nattention:\n  W_Q:\n    animate -> place: 3\n")).empty());
}

TEST_CASE("a model past the size limit is refused at its weights block, before anything is made") {
  // A 3 KB lesson asked for 51 GB: context layers of d-model 4096 with hidden 16384.
  const std::string layer = "  - heads: 1\n";
  const double seconds = cpu_seconds([&] {
    only_error_at(with_weights("d-model: 4096\ncontext:\n" + repeat(layer, 8) + "feed-forward:\n  hidden: 16384\n"),
                  "a lesson's model holds at most", {17, 4});
  });
  CHECK(seconds < 1.0);
  only_error_at(with_weights("context:\n" + repeat(layer, 9)), "at most 8 context layers", {19, 3});
  CHECK(problems(with_weights("d-model: 64\ncontext:\n" + repeat(layer, 2))).empty());
}

TEST_CASE("a trace with NaN, or an infinity outside the mask, is not finite") {
  neuralpath::Trace trace;
  neuralpath::Step mask;
  mask.kind = neuralpath::StepKind::mask;
  mask.result.values = neuralpath::Matrix::Zero(2, 2);
  mask.result.values(0, 1) = -std::numeric_limits<float>::infinity();  // what the mask writes
  trace.steps.push_back(mask);
  CHECK(trace_is_finite(trace));
  neuralpath::Step scores = mask;
  scores.kind = neuralpath::StepKind::score;
  trace.steps.push_back(scores);
  CHECK_FALSE(trace_is_finite(trace));
  trace.steps.pop_back();
  trace.steps.front().result.values(1, 1) = std::nanf("");
  CHECK_FALSE(trace_is_finite(trace));
}

// [SECTION] How much the page lays out ---------------------------------------------------------------

TEST_CASE("more sections, checks or widgets than the page lays out are an error at the first one too many") {
  // 100k sections took 2.5 s a frame; 20k checks never finished opening.
  std::string text = kHead;
  for (std::size_t i = 1; i < kMaxSections; ++i) text += "## S" + std::to_string(i) + "\n\nText.\n\n";
  CHECK(problems(text).empty());
  only_error_at(text + "## One more\n\nText.\n", "at most 100 sections", pos_of(text + "## One more", "One more"));

  std::string checks = doc("");
  const std::string check =
      "```check\nid: c{n}\nquestion: Q?\noptions:\n  - text: a\n    correct: yes\n    feedback: y\n"
      "  - text: b\n    feedback: n\n```\n\n";
  for (std::size_t i = 0; i <= kMaxChecks; ++i) {
    std::string one = check;
    one.replace(one.find("{n}"), 3, std::to_string(i));
    checks += one;
  }
  only_error_at(checks, "at most 100 checks", pos_of(checks, "check\nid:", static_cast<int>(kMaxChecks) + 1));

  std::string widgets = doc("");
  for (std::size_t i = 0; i <= kMaxWidgets; ++i) widgets += "```heatmap\nsentence: the cat\n```\n\n";
  only_error_at(widgets, "at most 20 widgets", pos_of(widgets, "heatmap\nsentence", static_cast<int>(kMaxWidgets) + 1));
}

// [SECTION] Training ---------------------------------------------------------------------------------

namespace {

std::string trained_lesson(int steps, int batch) {
  return doc(kVocabulary +
             "```weights\nfeed-forward:\n  hidden: 8\n```\n\n```task\nid: t\nobjective: next-word\n"
             "lesson-weights: trained\nsteps: " +
             std::to_string(steps) + "\nbatch: " + std::to_string(batch) + "\n---\nthe cat\nthe mat\n```\n");
}

}  // namespace

TEST_CASE("a task that would train for minutes is refused by the checker, at once") {
  // A 400-byte lesson kept `check` and `heads` busy for minutes, and the page on "Opening".
  const std::string text = trained_lesson(100000, 1024);
  const double seconds = cpu_seconds([&] {
    only_error_at(text, "floating-point operations; a task may take at most", {22, 4});
  });
  CHECK(seconds < 2.0);
  // The launch lessons' own tasks are well inside the limit.
  for (const char* name : {"course-playback.md", "multi-head.md"}) {
    CAPTURE(name);
    const ParseResult parsed = parse_lesson(read(NEURALPATH_SOURCE_DIR "/lessons/" + std::string(name)), name,
                                            neuralpath::widgets::block_parsers());
    REQUIRE(parsed.diagnostics.empty());
    for (const TaskData& task : parsed.lesson.tasks) {
      const double flops = training_flops(parsed.lesson, task);
      MESSAGE(std::string(name) << " task " << task.id << ": " << flops << " floating-point operations");
      CHECK(flops < kMaxTrainingFlops / 5);
    }
  }
}

TEST_CASE("the page never trains while a lesson opens: without its shipped weights it is an error at lesson-weights") {
  const std::string text = trained_lesson(50, 4);
  CHECK(problems(text).empty());  // the CLI trains it (a few milliseconds here)
  only_error_at(text, "not trained while the lesson opens", {25, 17},
                {.widgets = {}, .lesson_weights = true, .train_lesson_weights = false});
  // `check` validates without training, whatever the task asks.
  const LoadResult checked = load_lesson_text(
      text, "hostile.md",
      neuralpath::widgets::with_widgets({.widgets = {}, .lesson_weights = false, .train_lesson_weights = true}));
  CHECK(checked.ok());
}

// [SECTION] Translations -----------------------------------------------------------------------------

TEST_CASE("the translation check aligns 30 000 sections without a table of every pair" * doctest::test_suite("slow")) {
  // A table of 30k × 30k cells ended in std::bad_alloc (exit 3).
  std::string original = kHead, shuffled = kHead;
  const std::size_t n = 30000;
  for (std::size_t i = 0; i < n; ++i) original += "## S " + std::to_string(i) + "\n\n";
  for (std::size_t i = 0; i < n; ++i) shuffled += "## S " + std::to_string((i * 7919) % n) + "\n\n";  // a permutation
  std::string different = kHead;
  for (std::size_t i = 0; i < n; ++i) different += "## T " + std::to_string(i) + "\n\n";
  std::vector<Diagnostic> same, moved, none;
  const double seconds = cpu_seconds([&] {
    same = check_translation(original, "es/big.md", original, "big.md", neuralpath::widgets::block_parsers());
    moved = check_translation(shuffled, "es/big.md", original, "big.md", neuralpath::widgets::block_parsers());
    none = check_translation(different, "es/big.md", original, "big.md", neuralpath::widgets::block_parsers());
  });
  CHECK(seconds < 20.0);
  CHECK(same.empty());
  CHECK(moved.size() == kMaxDiagnostics);  // sections in a different place, capped
  CHECK(moved.front().message.find("in a different place") != std::string::npos);
  CHECK(none.size() == kMaxDiagnostics);
}

TEST_CASE("the bounded alignment still pairs what the exact one pairs in a small outline") {
  const std::string original =
      doc("Text.\n\n## Beginner: Two {#two}\n\n## Beginner: Three {#three}\n\n"
          "## Beginner: Four {#four}\n");
  const std::string translated = doc("Texto.\n\n## Beginner: Tres {#three}\n\n## Beginner: Cuatro {#four}\n");
  const auto found = check_translation(translated, "es/t.md", original, "t.md", neuralpath::widgets::block_parsers());
  INFO(format_diagnostics(found));
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("the section 'two'") != std::string::npos);
  CHECK(found[0].message.find("is missing from the translation") != std::string::npos);
}
