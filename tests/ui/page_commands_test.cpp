// The App's command contract: what a host page, the DOM mirror and tests can ask of the page,
// what state() then says, and which events follow. Bad commands are refused, never run.
#include "headless.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

const char* kSample = "tests/ui/fixtures/page_sample.md";

}  // namespace

TEST_CASE("answering a check shows the choice, whether it is correct, and that option's feedback") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(2);
  page.events();

  json reply = page.command({{"type", "answer"}, {"check", "single"}, {"option", 1}});
  REQUIRE(reply["ok"] == true);
  json check = with_id(page.state()["checks"], "single");
  CHECK(check["chosen"] == json::array({1}));
  CHECK(check["correct"] == false);
  CHECK(check["feedback"] == "Values come in after the scores.");
  CHECK(check["attempts"] == 1);

  const auto answered = page.events_of("answered");
  REQUIRE(answered.size() == 1);
  CHECK(answered[0]["check"] == "single");
  CHECK(answered[0]["option"] == 1);
  CHECK(answered[0]["correct"] == false);
  CHECK(answered[0]["score"] == 0.0);
  CHECK(answered[0]["attempts"] == 1);

  REQUIRE(page.command({{"type", "answer"}, {"check", "single"}, {"option", 0}})["ok"] == true);
  check = with_id(page.state()["checks"], "single");
  CHECK(check["correct"] == true);
  CHECK(check["feedback"] == "Right, their dot product is the score.");
  CHECK(check["attempts"] == 2);
  CHECK(page.state()["progress"]["answers"]["single"] == json::array({0}));
}

TEST_CASE("a multiple-answer check is graded on the whole set, with a note about missed options") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(1);
  REQUIRE(page.command({{"type", "answer"}, {"check", "several"}, {"option", json::array({0})}})["ok"] == true);
  json check = with_id(page.state()["checks"], "several");
  CHECK(check["multiple"] == true);
  CHECK(check["correct"] == false);
  CHECK(check["feedback"].get<std::string>().find("One more option is also correct.") != std::string::npos);
  const auto answered = page.events_of("answered");
  REQUIRE(answered.size() == 1);
  CHECK(answered[0]["option"] == json::array({0}));
  CHECK(answered[0]["score"].get<double>() == doctest::Approx(0.5));

  REQUIRE(page.command({{"type", "answer"}, {"check", "several"}, {"option", json::array({1, 0})}})["ok"] == true);
  check = with_id(page.state()["checks"], "several");
  CHECK(check["correct"] == true);
  CHECK(check["chosen"] == json::array({0, 1}));
}

TEST_CASE("malformed and unknown commands are refused with a reason and change nothing") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(1);
  const std::string before = page.app().state_json();
  const json bad[] = {
      json("not an object"),
      json::object(),
      {{"type", 3}},
      {{"type", "fly"}},
      {{"type", "goto"}},
      {{"type", "goto"}, {"section", "nowhere"}},
      {{"type", "answer"}, {"check", "single"}},
      {{"type", "answer"}, {"check", "single"}, {"option", 7}},
      {{"type", "answer"}, {"check", "single"}, {"option", -1}},
      {{"type", "answer"}, {"check", "single"}, {"option", "0"}},
      {{"type", "answer"}, {"check", "single"}, {"option", 0.5}},
      {{"type", "answer"}, {"check", "single"}, {"option", json::array({0, 1})}},
      {{"type", "answer"}, {"check", "several"}, {"option", json::array({0, 0})}},
      {{"type", "answer"}, {"check", "several"}, {"option", json::array()}},
      {{"type", "answer"}, {"check", "nope"}, {"option", 0}},
      {{"type", "reveal"}, {"id", "nope"}},
      {{"type", "hint"}, {"check", "several"}},  // it has no hint
      {{"type", "theme"}, {"dark", "yes"}},
      {{"type", "restore"}, {"progress", "{not json"}},
      {{"type", "restore"}, {"progress", 12}},
      {{"type", "setSentence"}, {"text", "hello"}, {"widget", "no-such-widget"}},
  };
  for (const json& message : bad) {
    CAPTURE(message.dump());
    const json reply = page.command(message);
    CHECK(reply["ok"] == false);
    CHECK(reply["error"].is_string());
    CHECK(!reply["error"].get<std::string>().empty());
  }
  CHECK(page.app().command("{broken") ==
        json({{"ok", false}, {"error", "a command is a JSON object with a string \"type\""}}).dump());
  CHECK(page.app().state_json() == before);
  CHECK(page.events_of("answered").empty());
}

