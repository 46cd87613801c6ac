// writer_test.cpp: the generation loop a step at a time. Without the cache and with top-p off it
// writes exactly what generate() (`lm generate` until now) writes; with the cache it writes the
// same text; past the context the window moves; each step records its stages and its draw.
#include "engine/core/error.h"
#include "engine/core/lm/decode/writer.h"
#include "engine/core/lm/sampling.h"
#include "test_models.h"

#include <doctest/doctest.h>

#include <numeric>

using namespace neuralpath;
using namespace neuralpath::lm;

namespace {
std::string write_all(const LmModel& m, const std::string& prompt, WriterOptions o) {
  TextWriter w(m, prompt, o);
  while (w.step()) {
  }
  return w.text();
}
}  // namespace

TEST_CASE("without the cache and with top-p off, the writer draws exactly what generate() draws") {
  const LmModel m = test::scaled_model(3.0f);
  for (const char* prompt : {"The ", "The cat", "A", "We read"})
    for (std::uint64_t seed : {1u, 2u, 7u})
      for (float temperature : {0.0f, 0.8f, 1.5f}) {
        CAPTURE(prompt);
        CAPTURE(seed);
        CAPTURE(temperature);
        const Generation g = generate(m, prompt, {40, temperature, 10, seed});
        TextWriter w(m, prompt, {{temperature, 10, 1.0f}, 40, seed, false});
        while (w.step()) {
        }
        CHECK(w.text() == g.text);
        CHECK(w.written() == g.tokens);
        CHECK(w.ended() == g.ended);
      }
}

TEST_CASE("with the cache the writer writes the same text as without, past the context too") {
  const LmModel m = test::scaled_model(3.0f);
  for (std::uint64_t seed : {1u, 3u, 11u}) {
    CAPTURE(seed);
    const WriterOptions cached{{0.9f, 0, 0.95f}, 60, seed, true};  // 60 tokens: the 24-token context moves
    WriterOptions full = cached;
    full.use_cache = false;
    CHECK(write_all(m, "The ", cached) == write_all(m, "The ", full));
  }
}

TEST_CASE("each step records the stages it drew from, u, and whether it read the whole window") {
  const LmModel m = test::scaled_model(3.0f);
  TextWriter w(m, "The cat", {{0.7f, 5, 0.9f}, 30, 4, true});
  REQUIRE(w.last_step() == nullptr);
  REQUIRE(w.step());
  const WriterStep* first = w.last_step();
  REQUIRE(first);
  CHECK(first->prefilled);  // the prompt is read at once
  CHECK(first->position == 1 + w.prompt_tokens());
  CHECK(first->stages.kept_top_k <= 5);
  CHECK(first->stages.kept_top_p <= first->stages.kept_top_k);
  CHECK(first->stages.top_p[static_cast<std::size_t>(first->token)] > 0.0f);  // only a kept token is drawn
  CHECK(std::accumulate(first->stages.model.begin(), first->stages.model.end(), 0.0) == doctest::Approx(1.0));
  // a step reads the whole window when the text has outgrown the 24-token context (the window
  // moved); before that, each step is one cached row
  int steps = 1;
  for (std::size_t before = w.ids().size(); w.step(); before = w.ids().size()) {
    ++steps;
    CHECK(w.last_step()->prefilled == (before > 24));
  }
  CHECK(steps == static_cast<int>(w.written().size()) + (w.ended() ? 1 : 0));
  CHECK(w.decoder()->length() <= 24);
}

TEST_CASE("a healed prompt's first token starts with a space, and the model's stage is renormalised") {
  const LmModel m = test::scaled_model(3.0f);
  TextWriter w(m, "The ", {{1.0f, 0, 1.0f}, 5, 2, true});
  REQUIRE(w.step());
  const WriterStep* s = w.last_step();
  CHECK(s->healed);
  if (s->token != kDocumentToken) CHECK(m.tokenizer.token_bytes(s->token)[0] == ' ');
  CHECK(std::accumulate(s->stages.model.begin(), s->stages.model.end(), 0.0) == doctest::Approx(1.0));
  for (std::size_t k = 0; k < s->stages.model.size(); ++k)
    if (m.tokenizer.token_bytes(static_cast<int>(k)).rfind(' ', 0) != 0) CHECK(s->stages.model[k] == 0.0f);
}

TEST_CASE("zero tokens writes nothing and keeps the prompt as given; bad options are refused") {
  const LmModel m = test::scaled_model(3.0f);
  TextWriter w(m, "The ", {{1.0f, 0, 1.0f}, 0, 1, true});
  CHECK(w.finished());
  CHECK_FALSE(w.step());
  CHECK(w.text() == "The ");
  CHECK_THROWS_AS(TextWriter(m, "x", {{1.0f, 0, 0.0f}, 5, 1, true}), InputError);
  CHECK_THROWS_AS(TextWriter(m, "x", {{-1.0f, 0, 1.0f}, 5, 1, true}), InputError);
  CHECK_THROWS_AS(TextWriter(m, "x", {{1.0f, 0, 1.0f}, 5000, 1, true}), InputError);
  CHECK_THROWS_AS(TextWriter(m, std::string(70000, 'a'), {{1.0f, 0, 1.0f}, 5, 1, true}), InputError);
}

TEST_CASE("on the shipped English model, the cached writer writes what generate() writes" *
          doctest::skip(!test::shipped_built("en"))) {
  const LmModel m = load_model(test::shipped_path("en"));
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    CAPTURE(seed);
    const Generation g = generate(m, "The ", {40, 0.8f, 40, seed});
    CHECK(write_all(m, "The ", {{0.8f, 40, 1.0f}, 40, seed, true}) == g.text);
  }
}

TEST_CASE("looking at the upcoming step draws nothing: the text is the same as without looking") {
  const LmModel m = test::scaled_model(3.0f);
  const WriterOptions o{{0.9f, 20, 0.9f}, 25, 6, true};
  TextWriter looked(m, "The ", o);
  while (!looked.finished()) {
    const WriterStep& next = looked.upcoming();
    CHECK(&looked.upcoming() == &next);  // computed once per position
    CHECK(next.position == static_cast<int>(looked.ids().size()));
    looked.step();
    CHECK(looked.last_step()->stages.top_p == next.stages.top_p);
  }
  CHECK(looked.text() == write_all(m, "The ", o));
}

TEST_CASE("new sampling settings restage the upcoming step from the same probabilities") {
  const LmModel m = test::scaled_model(3.0f);
  TextWriter w(m, "The cat", {{1.0f, 0, 1.0f}, 10, 1, true});
  const std::vector<float> model = w.upcoming().stages.model;
  CHECK(w.upcoming().stages.kept_top_k == m.config.vocab_size);
  w.set_sampling({0.5f, 3, 1.0f});
  CHECK(w.upcoming().stages.model == model);  // the model's answer is unchanged
  CHECK(w.upcoming().stages.kept_top_k == 3);
  CHECK(w.upcoming().stages.temperature != model);  // τ = 0.5 sharpened it
  CHECK_THROWS_AS(w.set_sampling({1.0f, 0, 2.0f}), InputError);
  CHECK(w.options().sampling.top_k == 3);  // a refused setting changes nothing
}
