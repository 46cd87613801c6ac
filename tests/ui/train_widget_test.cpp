// The train widget on the page, headless: drawn at phone and desktop widths while it trains a
// slice per frame, its explanations open from commands, and the App wants frames only while the
// model trains (so an idle page sleeps).
#include "headless.h"
#include "widgets_support.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::send;

TEST_CASE("the train widget draws every frame while it trains, at 375 and 1440 px") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    widgets_test::Headless page(width, 900);
    auto train = widgets_test::widget("train-pronoun");
    CHECK(widgets_test::draw_frames(page, *train, 2));  // before training: a spread-out spotlight
    REQUIRE(send(*train, {{"type", "train"}}) == "");
    CHECK(train->wants_another_frame());
    int frames = 0;
    while (train->wants_another_frame() && frames < 1000) {
      REQUIRE(widgets_test::draw_frames(page, *train, 1));
      ++frames;
    }
    const json s = train->state();
    CHECK(s["finished"] == true);
    CHECK(frames >= s["total_steps"].get<int>() / 2);  // two steps a frame at most: it can be watched
    REQUIRE(send(*train, {{"type", "setSentence"}, {"text", "The fox sat by the river because it was too deep."}}) == "");
    REQUIRE(send(*train, {{"type", "explain"}, {"what", "loss"}}) == "");
    CHECK(widgets_test::draw_frames(page, *train, 2));
    CHECK(train->state()["explained"]["open"] == true);
    REQUIRE(send(*train, {{"type", "useTrained"}, {"trained", false}}) == "");
    CHECK(widgets_test::draw_frames(page, *train, 2));
  }
}

TEST_CASE("the App wants frames while the train widget trains, and sleeps once paused or finished") {
  neuralpath::ui::test::Headless page(1280, 800);
  page.load_file("lessons/self-attention.md");
  page.frames(3);
  CHECK_FALSE(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "train"}, {"widget", "train-pronoun"}})["ok"] == true);
  CHECK(page.app().wants_another_frame());
  page.frames(5);
  CHECK(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "pause"}, {"widget", "train-pronoun"}})["ok"] == true);
  CHECK_FALSE(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "train"}, {"widget", "train-pronoun"}})["ok"] == true);
  int frames = 0;
  for (; frames < 1000 && page.app().wants_another_frame(); ++frames) page.frames(1);
  CHECK(frames < 1000);
  CHECK_FALSE(page.app().wants_another_frame());
  // "reset" stays the App's (the learner's progress), never the widget's restart.
  REQUIRE(page.command({{"type", "reset"}})["ok"] == true);
}