TEST_CASE("goto makes a section current, scrolls it to the top and emits 'section' and 'progress'") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(2);
  page.events();
  REQUIRE(page.command({{"type", "goto"}, {"section", "interaction"}})["ok"] == true);
  page.frames(2);
  const json state = page.state();
  CHECK(state["section"] == "interaction");
  double top = -1;
  for (const json& s : state["sections"])
    if (s["anchor"] == "interaction") top = s["top"].get<double>();
  CHECK(state["layout"]["scroll"].get<double>() == doctest::Approx(top).epsilon(0.01));
  const auto sections = page.events_of("section");
  REQUIRE(!sections.empty());
  CHECK(sections.back()["section"] == "interaction");
  CHECK(state["progress"]["section"] == "interaction");
}

TEST_CASE("reveal, hint and show-answer are reflected in state and kept in the progress") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(1);
  CHECK(page.state()["reveals"][0]["id"] == "why-infinity");
  CHECK(page.state()["reveals"][0]["open"] == false);
  CHECK(page.state()["reveals"][0]["rect"].size() == 4);
  REQUIRE(page.command({{"type", "reveal"}, {"id", "why-infinity"}})["ok"] == true);
  page.frames(1);
  json state = page.state();
  CHECK(state["reveals"][0]["open"] == true);
  CHECK(state["progress"]["reveals"] == json::array({"why-infinity"}));
  REQUIRE(page.command({{"type", "reveal"}, {"id", "why-infinity"}, {"open", false}})["ok"] == true);
  CHECK(page.state()["reveals"][0]["open"] == false);

  REQUIRE(page.command({{"type", "hint"}, {"check", "single"}})["ok"] == true);
  REQUIRE(page.command({{"type", "reveal"}, {"id", "single"}})["ok"] == true);
  page.frames(1);
  const json check = with_id(page.state()["checks"], "single");
  CHECK(check["hint"] == "One is typed into the search box.");
  CHECK(check["revealed"] == true);
  CHECK(check["answer"] == json::array({0}));
}

TEST_CASE(
    "saved progress restores answers, reveals and the section, and a bad one is refused while the lesson still works") {
  std::string saved;
  {
    Headless page(1280, 800);
    page.load_file(kSample);
    page.frames(1);
    page.command({{"type", "answer"}, {"check", "single"}, {"option", 0}});
    page.command({{"type", "reveal"}, {"id", "why-infinity"}});
    page.command({{"type", "goto"}, {"section", "maths"}});
    const auto progress = page.events_of("progress");
    REQUIRE(!progress.empty());
    saved = progress.back()["progress"].get<std::string>();
    CHECK(progress.back()["total_checks"] == 2);
    CHECK(progress.back()["completed_checks"] == 1);
  }
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(1);
  const json wrong = page.command({{"type", "restore"}, {"progress", "{\"v\":1,\"lesson\":\"another-lesson\"}"}});
  CHECK(wrong["ok"] == false);
  CHECK(wrong["error"].get<std::string>().find("another-lesson") != std::string::npos);
  CHECK(page.command({{"type", "answer"}, {"check", "single"}, {"option", 2}})["ok"] == true);  // still works

  REQUIRE(page.command({{"type", "restore"}, {"progress", saved}})["ok"] == true);
  page.frames(2);
  const json state = page.state();
  CHECK(with_id(state["checks"], "single")["chosen"] == json::array({0}));
  CHECK(with_id(state["checks"], "single")["correct"] == true);
  CHECK(state["reveals"][0]["open"] == true);
  CHECK(state["section"] == "maths");

  REQUIRE(page.command({{"type", "reset"}})["ok"] == true);
  CHECK(with_id(page.state()["checks"], "single")["chosen"].empty());
  CHECK(page.state()["reveals"][0]["open"] == false);
}

TEST_CASE("answering every check correctly after visiting every section emits 'completed' once") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(1);
  for (const char* section : {"prose", "maths", "interaction", "end"}) {
    page.command({{"type", "goto"}, {"section", section}});
    page.frames(1);
  }
  page.command({{"type", "answer"}, {"check", "single"}, {"option", 0}});
  CHECK(page.events_of("completed").empty());
  page.command({{"type", "answer"}, {"check", "several"}, {"option", json::array({0, 1})}});
  const auto completed = page.events_of("completed");
  REQUIRE(completed.size() == 1);
  CHECK(completed[0]["score"] == 1.0);
  page.command({{"type", "answer"}, {"check", "single"}, {"option", 0}});
  CHECK(page.events_of("completed").empty());
}

