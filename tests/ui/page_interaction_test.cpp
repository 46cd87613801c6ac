// The page under a simulated mouse, finger, wheel and keyboard: what a learner does with it.
#include "headless.h"

#include <doctest/doctest.h>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

const char* kSample = "tests/ui/fixtures/page_sample.md";

json find_by_id(const json& list, const std::string& id) {
  for (const json& item : list)
    if (item["id"] == id) return item;
  return nullptr;
}

// The sample page opened at `section`, with `settle` frames for the jump to land.
void open_at(Headless& page, const std::string& section, int settle = 2) {
  page.load_file(kSample);
  page.frames(2);
  page.command({{"type", "goto"}, {"section", section}});
  page.frames(settle);
}

}  // namespace

TEST_CASE("clicking an option on the canvas answers the check and shows its feedback") {
  for (const float scale : {1.0f, 2.0f}) {
    CAPTURE(scale);
    Headless page(375, 740, scale);
    open_at(page, "interaction");
    json check = find_by_id(page.state()["checks"], "single");
    REQUIRE(check["option_rects"].size() == 3);
    // Bring the option into view: scroll until its rectangle is on screen.
    for (int i = 0; i < 40 && check["option_rects"][2][1].get<float>() > 600; ++i) {
      page.command({{"type", "scroll"}, {"by", 200}});
      page.frames(1);
      check = find_by_id(page.state()["checks"], "single");
    }
    const auto [x, y] = centre(check["option_rects"][2]);
    REQUIRE(y > 48);
    REQUIRE(y < 740);
    page.click(x, y);
    check = find_by_id(page.state()["checks"], "single");
    CHECK(check["chosen"] == json::array({2}));
    CHECK(check["correct"] == false);
    CHECK(check["feedback"] == "Matching uses keys, not values.");
    CHECK(page.events_of("answered").size() == 1);
  }
}

TEST_CASE("a multiple-answer check ticks options and grades them with the Check button") {
  Headless page(1280, 900);
  open_at(page, "interaction");
  // The options show in the learner's own order: the last one drawn is the lowest.
  const auto lowest = [&] {
    json rects = find_by_id(page.state()["checks"], "several")["option_rects"], low = rects[0];
    for (const json& r : rects)
      if (r[1].get<float>() > low[1].get<float>()) low = r;
    return low;
  };
  for (int i = 0; i < 30 && lowest()[1].get<float>() > 700; ++i) {
    page.command({{"type", "scroll"}, {"by", 150}});
    page.frames(1);
  }
  json check = find_by_id(page.state()["checks"], "several");
  for (int option : {0, 1}) {
    const auto [x, y] = centre(check["option_rects"][option]);
    page.click(x, y);
  }
  check = find_by_id(page.state()["checks"], "several");
  CHECK(check["pending"] == json::array({0, 1}));
  CHECK(check["correct"].is_null());  // not graded until Check is pressed
  CHECK(page.events_of("answered").empty());
  // The Check button sits under the last option, at the card's left padding.
  const json rect = lowest();
  const float below = rect[1].get<float>() + rect[3].get<float>();
  bool graded = false;
  for (float dy = 14; dy < 80 && !graded; dy += 6) {
    page.click(rect[0].get<float>() + 30, below + dy);
    graded = !find_by_id(page.state()["checks"], "several")["correct"].is_null();
  }
  REQUIRE(graded);
  CHECK(find_by_id(page.state()["checks"], "several")["correct"] == true);
}

TEST_CASE(
    "dragging empty page space scrolls the page, and a drag that starts on an option scrolls and does not answer") {
  Headless page(375, 740, 2);
  page.load_file(kSample);
  page.frames(3);
  CHECK(page.state()["layout"]["scroll"] == 0.0);
  page.drag(359, 600, 359, 300);  // the right margin: no block there
  page.frames(1);
  const double after_drag = page.state()["layout"]["scroll"].get<double>();
  CHECK(after_drag > 250);

  page.command({{"type", "goto"}, {"section", "interaction"}});
  page.frames(2);
  json check;
  for (int i = 0; i < 40; ++i) {
    check = find_by_id(page.state()["checks"], "single");
    if (check["option_rects"][0][1].get<float>() < 500) break;
    page.command({{"type", "scroll"}, {"by", 200}});
    page.frames(1);
  }
  const auto [x, y] = centre(check["option_rects"][0]);
  const double before = page.state()["layout"]["scroll"].get<double>();
  page.drag(x, y, x, y - 200);
  page.frames(1);
  CHECK(page.state()["layout"]["scroll"].get<double>() > before + 150);
  CHECK(find_by_id(page.state()["checks"], "single")["chosen"].empty());
  CHECK(page.events_of("answered").empty());
}

