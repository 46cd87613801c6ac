// The multi-head lesson's split-and-join step-through and cost readout, drawn headless: every
// stage and setting at phone and desktop widths with ImGui's stacks balanced, everything inside
// the phone's width, each slider's value printed clear of its track, and a click on Next or on
// + doing what it says.
#include "widgets_support.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;
using widgets_test::send;

namespace {

bool overlap(const json& a, const json& b) {
  const auto v = [](const json& r, int i) { return r[static_cast<std::size_t>(i)].get<float>(); };
  return v(a, 0) < v(b, 0) + v(b, 2) && v(b, 0) < v(a, 0) + v(a, 2) && v(a, 1) < v(b, 1) + v(b, 3) &&
         v(b, 1) < v(a, 1) + v(a, 3);
}
float right(const json& r) { return r[0].get<float>() + r[2].get<float>(); }
ImVec2 centre(const json& r) {
  return ImVec2(r[0].get<float>() + r[2].get<float>() * 0.5f, r[1].get<float>() + r[3].get<float>() * 0.5f);
}

}  // namespace

TEST_CASE("split-join draws every stage, head and role at 375 and 1440 px, inside the width") {
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 900.0f);
    auto walk = widgets_test::widget("split-join-walk", "multi-head");
    for (const char* stage : {"cut", "slice", "scores", "scale", "softmax", "mix", "concat", "output"})
      for (int head : {0, 3}) {
        CAPTURE(stage);
        CHECK(send(*walk, {{"type", "stage"}, {"stage", stage}}) == "");
        CHECK(send(*walk, {{"type", "setHead"}, {"head", head}}) == "");
        CHECK(widgets_test::draw_frames(page, *walk, 2));
        const json layout = walk->state()["layout"];
        CHECK(right(layout["grid"]) <= width);
        CHECK(right(layout["narration"]) <= width);
      }
    CHECK(send(*walk, {{"type", "stage"}, {"stage", "cut"}}) == "");
    for (const char* role : {"q", "k", "v"}) {
      CHECK(send(*walk, {{"type", "setRole"}, {"role", role}}) == "");
      CHECK(widgets_test::draw_frames(page, *walk, 2));
    }
  }
}

TEST_CASE("a click on split-join's Next moves one step, and a click on a head chip picks that head") {
  Headless page(375.0f, 2000.0f);
  auto walk = widgets_test::widget("split-join-walk", "multi-head");
  CHECK(widgets_test::draw_frames(page, *walk, 2));
  page.click(centre(walk->state()["layout"]["next"]));
  CHECK(widgets_test::draw_frames(page, *walk, 3));
  CHECK(walk->state()["stage"] == "slice");
  page.click(centre(walk->state()["layout"]["heads"][2]));
  CHECK(widgets_test::draw_frames(page, *walk, 3));
  CHECK(walk->state()["head"] == 2);
}

TEST_CASE("the cost readout draws at 375 and 1440 px with each value clear of its slider") {
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 1200.0f);
    auto cost = widgets_test::widget("heads-cost", "multi-head");
    for (const json& change : {json{{"type", "setLength"}, {"T", 100000}}, json{{"type", "setWidth"}, {"d_model", 1600}},
                               json{{"type", "setHeads"}, {"heads", 25}}, json{{"type", "setWidth"}, {"d_model", 8}},
                               json{{"type", "setLength"}, {"T", 1}}}) {
      CAPTURE(change.dump());
      CHECK(send(*cost, change) == "");
      CHECK(widgets_test::draw_frames(page, *cost, 2));
      const json layout = cost->state()["layout"];
      for (const char* part : {"width", "heads", "length"}) {
        CAPTURE(part);
        CHECK_FALSE(overlap(layout[part]["label"], layout[part]["track"]));
        CHECK(right(layout[part]["more"]) <= width);
      }
      CHECK(right(layout["bars"]) <= width);
    }
  }
}

TEST_CASE("a click on the cost readout's + moves to the next head count that divides d_model") {
  Headless page(375.0f, 1200.0f);
  auto cost = widgets_test::widget("heads-cost", "multi-head");
  CHECK(widgets_test::draw_frames(page, *cost, 2));
  page.click(centre(cost->state()["layout"]["heads"]["more"]));
  CHECK(widgets_test::draw_frames(page, *cost, 3));
  const json s = cost->state();
  CHECK(s["heads"] == 16);
  CHECK(s["total_mults"] == 2'072'576'000ull);
}