TEST_CASE("a broken lesson lists every problem as file:line:col and refuses lesson commands") {
  Headless page(1280, 800);
  page.load("broken",
            "---\nid: broken\ntitle: Broken\nlevel: Expert\nsummary: x\n---\n\n## Beginner: A\n\n```check\nid: "
            "c\nquestion: Q?\noptions:\n  - text: a\n    feedback: f\n```\n");
  page.frames(3);
  const json state = page.state();
  REQUIRE(state["errors"].size() >= 2);
  for (const json& e : state["errors"]) {
    CAPTURE(e.get<std::string>());
    CHECK(e.get<std::string>().rfind("lessons/broken.md:", 0) == 0);
    CHECK(e.get<std::string>().find(": error: ") != std::string::npos);
  }
  CHECK(state["checks"].empty());
  CHECK(page.command({{"type", "goto"}, {"section", "a"}})["ok"] == false);
  CHECK(page.command({{"type", "theme"}, {"dark", true}})["ok"] == true);
  page.frames(2);
}

TEST_CASE("input that is not a lesson at all still gives an error panel, not a crash") {
  for (const std::string text : {std::string(""), std::string("\0\0\0", 3), std::string(5000, '`'),
                                 std::string("---\n---\n"), std::string("## Beginner: x\n$\\frac{")}) {
    Headless page(375, 700, 2);
    page.load("junk", text);
    page.frames(2);
    CHECK(!page.state()["errors"].empty());
  }
}

TEST_CASE("theme switches the palette the page is drawn with") {
  Headless page(768, 900);
  page.load_file(kSample);
  page.frames(1);
  CHECK(page.state()["theme"] == "light");
  REQUIRE(page.command({{"type", "theme"}, {"dark", true}})["ok"] == true);
  page.frames(1);
  CHECK(page.state()["theme"] == "dark");
  // theme.cpp's dark page colour, rgb(21, 23, 28), written out here on purpose: ImGui's own
  // default background is dark too, so "darkish" would pass with no theme applied at all.
  CHECK(ImGui::GetColorU32(ImGuiCol_WindowBg) == IM_COL32(21, 23, 28, 255));
  CHECK(ImGui::GetColorU32(ImGuiCol_Text) == IM_COL32(232, 232, 234, 255));
  REQUIRE(page.command({{"type", "theme"}, {"dark", false}})["ok"] == true);
  page.frames(1);
  CHECK(ImGui::GetColorU32(ImGuiCol_WindowBg) == IM_COL32(250, 250, 247, 255));
}

TEST_CASE("the light theme survives a reset of ImGui's style, as after a WebGL context restore") {
  Headless page(768, 900, 2);
  page.load_file(kSample);
  page.frames(1);
  REQUIRE(ImGui::GetColorU32(ImGuiCol_WindowBg) == IM_COL32(250, 250, 247, 255));  // theme.cpp's light page
  // What the platform layer used to do on a context restore: ImGui's defaults (dark colours,
  // unscaled sizes). The App owns the style, so the next frame puts the theme back.
  ImGui::GetStyle() = ImGuiStyle();
  page.frames(1);
  CHECK(ImGui::GetColorU32(ImGuiCol_WindowBg) == IM_COL32(250, 250, 247, 255));
  CHECK(ImGui::GetColorU32(ImGuiCol_Text) == IM_COL32(29, 29, 31, 255));
  CHECK(ImGui::GetStyle().ScrollbarSize == doctest::Approx(12.0f * 2));  // theme.cpp's 12, at scale 2
}

TEST_CASE("widget commands go to the named widget, else one that takes them") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(2);
  const json state = page.state();
  REQUIRE(state["widgets"].size() == 1);
  CHECK(state["widgets"][0]["id"] == "heatmap-1");
  CHECK(state["widgets"][0]["section"] == "interaction");
  CHECK(state["playback"].is_null());
  const json unknown = page.command({{"type", "fly"}, {"widget", "heatmap-1"}});
  CHECK(unknown["ok"] == false);
  CHECK(page.command({{"type", "play"}})["ok"] == false);  // no playback in this lesson
}

