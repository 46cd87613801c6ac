// head_stats_test.cpp: the figures that say how differently heads look (head_stats.h), measured
// on trained models, never trained for.
#include "engine/core/backward.h"
#include "engine/trace/block_trace.h"
#include "engine/core/head_stats.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace neuralpath;

namespace {

Vector vec(std::initializer_list<float> v) {
  Vector out(static_cast<Index>(v.size()));
  Index i = 0;
  for (float x : v) out(i++) = x;
  return out;
}

}  // namespace

TEST_CASE("Jensen-Shannon divergence: 0 bits for the same row, 1 bit for rows with nothing in common") {
  CHECK(jensen_shannon_bits(vec({0.2f, 0.3f, 0.5f}), vec({0.2f, 0.3f, 0.5f})) == doctest::Approx(0.0f));
  CHECK(jensen_shannon_bits(vec({1.0f, 0.0f, 0.0f}), vec({0.0f, 0.5f, 0.5f})) == doctest::Approx(1.0f));
  const float some = jensen_shannon_bits(vec({0.6f, 0.4f, 0.0f}), vec({0.4f, 0.6f, 0.0f}));
  CHECK(some > 0.0f);
  CHECK(some < 0.1f);
  CHECK(some == doctest::Approx(jensen_shannon_bits(vec({0.4f, 0.6f, 0.0f}), vec({0.6f, 0.4f, 0.0f}))));
}

TEST_CASE("weight_parts takes any layer's weight apart into the numbers the trace records for it") {
  const Trace t = run_block(default_model_spec(), "the animal didn't cross the street because it was too tired.");
  REQUIRE(!t.context.empty());
  const int T = static_cast<int>(t.tokens.size());
  // The shown layer: the same products, scaled score and softmax factors as its traced steps.
  for (int h = 0; h < t.heads; ++h)
    for (const Cell cell : {Cell{T - 1, 1}, Cell{3, 3}, Cell{2, 5}}) {
      CAPTURE(h);
      CAPTURE(cell.col);
      const WeightParts p = weight_parts(t.attention, h, cell);
      const Step* score = nullptr;
      const Step* softmax = nullptr;
      for (const Step& s : t.steps)
        if (s.layer == -1 && s.head == h) {
          if (s.kind == StepKind::score) score = &s;
          if (s.kind == StepKind::softmax) softmax = &s;
        }
      REQUIRE(score != nullptr);
      REQUIRE(softmax != nullptr);
      const CellTerms& terms = score->cell_terms[static_cast<std::size_t>(cell.row * T + cell.col)];
      REQUIRE(terms.terms.size() == p.products.terms.size());
      for (std::size_t k = 0; k < terms.terms.size(); ++k) {
        CHECK(p.products.terms[k].a == terms.terms[k].a);
        CHECK(p.products.terms[k].b == terms.terms[k].b);
      }
      CHECK(p.products.value == doctest::Approx(terms.value));
      CHECK(p.masked == t.mask.hides(cell.row, cell.col));
      const CellTerms& soft = softmax->cell_terms[static_cast<std::size_t>(cell.row * T + cell.col)];
      CHECK(p.exp_shifted == doctest::Approx(soft.terms.front().a));
      CHECK(p.inv_sum == doctest::Approx(soft.terms.front().b));
      CHECK(p.weight == t.weights(h)(cell.row, cell.col));
    }
  // A context layer (no terms recorded): its parts rebuild its own weight.
  const MultiHeadResult& context = t.context.front();
  const WeightParts p = weight_parts(context, 0, {T - 3, 1});
  CHECK(p.exp_shifted * p.inv_sum == doctest::Approx(p.weight));
  CHECK(p.products.value * p.scale == doctest::Approx(p.scaled));
  CHECK_THROWS(weight_parts(context, 9, {0, 0}));
  CHECK_THROWS(weight_parts(context, 0, {T, 0}));
}
