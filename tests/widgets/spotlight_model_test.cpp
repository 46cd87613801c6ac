// spotlight_model_test.cpp: the spotlight's model alone: the query's weights share one whole,
// the query moves by word or index.
#include "model_support.h"

#include "engine/widgets/spotlight/spotlight_model.h"

#include <doctest/doctest.h>

using namespace model_test::launch;

TEST_CASE("the spotlight model: the query's weights share one whole, the query moves by word or index") {
  SpotlightModel model(settings<SpotlightSettings>("it-spotlight"), {}, launch_spec());
  REQUIRE(model.has_trace());
  CHECK(model.trace().labels[static_cast<std::size_t>(model.query())] == "it");
  CHECK(model.weights().sum() == doctest::Approx(1.0f));
  CHECK(model.top() != model.query());
  float blended = 0;
  for (const auto& term : model.blend()) blended += term.weight;
  CHECK(blended == doctest::Approx(1.0f));  // the blend's terms and "others" add up to every weight
  REQUIRE(send(model, {{"type", "setQuery"}, {"query", "animal"}}).done());
  CHECK(model.trace().labels[static_cast<std::size_t>(model.query())] == "animal");
  REQUIRE(send(model, {{"type", "setQuery"}, {"query", 0}}).done());
  CHECK(model.query() == 0);
  CHECK(send(model, {{"type", "setQuery"}, {"query", "zebra"}}).outcome() == Outcome::refused);
  CHECK(model.query() == 0);
  // The learner's own sentence becomes "Yours"; a bad one keeps the old and says why.
  REQUIRE(send(model, {{"type", "setSentence"}, {"text", "the cat saw it"}}).done());
  CHECK(model.custom());
  CHECK(model.labels().back() == "Yours");
  CHECK(send(model, {{"type", "setSentence"}, {"text", "   "}}).outcome() == Outcome::refused);
  CHECK(model.sentence() == "the cat saw it");
  CHECK_FALSE(model.input_error().empty());
  const TextTable table = model.table();
  // The query stays on the same word ("the", chosen above) across sentences.
  CHECK(model.trace().labels[static_cast<std::size_t>(model.query())] == "the");
  CHECK(table.caption == "Where “the” looks");
  CHECK(table.rows.size() == model.trace().tokens.size());
}
