// multi_head_cost_test.cpp: what a multi-head layer costs (multi_head_cost.h) — the figures of
// the multi-head lesson's #cost section, flat in the head count at fixed d_model.
#include "engine/core/error.h"
#include "engine/core/multi_head_cost.h"

#include <doctest/doctest.h>

using namespace neuralpath;

TEST_CASE("the lesson's table: d_model 512 and T = 1,000 cost the same with 1, 8 or 64 heads") {
  for (std::int64_t heads : {1, 8, 64}) {
    CAPTURE(heads);
    const MultiHeadCost c = multi_head_cost(512, heads, 1000);
    CHECK(c.d_head == 512 / heads);
    CHECK(c.weights == 1'048'576);  // 4 · 512²
    CHECK(c.biases == 2'048);       // 4 · 512
    CHECK(c.parameters == 1'050'624);
    CHECK(c.projection_mults == 1'048'576'000);  // 4 · 1000 · 512²
    CHECK(c.score_mults == 512'000'000);         // 1000² · 512
    CHECK(c.mix_mults == 512'000'000);
    CHECK(c.total_mults == 2'072'576'000);  // "2.07 billion"
    CHECK(c.flops == 2 * c.total_mults);
    CHECK(c.grid_cells == static_cast<std::uint64_t>(heads) * 1'000'000);  // H × T²
  }
}

TEST_CASE("every head count that divides d_model gives the same parameters and multiplications") {
  const MultiHeadCost one = multi_head_cost(768, 1, 333);
  std::int64_t last_d_head = 769;
  for (std::int64_t heads : head_counts(768)) {
    CAPTURE(heads);
    const MultiHeadCost c = multi_head_cost(768, heads, 333);
    CHECK(c.parameters == one.parameters);
    CHECK(c.projection_mults == one.projection_mults);
    CHECK(c.score_mults + c.mix_mults == one.score_mults + one.mix_mults);
    CHECK(c.d_head < last_d_head);  // the slices shrink as the heads multiply
    CHECK(c.d_head * heads == 768);
    last_d_head = c.d_head;
  }
}

TEST_CASE("the sum over heads of each head's own products is the layer's count") {
  // Counted the long way, head by head, the way multi_head.py runs: Q_h·K_hᵀ is T×T dot
  // products of width d_head, and so is weights·V_h (T rows × d_head columns × T terms).
  const std::int64_t d = 8, heads = 4, t = 7, dh = d / heads;
  std::uint64_t per_head = 0;
  for (std::int64_t h = 0; h < heads; ++h) per_head += static_cast<std::uint64_t>(t * t * dh + t * dh * t);
  const MultiHeadCost c = multi_head_cost(d, heads, t);
  CHECK(c.score_mults + c.mix_mults == per_head);
  CHECK(c.projection_mults == static_cast<std::uint64_t>(4 * t * d * d));
}

TEST_CASE("head counts are the divisors of d_model, and a count that does not divide is refused") {
  CHECK((head_counts(12) == std::vector<std::int64_t>{1, 2, 3, 4, 6, 12}));
  CHECK((head_counts(1) == std::vector<std::int64_t>{1}));
  CHECK(head_counts(1600).size() == 21);  // GPT-2 XL: 25 heads of 64
  CHECK(heads_divide(1600, 25));
  CHECK_FALSE(heads_divide(512, 3));
  CHECK_FALSE(heads_divide(8, 16));
  CHECK_FALSE(heads_divide(8, 0));
  CHECK_THROWS_AS(multi_head_cost(512, 3, 10), InputError);
  CHECK_THROWS_AS(multi_head_cost(0, 1, 10), InputError);
  CHECK_THROWS_AS(multi_head_cost(8, 1, 0), InputError);
}

TEST_CASE("a head count that stops dividing lands on the nearest divisor, the smaller on a tie") {
  CHECK(nearest_head_count(96, 8) == 8);
  CHECK(nearest_head_count(100, 8) == 10);  // 100's divisors around 8: 5, 10
  CHECK(nearest_head_count(12, 5) == 4);    // 4 and 6 are both 1 away
  CHECK(nearest_head_count(7, 3) == 1);     // a prime: 1 or 7
  CHECK(nearest_head_count(64, 1000) == 64);
}

TEST_CASE("the largest sizes still count in 64 bits without wrapping") {
  const MultiHeadCost c = multi_head_cost(65536, 1, 1'000'000);
  CHECK(c.score_mults == 1'000'000'000'000ull * 65536ull);
  CHECK(c.flops == 2 * c.total_mults);
  CHECK(c.flops > c.total_mults);  // no wrap: doubling made it larger
  CHECK_THROWS_AS(multi_head_cost(65536, 1, 1'000'001), InputError);
}
