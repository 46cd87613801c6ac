// The cost explorer: T² pairs and bytes for a chosen T, and the naive and tiled kernels run
// side by side a slice per frame, the naive one refusing past the tab's memory budget.
#include "widgets_support.h"

#include "engine/core/attention.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;
using widgets_test::send;

namespace {

// Frames until the run ends (each update() spends one frame's budget on it).
int run_to_end(Headless& page, ui::Widget& cost, int max_frames = 100000) {
  int frames = 0;
  while (cost.state()["running"] == true && frames < max_frames) {
    cost.update(1.0f / 60);
    if (frames % 20 == 0) page.frame([&](const ui::UiContext& ui) { cost.draw(ui); });
    ++frames;
  }
  return frames;
}

}  // namespace

TEST_CASE("the cost explorer counts T×T pairs and the matrix's bytes in fp32 and fp16") {
  auto cost = widgets_test::widget("cost");
  CHECK(send(*cost, {{"type", "setLength"}, {"T", 10000}}) == "");
  const json s = cost->state();
  CHECK(s["T"] == 10000);
  CHECK(s["pairs"] == 100000000ull);
  CHECK(s["bytes_fp32"].get<double>() == 4e8);
  CHECK(s["bytes_fp16"].get<double>() == 2e8);
  CHECK(s["naive_allowed"] == false);  // 4 T×T float matrices = 1.6 GB
  CHECK(s["naive_bytes"] == attention_naive_working_bytes(10000, 10000));
  CHECK(s["tiled_bytes"] == attention_tiled_working_bytes(10000, 10000, 64, 128));
  CHECK(s["limit_bytes"] == 256u << 20);
  CHECK(send(*cost, {{"type", "setLength"}, {"T", 4096}}) == "");
  CHECK(cost->state()["naive_allowed"] == true);  // exactly 256 MiB
  CHECK(send(*cost, {{"type", "setLength"}, {"T", 4097}}) == "");
  CHECK(cost->state()["naive_allowed"] == false);
  CHECK(send(*cost, {{"type", "setLength"}, {"T", 5}}) != "");
  CHECK(send(*cost, {{"type", "setLength"}, {"T", 200000}}) != "");
  CHECK(send(*cost, {{"type", "setLength"}}) != "");
}

TEST_CASE("a run of both kernels never blocks a frame for long and the outputs agree") {
  Headless page(768, 900);
  auto cost = widgets_test::widget("cost");
  CHECK(send(*cost, {{"type", "run"}, {"T", 1000}}) == "");
  CHECK(cost->state()["running"] == true);
  CHECK(send(*cost, {{"type", "run"}}) != "");  // one run at a time
  const int frames = run_to_end(page, *cost);
  CHECK(frames > 1);  // spread over frames, not done in one
  const json run = cost->state()["runs"].back();
  CHECK(run["T"] == 1000);
  CHECK(run["naive"]["status"] == "done");
  CHECK(run["tiled"]["status"] == "done");
  CHECK(run["naive"]["rows_done"] == 1000);
  CHECK(run["naive"]["bytes"].get<std::size_t>() > run["tiled"]["bytes"].get<std::size_t>());
  CHECK(run["max_difference"].get<float>() <= 1e-5f);
  CHECK(run["naive"]["seconds"].get<double>() > 0);
  const auto events = cost->take_events();
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "costRun");
}

TEST_CASE("the naive kernel refuses with the reason past the tab's budget while the tiled one runs") {
  Headless page(375, 900);
  auto cost = widgets_test::widget("cost");
  CHECK(send(*cost, {{"type", "run"}, {"T", 5000}}) == "");
  run_to_end(page, *cost);
  const json run = cost->state()["runs"].back();
  CHECK(run["naive"]["status"] == "refused");
  const std::string reason = run["naive"]["reason"];
  CHECK(reason.find("381.47 MiB") != std::string::npos);  // 4 × 5000² × 4 bytes
  CHECK(reason.find("256.00 MiB") != std::string::npos);
  CHECK(run["tiled"]["status"] == "done");
  CHECK(run["tiled"]["rows_done"] == 5000);
  CHECK(run["max_difference"].is_null());
}

TEST_CASE("a run can be stopped, and the explorer draws at 375, 768 and 1440 px, light and dark") {
  widgets_test::at_every_width(900, [&](Headless& page, float /*width*/) {
    auto cost = widgets_test::widget("cost");
    CHECK(widgets_test::draw_frames(page, *cost, 5));
    // Large enough that 5 frames of the 12 ms budget cannot finish it, however fast the kernel.
    CHECK(send(*cost, {{"type", "run"}, {"T", 16384}}) == "");
    CHECK(widgets_test::draw_frames(page, *cost, 5));
    CHECK(send(*cost, {{"type", "stop"}}) == "");
    CHECK(cost->state()["running"] == false);
    CHECK(send(*cost, {{"type", "stop"}}) != "");
    CHECK(widgets_test::draw_frames(page, *cost, 5));
    CHECK(send(*cost, {{"type", "setLength"}, {"T", 100000}}) == "");
    CHECK(widgets_test::draw_frames(page, *cost, 5));
  });
}
