// errors_limits_test.cpp: hostile or careless lessons (issue #11). Nesting deeper than
// limits.h allows is one `file:line:col` diagnostic at the place it goes too deep, never a
// stack overflow; nothing thrown escapes the load entry point; a lesson over 4 MB is refused.
#include "helpers.h"

#include "engine/lesson/limits.h"
#include "engine/lesson/load.h"
#include "engine/lesson/progress.h"
#include "engine/lesson/settings.h"
#include "engine/widgets/widget_kinds.h"

#include <ctime>
#include <string>

using namespace lesson_test;

namespace {

std::string repeat(std::string_view s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// The one diagnostic the text produces, which must mention `words`.
Diagnostic only_error(const std::string& text, std::string_view words) {
  const LoadResult r = load_lesson_text(text, "deep.md", neuralpath::widgets::with_widgets());
  INFO(format_diagnostics(r.diagnostics));
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message.find(words) != std::string::npos);
  CHECK_FALSE(r.ok());
  return r.diagnostics[0];
}

bool loads(const std::string& text) {
  const LoadResult r = load_lesson_text(text, "deep.md", neuralpath::widgets::with_widgets());
  INFO(format_diagnostics(r.diagnostics));
  CHECK(r.diagnostics.empty());
  return r.ok();
}

// A fenced block of `kind` around `inner`, with more backticks than any fence inside it.
std::string fence(const std::string& kind, const std::string& settings, const std::string& inner, int ticks) {
  const std::string marks(static_cast<std::size_t>(ticks), '`');
  return marks + kind + "\n" + settings + "---\n" + inner + marks + "\n";
}

}  // namespace

TEST_CASE("an equation nested past the limit is an error at the atom that goes too deep") {
  SUBCASE("\\frac{ nested thousands deep (a stack overflow before the limit)") {
    const std::string latex = repeat("\\frac{", 3000) + "x" + repeat("}{y}", 3000);
    const std::string text = doc("```equation\n---\n" + latex + "\n```\n");
    const Diagnostic d = only_error(text, "nests more than 64 levels");
    // \frac{ is two levels (the command and its group): the 65th atom is the 33rd \frac.
    CHECK(d.pos == SourcePos{11, 1 + 6 * 32});
    CHECK(d.to_string().rfind("deep.md:11:193: error: the equation nests more than 64 levels", 0) == 0);
  }
  SUBCASE("\\left( repeated") {
    const std::string text =
        doc("```equation\n---\n" + repeat("\\left(", 5000) + "x" + repeat("\\right)", 5000) + "\n```\n");
    const Diagnostic d = only_error(text, "nests more than 64 levels");
    CHECK(d.pos.line == 11);
  }
  SUBCASE("'{' repeated inside $…$ in a paragraph") {
    const std::string text = doc("Text $" + repeat("{", 20000) + "x" + repeat("}", 20000) + "$ here.\n");
    const Diagnostic d = only_error(text, "nests more than 64 levels");
    CHECK(d.pos == SourcePos{9, 7 + 64});  // the 65th '{', after "Text $"
  }
  SUBCASE("exactly at the limit still parses, one more level does not") {
    CHECK(loads(doc("Text $" + repeat("{", 63) + "x" + repeat("}", 63) + "$.\n")));
    only_error(doc("Text $" + repeat("{", 64) + "x" + repeat("}", 64) + "$.\n"), "nests more than 64");
  }
}

TEST_CASE("block settings nested past the limit are an error, not a crash") {
  SUBCASE("'[' repeated in an inline list") {
    const std::string text = doc("```cost-explorer\nlengths: " + repeat("[", 50000) + "\n```\n");
    const std::string all =
        format_diagnostics(load_lesson_text(text, "deep.md", neuralpath::widgets::with_widgets()).diagnostics);
    // At the 16th '[' (the block's map is the first level), and no "never closed" noise.
    CHECK(all.find("deep.md:10:" + std::to_string(10 + 15) +
                   ": error: settings nest more than 16 levels deep here\n") != std::string::npos);
    CHECK(all.find("never closed") == std::string::npos);
  }
  SUBCASE("maps indented under maps") {
    std::string settings;
    for (int i = 0; i < 40; ++i) settings += std::string(static_cast<std::size_t>(2 * i), ' ') + "k:\n";
    const std::string text = doc("```cost-explorer\n" + settings + "```\n");
    const LoadResult r = load_lesson_text(text, "deep.md", neuralpath::widgets::with_widgets());
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(format_diagnostics(r.diagnostics).find("deep.md:26:33: error: settings nest more than 16 levels") !=
          std::string::npos);
  }
  SUBCASE("lists of maps under lists") {
    std::string settings = "lengths:\n";
    for (int i = 0; i < 40; ++i) settings += std::string(static_cast<std::size_t>(2 * i), ' ') + "- k:\n";
    const std::string text = doc("```cost-explorer\n" + settings + "```\n");
    const LoadResult r = load_lesson_text(text, "deep.md", neuralpath::widgets::with_widgets());
    CHECK(format_diagnostics(r.diagnostics).find("settings nest more than 16 levels deep here") != std::string::npos);
  }
  SUBCASE("fifteen inline levels under a key parse, sixteen do not") {
    std::vector<SettingsError> errors;
    parse_settings(SourceText::verbatim("k: " + repeat("[", 15) + "1" + repeat("]", 15), 0), errors);
    CHECK(errors.empty());
    parse_settings(SourceText::verbatim("k: " + repeat("[", 16) + "1" + repeat("]", 16), 0), errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].origin == 3 + 15);
  }
}

