// App::wants_another_frame, the idle hook web/main.cpp sleeps on: true only while something
// changes with time alone (a cost explorer run working in slices, playback playing).
#include "headless.h"

#include <doctest/doctest.h>

using neuralpath::ui::test::Headless;
using nlohmann::json;

namespace {

bool cost_running(Headless& page) {
  const json state = page.state();
  for (const json& w : state["widgets"])
    if (w["id"] == "cost") return w["running"].get<bool>();
  FAIL("no cost explorer");
  return false;
}

}  // namespace

TEST_CASE("the App wants frames while a cost explorer run is working, and not once it is done") {
  Headless page(1280, 800);
  page.load_file("lessons/self-attention.md");
  page.frames(3);
  CHECK_FALSE(page.app().wants_another_frame());  // a lesson at rest

  REQUIRE(page.command({{"type", "run"}, {"widget", "cost"}, {"T", 512}})["ok"] == true);
  CHECK(cost_running(page));
  CHECK(page.app().wants_another_frame());
  int frames = 0;
  for (; frames < 2000 && cost_running(page); ++frames) {
    CHECK(page.app().wants_another_frame());
    page.frames(1);
  }
  CHECK_FALSE(cost_running(page));
  CHECK_FALSE(page.app().wants_another_frame());
}

// Frames until the App stops wanting them (at most `limit`); how many it took.
static int frames_until_idle(Headless& page, int limit) {
  int n = 0;
  for (; n < limit && page.app().wants_another_frame(); ++n) page.frames(1);
  return n;
}

TEST_CASE("the App wants frames while playback plays or a step's cells fill in, and not once paused") {
  Headless page(1280, 900);
  page.load_file("lessons/course-playback.md");
  page.frames(1);
  CHECK(frames_until_idle(page, 60 * 20) < 60 * 20);  // step 0's cells finish filling in
  CHECK_FALSE(page.app().wants_another_frame());

  REQUIRE(page.command({{"type", "play"}})["ok"] == true);
  page.frames(2);
  CHECK(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "pause"}})["ok"] == true);
  page.frames(2);
  CHECK_FALSE(page.app().wants_another_frame());  // paused, mid-fill or not: nothing moves

  // A seek (not playing) fills the new step's cells over time: frames until they are in.
  REQUIRE(page.command({{"type", "seek"}, {"step", 10}})["ok"] == true);
  page.frames(1);
  CHECK(page.app().wants_another_frame());
  CHECK(frames_until_idle(page, 60 * 20) < 60 * 20);
  CHECK_FALSE(page.app().wants_another_frame());
}
