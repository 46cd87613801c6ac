// The mask steps: the same grid through raw -> scaled -> masked -> softmax from the trace, and
// the three common mistakes computed live with the engine's functions in the wrong order.
#include "widgets_support.h"

#include "engine/trace/block_trace.h"
#include "engine/lesson/model_spec.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;
using widgets_test::send;

namespace {

const Step& shown_step(const Trace& trace, StepKind kind) {
  for (const Step& s : trace.steps)
    if (s.kind == kind && s.layer == -1 && s.head == 0) return s;
  FAIL("no such step");
  return trace.steps.front();
}

}  // namespace

TEST_CASE("each stage shows the trace's own matrix: scores, scaled, masked (−∞ as null), softmax") {
  auto steps = widgets_test::widget("mask-walkthrough");
  const Trace trace = lesson::run_sentence(widgets_test::lesson(), "The cat sat down", true);
  const StepKind kinds[] = {StepKind::score, StepKind::scale, StepKind::mask, StepKind::softmax};
  const char* names[] = {"raw", "scaled", "masked", "softmax"};
  for (int k = 0; k < 4; ++k) {
    CAPTURE(names[k]);
    CHECK(send(*steps, {{"type", "stage"}, {"stage", names[k]}}) == "");
    const json s = steps->state();
    CHECK(s["stage"] == names[k]);
    const Matrix& m = shown_step(trace, kinds[k]).result.values;
    for (Index i = 0; i < m.rows(); ++i)
      for (Index j = 0; j < m.cols(); ++j) {
        const json& cell = s["matrix"][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        if (std::isinf(m(i, j))) {
          CHECK(cell.is_null());
          CHECK(j > i);
        } else {
          CHECK(cell.get<float>() == m(i, j));
        }
      }
    if (k == 3)
      for (const json& sum : s["row_sums"]) CHECK(sum.get<float>() == doctest::Approx(1.0f).epsilon(1e-5));
  }
  CHECK(send(*steps, {{"type", "stage"}, {"stage", 0}}) == "");
  CHECK(steps->state()["stage"] == "raw");
  CHECK(send(*steps, {{"type", "stage"}, {"stage", "cooked"}}) != "");
  CHECK(send(*steps, {{"type", "stage"}, {"stage", 7}}) != "");
}

TEST_CASE("masking after the softmax leaves rows that no longer sum to 1") {
  auto steps = widgets_test::widget("mask-walkthrough");
  CHECK(send(*steps, {{"type", "mistake"}, {"mistake", "mask-after-softmax"}}) == "");
  const json m = steps->state()["mistakes"]["mask_after_softmax"];
  const json& sums = m["row_sums"];
  REQUIRE(sums.size() == 4);
  for (std::size_t i = 0; i + 1 < sums.size(); ++i) CHECK(sums[i].get<float>() < 0.99f);
  CHECK(sums[3].get<float>() == doctest::Approx(1.0f).epsilon(1e-5));  // the last word sees everything anyway
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j) CHECK(m["weights"][i][j].get<float>() == 0.0f);
}

TEST_CASE("without the 1/√d_k the softmax saturates towards one-hot as d_k grows") {
  auto steps = widgets_test::widget("mask-walkthrough");
  CHECK(send(*steps, {{"type", "mistake"}, {"mistake", "no-scale"}, {"d", 1024}}) == "");
  const json n = steps->state()["mistakes"]["no_scale"];
  CHECK(n["d"] == 1024);
  CHECK(n["max_without"].get<float>() > 0.9f);
  CHECK(n["max_with"].get<float>() < n["max_without"].get<float>());
  const json& curve = n["curve"];
  REQUIRE(curve.size() == 10);
  CHECK(curve.front()["d"] == 2);
  CHECK(curve.back()["without"].get<float>() > curve.front()["without"].get<float>());
  float total = 0;
  for (const json& w : n["without"]) total += w.get<float>();
  CHECK(total == doctest::Approx(1.0f).epsilon(1e-5));
  CHECK(send(*steps, {{"type", "mistake"}, {"mistake", "no-scale"}, {"d", 100}}) != "");  // not a slider stop
}

TEST_CASE("passing Kᵀ for K gives the engine's shape error, or silently wrong weights when T = d_k") {
  auto steps = widgets_test::widget("mask-walkthrough");
  const std::string error = steps->state()["mistakes"]["wrong_transpose"]["error"];
  CHECK(error == "q is [4][8] but k is [8][4]: q and k must share d");
  // Eight tokens and d_k = 8: the shapes line up, the kernel runs, the weights are wrong.
  CHECK(send(*steps, {{"type", "setSentence"}, {"text", "the cat sat down because it was tired"}}) == "");
  const json t = steps->state()["mistakes"]["wrong_transpose"];
  CHECK(t["error"] == "");
  CHECK(t["max_difference"].get<float>() > 0.01f);
}

TEST_CASE("the mask steps draw every stage and mistake at 375, 768 and 1440 px, light and dark") {
  widgets_test::at_every_width(1200, [&](Headless& page, float /*width*/) {
    auto steps = widgets_test::widget("mask-walkthrough");
    for (const char* stage : {"raw", "scaled", "masked", "softmax"}) {
      CHECK(send(*steps, {{"type", "stage"}, {"stage", stage}}) == "");
      CHECK(widgets_test::draw_frames(page, *steps, 5));
    }
    for (const char* mistake : {"mask-after-softmax", "no-scale", "wrong-transpose"}) {
      CHECK(send(*steps, {{"type", "mistake"}, {"mistake", mistake}}) == "");
      CHECK(widgets_test::draw_frames(page, *steps, 5));
    }
    CHECK(send(*steps, {{"type", "setSentence"}, {"text", "the cat sat down because it was tired"}}) == "");
    CHECK(widgets_test::draw_frames(page, *steps, 5));
  });
}