TEST_CASE("a released drag coasts on, unless reduced motion is asked for") {
  for (const bool reduce : {false, true}) {
    Headless page(375, 740, 1);
    page.load_file(kSample);
    page.command({{"type", "reducedMotion"}, {"reduce", reduce}});
    page.frames(2);
    page.drag(359, 600, 359, 300, 4);
    const double released = page.state()["layout"]["scroll"].get<double>();
    page.frames(30);
    const double later = page.state()["layout"]["scroll"].get<double>();
    CAPTURE(reduce);
    if (reduce)
      CHECK(later == doctest::Approx(released));
    else
      CHECK(later > released + 20);
  }
}

TEST_CASE("the wheel and the keyboard scroll the page") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(2);
  page.move(800, 400);
  page.wheel(-2);
  page.frames(1);
  const double wheeled = page.state()["layout"]["scroll"].get<double>();
  CHECK(wheeled == doctest::Approx(160));
  page.key(ImGuiKey_PageDown);
  page.frames(30);
  CHECK(page.state()["layout"]["scroll"].get<double>() > wheeled + 500);
  page.key(ImGuiKey_End);
  page.frames(30);
  const json end = page.state()["layout"];
  CHECK(end["scroll"].get<double>() == doctest::Approx(end["scroll_max"].get<double>()));
  CHECK(page.state()["section"] == "end");
  page.key(ImGuiKey_Home);
  page.frames(30);
  CHECK(page.state()["layout"]["scroll"] == 0.0);
  page.key(ImGuiKey_DownArrow);
  page.frames(30);
  CHECK(page.state()["layout"]["scroll"].get<double>() == doctest::Approx(48));
}

TEST_CASE("scrolling through the page makes each section current in turn and emits 'section'") {
  Headless page(1280, 800);
  page.load_file(kSample);
  page.frames(2);
  page.events();
  std::vector<std::string> seen;
  for (int i = 0; i < 80; ++i) {
    page.command({{"type", "scroll"}, {"by", 120}});
    page.frames(1);
    for (const json& e : page.events_of("section")) seen.push_back(e["section"]);
  }
  CHECK(seen == std::vector<std::string>{"maths", "interaction", "end"});
  CHECK(page.state()["progress"]["visited"].size() == 4);
}

TEST_CASE("on a phone the contents open as a drawer, and picking a section goes there and closes it") {
  Headless page(375, 740, 2);
  page.load_file(kSample);
  page.frames(2);
  CHECK(page.state()["layout"]["narrow"] == true);
  page.click(40, 24);  // the Contents button in the top bar
  CHECK(page.state()["layout"]["contents_open"] == true);
  // The drawer lists the sections in order under the title; tap each row until one sticks.
  bool went = false;
  for (float y = 120; y < 700 && !went; y += 12) {
    page.click(120, y);
    went = page.state()["section"] != "prose";
    if (!went && page.state()["layout"]["contents_open"] == false) page.click(40, 24);
  }
  REQUIRE(went);
  CHECK(page.state()["layout"]["contents_open"] == false);
  page.frames(30);
  const json state = page.state();
  double top = -1;
  for (const json& s : state["sections"])
    if (s["anchor"] == state["section"]) top = s["top"].get<double>();
  CHECK(state["layout"]["scroll"].get<double>() == doctest::Approx(top).epsilon(0.02));
}

TEST_CASE("on a wide screen the contents are a side column, and clicking an entry goes to its section") {
  Headless page(1440, 900);
  page.load_file(kSample);
  page.frames(2);
  CHECK(page.state()["layout"]["narrow"] == false);
  CHECK(page.state()["layout"]["column"][0].get<double>() > 300);
  bool went = false;
  for (float y = 150; y < 800 && !went; y += 10) {
    page.click(120, y);
    went = page.state()["section"] == "interaction";
  }
  CHECK(went);
}

TEST_CASE("the code block's Copy button puts the code on the clipboard") {
  Headless page(1280, 900);
  open_at(page, "maths", 3);
  const json column = page.state()["layout"]["column"];
  const float right = column[0].get<float>() + column[2].get<float>();
  // The button is at the top right of the code card; sweep down its column to find it.
  std::string copied;
  for (float y = 60; y < 880 && copied.empty(); y += 8) {
    page.click(right - 40, y);
    const char* text = ImGui::GetClipboardText();
    copied = text ? text : "";
  }
  CHECK(copied.rfind("import torch\n\ndef attention(q, k, v, mask=None):", 0) == 0);
}

TEST_CASE("clicking a link asks the host to open it") {
  Headless page(1280, 900);
  page.load_file(kSample);
  page.frames(2);
  page.events();
  // The intro's first paragraph holds the link; sweep its lines until it is hit.
  const json column = page.state()["layout"]["column"];
  std::vector<json> opened;
  for (float y = 120; y < 400 && opened.empty(); y += 6)
    for (float x = column[0].get<float>(); x < column[0].get<float>() + column[2].get<float>() && opened.empty();
         x += 20) {
      page.click(x, y);
      opened = page.events_of("openLink");
    }
  REQUIRE(opened.size() == 1);
  CHECK(opened[0]["url"] == "https://example.org/docs");
}