TEST_CASE("quotes and lists nested past the limit are one error at the text inside") {
  SUBCASE("'> ' repeated") {
    const std::string text = doc(repeat("> ", 20000) + "deep\n\nAfter.\n");
    const Diagnostic d = only_error(text, "nest more than 16 levels deep here");
    CHECK(d.pos == SourcePos{9, 1 + 2 * 20000});  // at "deep"
  }
  SUBCASE("'- ' repeated") {
    const std::string text = doc(repeat("- ", 20000) + "deep\n");
    const Diagnostic d = only_error(text, "nest more than 16 levels deep here");
    CHECK(d.pos == SourcePos{9, 1 + 2 * 20000});
  }
  SUBCASE("sixteen levels are allowed, seventeen are not") {
    CHECK(loads(doc(repeat("> ", 16) + "fine\n")));
    CHECK(loads(doc(repeat("- ", 8) + repeat("> ", 8) + "fine\n")));
    only_error(doc(repeat("> ", 17) + "deep\n"), "nest more than 16 levels");
  }
}

TEST_CASE("callouts and reveals count toward the same nesting limit as lists and quotes") {
  // Callouts inside callouts, each fence one backtick longer than the one it holds.
  auto callouts = [](int levels, const std::string& core) {
    std::string inner = core;
    for (int i = 0; i < levels; ++i) inner = fence("callout", "kind: note\n", inner, 3 + i);
    return inner;
  };
  CHECK(loads(doc(callouts(16, "Fine.\n"))));
  const Diagnostic d = only_error(doc(callouts(17, "Deep.\n")), "nest more than 16 levels deep here");
  CHECK(d.pos.line == 9 + 16 * 3);  // the innermost callout's fence: three lines per level above it
  // Inside two quotes, fourteen callouts fit and fifteen are one too many.
  auto quoted = [](const std::string& lines) {
    std::string out;
    std::size_t pos = 0;
    while (pos < lines.size()) {
      const std::size_t nl = lines.find('\n', pos);
      out += "> > " + lines.substr(pos, nl - pos) + "\n";
      pos = nl + 1;
    }
    return out;
  };
  CHECK(loads(doc(quoted(callouts(14, "Fine.\n")))));
  only_error(doc(quoted(callouts(15, "Deep.\n"))), "nest more than 16 levels deep here");
}

TEST_CASE("nothing thrown while loading escapes load_lesson_text") {
  // Hostile inputs of every kind above: each call returns (the test would abort otherwise).
  for (const std::string& body :
       {repeat("\\frac{", 100000), repeat("\\left(", 100000), "$" + repeat("{", 200000) + "$",
        "```cost-explorer\nlengths: " + repeat("[", 200000) + "\n```\n", repeat("> ", 200000), repeat("- ", 200000),
        repeat("* ", 200000), repeat("1. ", 100000), repeat("[", 200000), repeat("*_", 200000)}) {
    const LoadResult r = load_lesson_text(doc(body), "hostile.md", neuralpath::widgets::with_widgets());
    CHECK(r.ok() == r.diagnostics.empty());
    CHECK(r.diagnostics.size() <= kMaxDiagnostics + 1);
  }
}

TEST_CASE("a lesson over 4 MB is refused by the shared load path, before parsing") {
  const std::string big = doc(std::string(kMaxLessonBytes, 'a'));
  const LoadResult r = load_lesson_text(big, "lessons/big.md", neuralpath::widgets::with_widgets());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].to_string() == "lessons/big.md:1:1: error: the file is larger than 4 MB; is it a lesson?");
  // Just under the limit is parsed as usual.
  const LoadResult fits = load_lesson_text(doc("Text.\n") + std::string(kMaxLessonBytes - 200, '\n'), "x.md",
                                           neuralpath::widgets::with_widgets());
  CHECK(fits.ok());
}

TEST_CASE("a file with thousands of errors lists the first 200 and says there are more") {
  const std::string text = doc(repeat("$}$ ", 20000) + "\n");
  const LoadResult r = load_lesson_text(text, "many.md", neuralpath::widgets::with_widgets());
  REQUIRE(r.diagnostics.size() == kMaxDiagnostics + 1);
  CHECK(r.diagnostics[0].pos == SourcePos{9, 2});
  CHECK(r.diagnostics.back().message.find("more than 200 problems") != std::string::npos);
}

