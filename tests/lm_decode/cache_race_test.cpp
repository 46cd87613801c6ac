// cache_race_test.cpp: the timing job writes the same greedy text with and without the cache,
// times every position of every round, and works a frame's budget at a time. (How much faster the
// cache is, is measured, not asserted: tests/bench and the lesson's page print it.)
#include "engine/core/error.h"
#include "engine/core/lm/decode/cache_race.h"
#include "engine/core/lm/decode/writer.h"
#include "test_models.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using namespace neuralpath::lm;

TEST_CASE("the race writes the greedy text both ways, and every position gets a time") {
  const LmModel m = test::scaled_model(3.0f);
  const std::vector<int> prompt{kDocumentToken, 65, 66};
  CacheRace race(m, prompt, 2);
  CHECK(race.positions() == m.config.context - 3);
  CHECK(race.cached_total() < 0.0);  // nothing yet
  int calls = 0;
  while (!race.step(0.0)) ++calls;  // a zero budget: one unit per call
  CHECK(calls + 1 == race.units_total());
  CHECK(race.units_done() == race.units_total());
  CHECK(race.rounds_done() == 2);
  CHECK(race.same_tokens());
  for (int i = 0; i < race.positions(); ++i) {
    CHECK(race.cached_seconds(i) >= 0.0);
    CHECK(race.full_seconds(i) >= 0.0);
  }
  CHECK(race.prefill_seconds() >= 0.0);
  // its tokens are the greedy continuation the writer draws at temperature 0
  TextWriter w(m, "AB", {{0.0f, 0, 1.0f}, race.positions(), 1, true});
  REQUIRE(w.ids() == prompt);
  while (w.step()) {
  }
  if (!w.ended()) CHECK(w.written() == race.tokens());
}

TEST_CASE("a budget lets several units run in one call") {
  const LmModel m = test::scaled_model(3.0f);
  CacheRace race(m, {kDocumentToken, 65}, 1);
  race.step(10.0);  // ample: everything at once
  CHECK(race.finished());
}

TEST_CASE("the race refuses a prompt that leaves no position to time") {
  const LmModel m = test::scaled_model(3.0f);
  CHECK_THROWS_AS(CacheRace(m, {}, 1), InputError);
  CHECK_THROWS_AS(CacheRace(m, std::vector<int>(static_cast<std::size_t>(m.config.context), 65), 1), InputError);
  CHECK_THROWS_AS(CacheRace(m, {65}, 0), InputError);
  CHECK_THROWS_AS(CacheRace(m, {99999}, 1), InputError);
}
