// head_cost_model_test.cpp: the multi-head lesson's cost readout, its model alone: the figures are
// the engine's cost function and stay flat in the head count.
#include "model_support.h"

#include "engine/trace/block_trace.h"
#include "engine/core/multi_head_cost.h"
#include "engine/widgets/head_cost/head_cost_model.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace model_test::multi_head;

TEST_CASE("head-cost: the block's layer and its figures are the engine's cost function") {
  HeadCostModel m(settings<HeadCostSettings>("heads-cost"), {});
  const json s = m.state();
  const MultiHeadCost c = multi_head_cost(512, 8, 1000);
  CHECK(s["d_model"] == 512);
  CHECK(s["heads"] == 8);
  CHECK(s["d_head"] == 64);
  CHECK(s["T"] == 1000);
  CHECK(s["parameters"] == c.parameters);
  CHECK(s["projection_mults"] == c.projection_mults);
  CHECK(s["score_mults"] == c.score_mults);
  CHECK(s["total_mults"] == 2'072'576'000ull);
  CHECK(s["grid_cells"] == 8'000'000ull);
  CHECK(s["head_counts"].size() == 10);  // 1, 2, 4, ... 512
}

TEST_CASE("head-cost: parameters and multiplications stay flat over every head count while d_head shrinks") {
  HeadCostModel m(settings<HeadCostSettings>("heads-cost"), {});
  for (const json& row : m.state()["by_heads"]) {
    CHECK(row["parameters"] == m.state()["parameters"]);
    CHECK(row["total_mults"] == m.state()["total_mults"]);
    CHECK(row["d_head"].get<int>() * row["heads"].get<int>() == 512);
  }
  CHECK(send(m, {{"type", "setHeads"}, {"heads", 64}}) == "");
  CHECK(m.state()["d_head"] == 8);
  CHECK(m.state()["total_mults"] == 2'072'576'000ull);
  CHECK(m.state()["grid_cells"] == 64'000'000ull);  // the one figure that grows
  CHECK(m.table().rows.size() == 10);
}

TEST_CASE("head-cost: a head count that does not divide d_model is refused or moved, with a reason") {
  HeadCostModel m(settings<HeadCostSettings>("heads-cost"), {});
  const json before = m.state();
  const std::string why = send(m, {{"type", "setHeads"}, {"heads", 3}});
  CHECK(why.find("2") != std::string::npos);
  CHECK(why.find("4") != std::string::npos);
  CHECK(m.state() == before);                                     // refused: nothing changed
  CHECK(send(m, {{"type", "setWidth"}, {"d_model", 96}}) == "");  // 8 divides 96
  CHECK(m.state()["heads"] == 8);
  CHECK(m.state()["note"] == "");
  CHECK(send(m, {{"type", "setWidth"}, {"d_model", 100}}) == "");  // 8 does not divide 100
  CHECK(m.state()["heads"] == 10);
  CHECK(m.state()["d_head"] == 10);
  CHECK(m.state()["note"].get<std::string>().find("10") != std::string::npos);
  CHECK(send(m, {{"type", "setWidth"}, {"d_model", 0}}) != "");
  CHECK(send(m, {{"type", "setLength"}, {"T", 0}}) != "");
  CHECK(send(m, {{"type", "setLength"}, {"T", 4096}}) == "");
  CHECK(m.state()["T"] == 4096);
}

TEST_CASE("head-cost: a snapshot restores the layer; a tapped figure explains its formula") {
  HeadCostModel m(settings<HeadCostSettings>("heads-cost"), {});
  CHECK(send(m, {{"type", "setWidth"}, {"d_model", 768}}) == "");
  CHECK(send(m, {{"type", "setHeads"}, {"heads", 12}}) == "");
  HeadCostModel fresh(settings<HeadCostSettings>("heads-cost"), {});
  CHECK(fresh.restore(m.snapshot()).done());
  CHECK(fresh.state()["d_head"] == 64);
  CHECK_FALSE(fresh.restore({{"d", 768}, {"h", 7}, {"T", 10}}).done());
  CHECK(send(m, {{"type", "explain"}, {"figure", "parameters"}}) == "");
  const auto e = m.take_explanation();
  REQUIRE(e.has_value());
  CHECK(e->formula == "4·d_model² + 4·d_model");
  CHECK(e->title.find(format_count(4 * 768 * 768 + 4 * 768)) != std::string::npos);
}

TEST_CASE("head-cost: one head reads as one head in English and Spanish (the plural keys), eight as eight") {
  HeadCostModel m(settings<HeadCostSettings>("heads-cost"), {});
  CHECK(send(m, {{"type", "setHeads"}, {"heads", 1}}) == "");
  CHECK(m.summary().find("1 head of width 512") != std::string::npos);
  std::ifstream in("lessons/strings/es.strings");
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(use_language("es", text.str()).empty());
  const std::string one = m.summary();
  CHECK(send(m, {{"type", "setHeads"}, {"heads", 8}}) == "");
  const std::string eight = m.summary();
  use_language("en", "");
  CHECK(one.find("1 cabeza de ancho 512") != std::string::npos);
  CHECK(eight.find("8 cabezas de ancho 64") != std::string::npos);
}
