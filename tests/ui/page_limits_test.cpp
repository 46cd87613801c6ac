// page_limits_test.cpp: the page and `neuralpath-cli check` agree on what is valid (issue #11),
// and the deepest lesson the loader accepts draws: the views that recurse over blocks and
// equation trees stay fast and inside ImGui's rules at every nesting limit of limits.h.
#include "headless.h"

#include "engine/lesson/limits.h"
#include "engine/lesson/load.h"
#include "engine/widgets/widget_kinds.h"
#include "engine/lesson/progress.h"
#include "engine/ui/page_limits.h"

#include <algorithm>

#include <doctest/doctest.h>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

const std::string kHead =
    "---\nid: deep\ntitle: Deep\nlevel: Beginner\nsummary: Nested to the limit.\n---\n"
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
  text += repeat("- ", neuralpath::lesson::kMaxBlockNesting / 2) +
          repeat("> ", neuralpath::lesson::kMaxBlockNesting / 2) + "A quote in a list.\n";
  return text;
}

}  // namespace

TEST_CASE("the deepest lesson the loader accepts draws on a phone and a desktop") {
  const std::string text = deep_lesson(0);
  REQUIRE(neuralpath::lesson::load_lesson_text(text, "lessons/deep.md", neuralpath::widgets::with_widgets()).ok());
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
  const auto loaded =
      neuralpath::lesson::load_lesson_text(text, "lessons/deep.md", neuralpath::widgets::with_widgets());
  REQUIRE_FALSE(loaded.ok());
  json expected = json::array();
  for (const auto& d : loaded.diagnostics) expected.push_back(d.to_string());
  CAPTURE(expected.dump());
  CHECK(expected.size() == 4);  // two display equations, the inline one, the quote

  Headless page(375, 740, 2);
  page.load("deep", text);
  page.frames(3);  // the error panel draws
  CHECK(page.state()["errors"] == expected);
  CHECK(page.state()["errors"][0].get<std::string>().find("lessons/deep.md:11:") == 0);
}

// [SECTION] Hostile links, commands and lessons (issue #35) ---------------------------------------

namespace {

// A word longer than any sentence field holds: a 2.5 KB shared link inflated to 1.9 MB of one.
const std::string kLongWord = "the " + std::string(3000, 'a');

std::string sentence_of(const json& state, const std::string& id) {
  for (const json& w : state["widgets"])
    if (w["id"] == id) return w.value("sentence", std::string());
  FAIL("no widget " << id);
  return {};
}

}  // namespace

TEST_CASE("no sentence path takes more than a sentence field holds: setSentence, a shared link, a snapshot") {
  Headless page(1280, 800);
  page.load_file("lessons/self-attention.md");
  page.frames(2);
  for (const char* id : {"causal-grid", "mask-walkthrough", "it-spotlight", "train-pronoun"}) {
    CAPTURE(id);
    const std::string before = sentence_of(page.state(), id);
    const json set = page.command({{"type", "setSentence"}, {"text", kLongWord}, {"widget", id}});
    CHECK(set["ok"] == false);
    CHECK(set["error"].get<std::string>().find("3,004 bytes long") != std::string::npos);
    const json shared =
        page.command({{"type", "restoreSnapshot"}, {"widgets", {{id, {{"s", kLongWord}, {"sentence", kLongWord}}}}}});
    CHECK(shared["ok"] == true);
    CHECK(sentence_of(page.state(), id) == before);
  }
  // The spotlight and the train widget keep a refused sentence in their box, cut to a field's size.
  const std::string state = page.state().dump();
  CHECK(state.size() < 400000);
  CHECK(state.find(std::string(600, 'a')) == std::string::npos);
}

TEST_CASE("a sentence with more tokens than the figure shows is refused by the head view too") {
  // The head view allowed the tokenizer's 512 tokens; the checker now holds it to 24, and so does it.
  Headless page(1280, 800);
  page.load_file("lessons/multi-head.md");
  std::string words = "the";
  for (int i = 1; i < 25; ++i) words += " farmer";
  const json reply = page.command({{"type", "setSentence"}, {"text", words}, {"widget", "trained-heads"}});
  CHECK(reply["ok"] == false);
  CHECK(reply["error"].get<std::string>().find("at most 24") != std::string::npos);
}

TEST_CASE("a command nested deeper than the engine reads, or larger than it takes, is refused before it is built") {
  Headless page(1280, 800);
  page.load_file("lessons/self-attention.md");
  // 5M nested arrays from one link froze the tab; a record's dump of a deep tree overflowed the stack.
  const std::string deep =
      R"({"type":"restore","progress":)" + std::string(200000, '[') + std::string(200000, ']') + "}";
  const json reply = json::parse(page.app().command(deep));
  CHECK(reply["ok"] == false);
  CHECK(reply["error"].get<std::string>().find("nested more than 32 levels") != std::string::npos);
  const std::string large = R"({"type":"setSentence","text":")" + std::string(kMaxCommandBytes, 'a') + "\"}";
  CHECK(json::parse(page.app().command(large))["error"].get<std::string>().find("larger than the engine takes") !=
        std::string::npos);
  CHECK(page.command({{"type", "goto"}, {"section", "qkv"}})["ok"] == true);  // and the page goes on
}

TEST_CASE("the page refuses a lesson whose trained weights are not shipped, at its lesson-weights line") {
  // The page never trains while it opens (it stayed on "Opening" for minutes); the site's build
  // ships the weights. Native tests and the CLI still train the lesson's source.
  const std::string text = read_file("lessons/course-playback.md");
  App app;
  ImGuiContext* context = ImGui::CreateContext();
  app.load_lesson("course-playback", text, {.train_weights = false});
  const json errors = json::parse(app.state_json())["errors"];
  ImGui::DestroyContext(context);
  REQUIRE(errors.size() == 1);
  const std::size_t line =
      1 + static_cast<std::size_t>(
              std::count(text.begin(), text.begin() + static_cast<long>(text.find("lesson-weights: trained")), '\n'));
  CHECK(errors[0].get<std::string>().find("lessons/course-playback.md:" + std::to_string(line) + ":17: error:") == 0);
  CHECK(errors[0].get<std::string>().find("not trained while the lesson opens") != std::string::npos);
}

TEST_CASE("np_limits tells the page every limit it checks, as the engine holds them") {
  const json limits = json::parse(page_limits_json());
  CHECK(limits["lesson_bytes"] == neuralpath::lesson::kMaxLessonBytes);
  CHECK(limits["sentence_bytes"] == neuralpath::lesson::kMaxSentenceBytes);
  CHECK(limits["command_bytes"] == kMaxCommandBytes);
  CHECK(limits["json_depth"] == kMaxCommandNesting);
  CHECK(limits["shared_state_chars"] == kMaxSharedStateChars);
  CHECK(limits["record_bytes"] == neuralpath::lesson::kMaxProgressBytes);
}