// Embedded, the host shows only a band of the canvas (np-host.js puts the canvas over the host's
// viewport with a margin): the current section follows that band, the host's moves of the canvas
// keep a goto's section, and at the page's foot the last section is current even when its
// heading cannot reach the band's top quarter (#15: an embedded lesson read to its end never
// completed).
TEST_CASE("embedded, the current section follows the band the host shows, down to the last section") {
  Headless page(1280, 1400);  // the canvas: the host's 800 px viewport and a margin
  page.load_file(kSample);
  page.frames(2);
  const json opened = page.state();
  std::map<std::string, double> top;
  for (const json& s : opened["sections"]) top[s["anchor"].get<std::string>()] = s["top"].get<double>();
  const double content = opened["layout"]["content_height"].get<double>();
  REQUIRE(content > 1400.0);

  // The band (300 px below the canvas's top) starts just above "maths": maths is current,
  // though the canvas's own top is still in "prose".
  const double at = top["maths"] - 100.0;
  REQUIRE(page.command({{"type", "scroll"}, {"to", at - 300.0}, {"placed", true}})["ok"] == true);
  REQUIRE(page.command({{"type", "visible"}, {"top", 300}, {"height", 800}, {"learner", true}})["ok"] == true);
  page.frames(2);
  CHECK(page.state()["section"] == "maths");

  // A goto holds its section while the host only moves the canvas, until the learner scrolls.
  REQUIRE(page.command({{"type", "goto"}, {"section", "interaction"}})["ok"] == true);
  page.frames(2);
  REQUIRE(page.command({{"type", "scroll"}, {"to", at - 300.0}, {"placed", true}})["ok"] == true);
  REQUIRE(page.command({{"type", "visible"}, {"top", 300}, {"height", 800}})["ok"] == true);
  page.frames(2);
  CHECK(page.state()["section"] == "interaction");
  REQUIRE(page.command({{"type", "visible"}, {"top", 300}, {"height", 800}, {"learner", true}})["ok"] == true);
  page.frames(2);
  CHECK(page.state()["section"] == "maths");

  // The foot of the page in the band: the last section, whose heading is in view but low.
  const double band_top = content - 800.0;
  REQUIRE(top["end"] > band_top + 200.0);  // below the band's top quarter
  REQUIRE(page.command({{"type", "scroll"}, {"to", band_top - 300.0}, {"placed", true}})["ok"] == true);
  REQUIRE(page.command({{"type", "visible"}, {"top", 300}, {"height", 800}, {"learner", true}})["ok"] == true);
  page.frames(2);
  CHECK(page.state()["section"] == "end");

  // Bad bands are refused with a reason; none at all means the whole canvas again.
  CHECK(page.command({{"type", "visible"}, {"top", 10}})["ok"] == false);
  CHECK(page.command({{"type", "visible"}, {"top", 10}, {"height", -5}})["ok"] == false);
  CHECK(page.command({{"type", "visible"}})["ok"] == true);
}

// The page opens a lesson with its widgets built later, one per task (web/main.cpp,
// np_build_widgets): built one at a time, or all at once by the first thing that reads them,
// they are the same widgets, with the same ids and numbers, as a lesson built whole.
TEST_CASE("widgets built later, one at a time or on first read, are the widgets built at once") {
  const std::string markdown = read_file("lessons/course-playback.md");
  Headless whole(1280, 800), sliced(1280, 800), on_read(1280, 800);
  whole.app().load_lesson("course-playback", markdown);
  sliced.app().load_lesson("course-playback", markdown, {.widgets_later = true});
  on_read.app().load_lesson("course-playback", markdown, {.widgets_later = true});
  CHECK(whole.app().widgets_pending() == 0);
  const std::size_t pending = sliced.app().widgets_pending();
  REQUIRE(pending > 0);
  std::size_t steps = 0;
  while (sliced.app().build_widgets(1) > 0) ++steps;
  CHECK(steps + 1 == pending);
  const json expected = whole.state()["widgets"];
  REQUIRE(expected.size() == pending);
  CHECK(sliced.state()["widgets"] == expected);
  CHECK(on_read.state()["widgets"] == expected);  // state() built them first
  CHECK(on_read.app().widgets_pending() == 0);
  on_read.frames(2);
  whole.frames(2);
  CHECK(on_read.state()["widgets"] == whole.state()["widgets"]);
}
