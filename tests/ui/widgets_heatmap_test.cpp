// The causal heatmap: the upper triangle blocked at exactly 0 while causal, open with the BERT
// switch, every row summing to 1, and each cell explaining how it was made.
#include "widgets_support.h"

#include "engine/trace/block_trace.h"
#include "engine/text/format.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;
using widgets_test::send;

TEST_CASE("while causal the heatmap's upper triangle is exactly 0 and listed as masked") {
  auto heatmap = widgets_test::widget("causal-grid");
  const json s = heatmap->state();
  CHECK(s["kind"] == "heatmap");
  CHECK(s["causal"] == true);
  const json& w = s["weights"];
  const std::size_t t = s["tokens"].size();
  REQUIRE(t == 4);
  json expected_masked = json::array();
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j)
      if (j > i) {
        CHECK(w[i][j].get<float>() == 0.0f);
        expected_masked.push_back({i, j});
      } else {
        CHECK(w[i][j].get<float>() > 0.0f);
      }
  CHECK(s["masked"] == expected_masked);
  for (const json& sum : s["row_sums"]) CHECK(sum.get<float>() == doctest::Approx(1.0f).epsilon(1e-5));
}

TEST_CASE("the BERT switch removes the mask and reruns the engine") {
  auto heatmap = widgets_test::widget("causal-grid");
  CHECK(send(*heatmap, {{"type", "setMask"}, {"mask", "none"}}) == "");
  json s = heatmap->state();
  CHECK(s["causal"] == false);
  CHECK(s["masked"].empty());
  const std::size_t t = s["tokens"].size();
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = i + 1; j < t; ++j) CHECK(s["weights"][i][j].get<float>() > 0.0f);
  for (const json& sum : s["row_sums"]) CHECK(sum.get<float>() == doctest::Approx(1.0f).epsilon(1e-5));
  // The numbers are the engine's for the same sentence without a mask.
  TraceOptions options;
  options.mask = Mask::none();
  const Trace trace = run_block(widgets_test::spec(), "The cat sat down", options);
  const Matrix expected = trace.weights(0);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j)
      CHECK(s["weights"][i][j].get<float>() == expected(static_cast<Index>(i), static_cast<Index>(j)));

  CHECK(send(*heatmap, {{"type", "setMask"}, {"causal", true}}) == "");
  CHECK(heatmap->state()["weights"][0][1].get<float>() == 0.0f);
  CHECK(send(*heatmap, {{"type", "setMask"}, {"mask", "sideways"}}) != "");
}

TEST_CASE("a heatmap cell explains its q·k, scaling, exponent and row sum from the trace") {
  auto heatmap = widgets_test::widget("causal-grid");
  CHECK(send(*heatmap, {{"type", "explain"}, {"row", 2}, {"col", 1}}) == "");
  const json s = heatmap->state();
  CHECK(s["selected"] == json({{"row", 2}, {"col", 1}}));
  const json e = s["explained"];
  CHECK(e["open"] == true);
  CHECK(e["title"].get<std::string>().find("'sat' → 'cat'") != std::string::npos);
  std::vector<std::string> inputs;
  for (const json& in : e["inputs"]) inputs.push_back(in["name"]);
  CHECK(inputs == std::vector<std::string>{"q·k", "× 1/√8", "after the mask", "exp(s − max)", "1 / row sum of exp"});
  // A blocked cell says why it is 0.
  CHECK(send(*heatmap, {{"type", "explain"}, {"row", 0}, {"col", 3}}) == "");
  const std::string text = heatmap->state()["explained"]["text"];
  CHECK(text.find("may not look ahead") != std::string::npos);
  CHECK(send(*heatmap, {{"type", "explain"}, {"row", 0}, {"col", 9}}) != "");
}

TEST_CASE("the heatmap takes the learner's sentence and refuses an empty or oversized one") {
  auto heatmap = widgets_test::widget("causal-grid");
  CHECK(send(*heatmap, {{"type", "setSentence"}, {"text", "The dog was too tired ."}}) == "");
  CHECK(heatmap->state()["tokens"].size() == 6);
  CHECK(send(*heatmap, {{"type", "setSentence"}, {"text", ""}}).find("Type a sentence") != std::string::npos);
  std::string long_sentence;
  for (int i = 0; i < 30; ++i) long_sentence += "cat ";
  CHECK(send(*heatmap, {{"type", "setSentence"}, {"text", long_sentence}}).find("at most 24") != std::string::npos);
  CHECK(heatmap->state()["tokens"].size() == 6);
}

TEST_CASE("the heatmap draws for many frames at 375, 768 and 1440 px, light and dark, hovering cells") {
  widgets_test::at_every_width(900, [&](Headless& page, float width) {
    auto heatmap = widgets_test::widget("causal-grid");
    for (float y = 40; y < 400; y += 37) {  // the pointer sweeps across the grid
      ImGui::GetIO().MousePos = ImVec2(width * 0.5f, y);
      CHECK(widgets_test::draw_frames(page, *heatmap, 2));
    }
    CHECK(send(*heatmap, {{"type", "setMask"}, {"mask", "none"}}) == "");
    CHECK(send(*heatmap, {{"type", "selectCell"}, {"row", 3}, {"col", 0}}) == "");
    CHECK(widgets_test::draw_frames(page, *heatmap, 10));
    // A longer sentence: the grid scrolls sideways on the phone.
    CHECK(send(*heatmap, {{"type", "setSentence"},
                          {"text", "The animal didn't cross the street because it was too tired ."}}) == "");
    CHECK(send(*heatmap, {{"type", "explain"}, {"row", 8}, {"col", 1}}) == "");
    CHECK(widgets_test::draw_frames(page, *heatmap, 10));
  });
}
