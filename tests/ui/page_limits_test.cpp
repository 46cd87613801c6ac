// page_limits_test.cpp: the page and `neuralpath-cli check` agree on what is valid (issue #11),
// and the deepest lesson the loader accepts draws: the views that recurse over blocks and
// equation trees stay fast and inside ImGui's rules at every nesting limit of limits.h.
#include "headless.h"

#include "engine/lesson/limits.h"
#include "engine/lesson/load.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

using namespace neuralpath::ui;
using namespace neuralpath::ui::test;
using nlohmann::json;

namespace {

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

const std::string kHead = "---\nid: deep\ntitle: Deep\nlevel: Beginner\nsummary: Nested to the limit.\n---\n"
                          "## Beginner: Deep\n\n";

// Every kind of nesting at `extra` levels past its limit (0 = exactly at the limit).
std::string deep_lesson(int extra) {
  std::string text = kHead;
  // \left( is one level, \frac{ and \sqrt{ two (the command and its group); x is one more.
  const int fenced = neuralpath::lesson::kMaxEquationNesting - 1 + extra;
  const int grouped = (neuralpath::lesson::kMaxEquationNesting - 1) / 2 + extra;
  text += "```equation\n---\n" + repeat("\\left(", fenced) + "x" + repeat("\\right)", fenced) + "\n```\n\n";
  text += "```equation\n---\n" + repeat("\\frac{", grouped) + "x" + repeat("}{y}", grouped) + "\n```\n\n";
  text += "Inline $" + repeat("\\sqrt{", grouped) + "x" + repeat("}", grouped) + "$ maths.\n\n";
  text += repeat("> ", neuralpath::lesson::kMaxBlockNesting + extra) + "A deep quote.\n\n";
  text += repeat("- ", neuralpath::lesson::kMaxBlockNesting / 2) + repeat("> ", neuralpath::lesson::kMaxBlockNesting / 2) +
          "A quote in a list.\n";
  return text;
}

}  // namespace

TEST_CASE("the deepest lesson the loader accepts draws on a phone and a desktop") {
  const std::string text = deep_lesson(0);
  REQUIRE(neuralpath::lesson::load_lesson_text(text, "lessons/deep.md", neuralpath::ui::with_widgets()).ok());
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 740, 2);
    page.load("deep", text);
    page.frames(3);
    REQUIRE(page.state()["errors"].empty());
    for (int i = 0; i < 10; ++i) page.command({{"type", "scroll"}, {"by", 300}}), page.frames(1);
  }
}

TEST_CASE("the page shows exactly the diagnostics check prints for a lesson nested too deep") {
  const std::string text = deep_lesson(1);
  const auto loaded = neuralpath::lesson::load_lesson_text(text, "lessons/deep.md", neuralpath::ui::with_widgets());
  REQUIRE_FALSE(loaded.ok());
  json expected = json::array();
  for (const auto& d : loaded.diagnostics) expected.push_back(d.to_string());
  CAPTURE(expected.dump());
  CHECK(expected.size() == 4);   // two display equations, the inline one, the quote

  Headless page(375, 740, 2);
  page.load("deep", text);
  page.frames(3);   // the error panel draws
  CHECK(page.state()["errors"] == expected);
  CHECK(page.state()["errors"][0].get<std::string>().find("lessons/deep.md:11:") == 0);
}