// Linear time. Each lesson below is near the 4 MB cap and built so that any pairwise pass
// (comparing every section, id or key with all the earlier ones) does 10^10 comparisons or
// more: 10 s to hours, where the linear parse takes 0.1-0.5 s. The bound is CPU time (not wall
// time, so a loaded machine does not fail it) and over 10× what the release build needs: it
// fails when the growth is quadratic, not when the machine is busy. (The sanitize run leaves
// these out: they measure speed, and ASan's slowdown is not what they are about.)
namespace {

double cpu_seconds_to_load(const std::string& text) {
  const std::clock_t start = std::clock();
  const LoadResult r = load_lesson_text(text, "big.md", neuralpath::widgets::with_widgets());
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  MESSAGE(text.size() << " bytes loaded in " << seconds << " s of CPU time");
  return seconds;
}

constexpr double kLinearBound = 5.0;  // seconds of CPU time

}  // namespace

TEST_CASE("a lesson with 150 000 sections loads in linear time" * doctest::test_suite("slow")) {
  std::string text = kHead;
  for (int i = 0; i < 150000; ++i) text += "## S" + std::to_string(i) + "\n\n";
  REQUIRE(text.size() < kMaxLessonBytes);
  CHECK(cpu_seconds_to_load(text) < kLinearBound);
}

TEST_CASE("a lesson with 130 000 block ids and 10 000 code references loads in linear time" *
          doctest::test_suite("slow")) {
  // Terse blocks (no language: an error each, capped at 200) so that ids, not the engine, dominate.
  std::string text = doc("");
  for (int i = 0; i < 130000; ++i) text += "```code\nid: c" + std::to_string(i) + "\n---\nx\n```\n";
  for (int i = 0; i < 10000; ++i) text += "```playback\ncode: c" + std::to_string(i) + "\n```\n";
  REQUIRE(text.size() < kMaxLessonBytes);
  CHECK(cpu_seconds_to_load(text) < kLinearBound);
}

TEST_CASE("a settings map with 250 000 keys loads in linear time" * doctest::test_suite("slow")) {
  std::string text = doc("```vocabulary\nfeatures: [a]\nwords:\n");
  for (int i = 0; i < 250000; ++i) text += "  w" + std::to_string(i) + ": [1]\n";
  text += "```\n";
  REQUIRE(text.size() < kMaxLessonBytes);
  CHECK(cpu_seconds_to_load(text) < kLinearBound);
}

TEST_CASE("a 3 MB sentence on one line is located in linear time" * doctest::test_suite("slow")) {
  const std::string text = doc("```heatmap\nsentence: " + repeat("cat ", 750000) + "\n```\n");
  CHECK(cpu_seconds_to_load(text) < kLinearBound);
}

TEST_CASE("a diagnostic is one line whatever the file name or the quoted lesson text holds") {
  CHECK(printable_file_name("lessons/self-attention.md") == "lessons/self-attention.md");
  CHECK(printable_file_name("lecciones/atención 1.md") == "lecciones/atención 1.md");
  CHECK(printable_file_name("a.md\nb.md:1:1: error: forged") == "\"a.md\\nb.md:1:1: error: forged\"");
  CHECK(printable_file_name("say \"hi\".md") == "\"say \\\"hi\\\".md\"");
  CHECK(printable_file_name("back\\slash\t.md") == "\"back\\\\slash\\t.md\"");
  CHECK(printable_file_name("esc\x1b[31m.md") == "\"esc\\x1b[31m.md\"");
  CHECK(printable_file_name("bidi\u202Egnp.md") == "\"bidi\\xe2\\x80\\xaegnp.md\"");
  CHECK(printable_file_name("bad\xff\xfe.md") == "\"bad\\xff\\xfe.md\"");
  CHECK(printable_file_name("") == "\"\"");
  const Diagnostic d{"x\ny.md", {3, 4}, "unknown key 'a\nb'"};
  CHECK(d.to_string() == "\"x\\ny.md\":3:4: error: unknown key 'a b'");
}

// [SECTION] Fuzzing regressions: inputs the libFuzzer targets (tests/fuzz) once crashed on.
// Their files are in tests/fuzz/regressions/; under the sanitize preset UBSan and ASan abort
// on a relapse, so these tests catch undefined behaviour, not just wrong answers.

TEST_CASE("fuzz regression: a saved record whose version is 1e4001 is refused without undefined behaviour") {
  const ProgressParse r = parse_progress(R"({"v":1e4001,"lesso~":"x","a":[[1]]})");
  CHECK_FALSE(r.progress.has_value());
  CHECK_FALSE(r.error.empty());
}
