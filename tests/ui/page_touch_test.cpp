// A finger on a phone (#15): a swipe that starts on a widget's buttons still scrolls the lesson,
// a tap still presses them, and a sideways drag still reaches what needs it (the timeline).
#include "headless.h"

#include <doctest/doctest.h>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

double scroll(Headless& page) { return page.state()["layout"]["scroll"].get<double>(); }

// Opens `lesson` at 375 × 740 (device pixel ratio 2) with `widget`'s top `top_at` CSS px down.
void open_at(Headless& page, const std::string& lesson, const std::string& widget, float top_at) {
  page.load_file("lessons/" + lesson + ".md");
  page.command({{"type", "reducedMotion"}, {"reduce", true}});
  page.frames(2);
  const json w = widget_state(page, widget);
  page.command({{"type", "goto"}, {"section", w["section"]}});
  page.frames(2);
  const float top = widget_state(page, widget)["rect"][1].get<float>();
  page.command({{"type", "scroll"}, {"by", top - top_at}});
  page.frames(2);
}

}  // namespace

TEST_CASE("a finger swiping up from a spotlight word scrolls the lesson and leaves the word alone; a tap picks it") {
  Headless page(375, 740, 2);
  open_at(page, "self-attention", "it-spotlight", 200);
  json spotlight = widget_state(page, "it-spotlight");
  REQUIRE(spotlight["tokens"][1] == "animal");
  const auto [x, y] = centre(spotlight["layout"]["chips"][1]);
  REQUIRE(y > 100);
  REQUIRE(y < 640);

  const double before = scroll(page);
  page.swipe(x, y, x, y - 250);
  CHECK(scroll(page) > before + 200);
  CHECK(widget_state(page, "it-spotlight")["query"] == "it");

  // Back where it was, a tap makes the word the query.
  page.command({{"type", "scroll"}, {"by", before - scroll(page)}});
  page.frames(2);
  const auto [tx, ty] = centre(widget_state(page, "it-spotlight")["layout"]["chips"][1]);
  page.tap(tx, ty);
  CHECK(widget_state(page, "it-spotlight")["query"] == "animal");
}

TEST_CASE("a mouse dragged from a spotlight word does not scroll: only a finger's press waits to see what it means") {
  Headless page(375, 740, 2);
  open_at(page, "self-attention", "it-spotlight", 200);
  const auto [x, y] = centre(widget_state(page, "it-spotlight")["layout"]["chips"][1]);
  const double before = scroll(page);
  page.drag(x, y, x, y - 250);
  page.frames(1);
  CHECK(scroll(page) == doctest::Approx(before));
}

TEST_CASE("on the playback timeline a finger swiping up scrolls without seeking, and a sideways drag scrubs") {
  Headless page(375, 740, 2);
  open_at(page, "course-playback", "block-playback", 60);
  json board = widget_state(page, "block-playback");
  const int step = board["step"].get<int>();
  const json segments = board["layout"]["segments"];
  REQUIRE(segments.size() > 6);
  const auto [x2, y2] = centre(segments[2]);
  REQUIRE(y2 > 300);
  REQUIRE(y2 < 700);

  const double before = scroll(page);
  page.swipe(x2, y2, x2 + 6, y2 - 250);
  CHECK(scroll(page) > before + 200);
  CHECK(widget_state(page, "block-playback")["step"] == step);

  const json now = widget_state(page, "block-playback")["layout"]["segments"];
  const auto [x0, y0] = centre(now[0]);
  const auto [x5, y5] = centre(now[5]);
  REQUIRE(y5 == doctest::Approx(y0));  // one row of the timeline
  const double at = scroll(page);
  page.swipe(x0, y0, x5, y5);
  CHECK(widget_state(page, "block-playback")["step"] == 5);
  CHECK(scroll(page) == doctest::Approx(at));
}
