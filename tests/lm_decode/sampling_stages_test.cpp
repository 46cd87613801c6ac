// sampling_stages_test.cpp: temperature, top-k and top-p one stage at a time, and the draw.
#include "engine/core/error.h"
#include "engine/core/lm/decode/sampling_stages.h"
#include "engine/core/lm/sampling.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

using namespace neuralpath;
using namespace neuralpath::lm;

namespace {
const std::vector<float> kP = {0.05f, 0.4f, 0.1f, 0.3f, 0.15f};  // ids 1, 3, 4, 2, 0 from most to least likely
float total(const std::vector<float>& p) { return std::accumulate(p.begin(), p.end(), 0.0f); }
}  // namespace

TEST_CASE("temperature 1 keeps the distribution; below 1 sharpens it, above 1 flattens it; 0 is greedy") {
  const SamplingStages one = sampling_stages(kP, {1.0f, 0, 1.0f});
  for (std::size_t i = 0; i < kP.size(); ++i) CHECK(one.temperature[i] == doctest::Approx(kP[i]));
  const SamplingStages cold = sampling_stages(kP, {0.5f, 0, 1.0f});
  CHECK(cold.temperature[1] > kP[1]);  // the favourite gains
  CHECK(cold.temperature[0] < kP[0]);  // the least likely loses
  CHECK(cold.temperature[1] == doctest::Approx(0.16 / (0.0025 + 0.16 + 0.01 + 0.09 + 0.0225)));  // p²/Σp²
  const SamplingStages hot = sampling_stages(kP, {2.0f, 0, 1.0f});
  CHECK(hot.temperature[1] < kP[1]);
  CHECK(hot.temperature[0] > kP[0]);
  const SamplingStages greedy = sampling_stages(kP, {0.0f, 0, 1.0f});
  CHECK(greedy.top_p == std::vector<float>{0, 1, 0, 0, 0});
  CHECK(total(hot.temperature) == doctest::Approx(1.0f));
}

TEST_CASE("top-k keeps the k most likely tokens and renormalises; 0 keeps all") {
  const SamplingStages s = sampling_stages(kP, {1.0f, 2, 1.0f});
  CHECK(s.kept_top_k == 2);
  CHECK(s.top_k[1] == doctest::Approx(0.4f / 0.7f));
  CHECK(s.top_k[3] == doctest::Approx(0.3f / 0.7f));
  CHECK(s.top_k[0] == 0.0f);
  CHECK(s.top_k[4] == 0.0f);
  CHECK(sampling_stages(kP, {1.0f, 0, 1.0f}).kept_top_k == 5);
  CHECK(sampling_stages(kP, {1.0f, 99, 1.0f}).kept_top_k == 5);
}

TEST_CASE("top-p keeps the fewest most likely tokens whose mass reaches p") {
  // sorted: 0.4, 0.3, 0.15, 0.1, 0.05; running sums 0.4, 0.7, 0.85, 0.95, 1
  CHECK(sampling_stages(kP, {1.0f, 0, 0.4f}).kept_top_p == 1);  // 0.4 reaches 0.4 at once
  CHECK(sampling_stages(kP, {1.0f, 0, 0.5f}).kept_top_p == 2);
  CHECK(sampling_stages(kP, {1.0f, 0, 0.7f}).kept_top_p == 2);
  CHECK(sampling_stages(kP, {1.0f, 0, 0.71f}).kept_top_p == 3);
  CHECK(sampling_stages(kP, {1.0f, 0, 0.01f}).kept_top_p == 1);  // always at least the favourite
  const SamplingStages s = sampling_stages(kP, {1.0f, 0, 0.8f});
  CHECK(s.top_p[1] == doctest::Approx(0.4f / 0.85f));
  CHECK(s.top_p[4] == doctest::Approx(0.15f / 0.85f));
  CHECK(s.top_p[2] == 0.0f);
  CHECK(total(s.top_p) == doctest::Approx(1.0f));
  // p = 1 changes nothing: the stage after top-p is top-k's, bit for bit
  const SamplingStages off = sampling_stages(kP, {0.7f, 3, 1.0f});
  CHECK(off.top_p == off.top_k);
  CHECK(off.top_k == reshape_distribution(kP, 0.7f, 3));  // what `lm generate` has always drawn from
}

TEST_CASE("top-p runs after top-k, on what top-k left") {
  const SamplingStages s = sampling_stages(kP, {1.0f, 3, 0.6f});  // top-k: 0.4, 0.3, 0.15 of 0.85
  CHECK(s.kept_top_k == 3);
  CHECK(s.kept_top_p == 2);  // 0.47 + 0.35 >= 0.6
  CHECK(s.top_p[1] == doctest::Approx(0.4f / 0.7f));
}

TEST_CASE("ties under top-p keep the smaller id first") {
  const std::vector<float> tied = {0.25f, 0.25f, 0.25f, 0.25f};
  const std::vector<float> p = apply_top_p(tied, 0.5f);
  CHECK(p == std::vector<float>{0.5f, 0.5f, 0.0f, 0.0f});
}

TEST_CASE("the draw is the inverse CDF: the first id whose running sum passes u") {
  const std::vector<float> p = {0.0f, 0.5f, 0.0f, 0.25f, 0.25f};
  CHECK(draw_token(p, 0.0) == 1);
  CHECK(draw_token(p, 0.4999) == 1);
  CHECK(draw_token(p, 0.5) == 3);
  CHECK(draw_token(p, 0.8) == 4);
  CHECK(draw_token(p, 0.99999999) == 4);
  CHECK(draw_token({0.3f, 0.3f, 0.3f}, 0.95) == 0);  // rounding left u beyond the sum: the most likely
  CHECK(unit_interval(0) == 0.0);
  CHECK(unit_interval(~std::uint64_t{0}) < 1.0);
}

TEST_CASE("bad settings are refused with a reason") {
  CHECK_THROWS_AS(sampling_stages(kP, {-0.1f, 0, 1.0f}), InputError);
  CHECK_THROWS_AS(sampling_stages(kP, {NAN, 0, 1.0f}), InputError);
  CHECK_THROWS_AS(sampling_stages(kP, {101.0f, 0, 1.0f}), InputError);
  CHECK_THROWS_AS(sampling_stages(kP, {1.0f, -1, 1.0f}), InputError);
  CHECK_THROWS_AS(sampling_stages(kP, {1.0f, 0, 0.0f}), InputError);
  CHECK_THROWS_AS(sampling_stages(kP, {1.0f, 0, 1.5f}), InputError);
  CHECK_THROWS_AS(sampling_stages(kP, {1.0f, 0, NAN}), InputError);
}
