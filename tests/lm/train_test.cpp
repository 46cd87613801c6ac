// train_test.cpp: the corpus split, the trainer (deterministic, resumable, learning), AdamW's
// decay on matrices only, the model file, and the head scores.
#include "engine/core/adamw.h"
#include "engine/core/error.h"
#include "engine/core/lm/model_file.h"
#include "engine/core/lm/sampling.h"
#include "engine/core/lm/trainer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include "sentences_corpus.h"
#include <string>

using namespace neuralpath;
using namespace neuralpath::lm;

namespace {

// A small English corpus in the fortune format: 40 documents of a few sentences each.
std::string small_corpus() { return neuralpath::testdata::sentences_corpus(40, 6); }

LmTrainer make_trainer(int threads, std::uint64_t seed = 3) {
  const Corpus corpus = split_corpus(small_corpus());
  LmConfig c = testdata::quick_config(30);
  BpeTokenizer t = BpeTokenizer::train(corpus.training_text(), c.vocab_size);
  c.vocab_size = t.vocab_size();  // (this small text may give fewer merges)
  TokenStreams s = tokenize_corpus(corpus, t);
  return LmTrainer(initial_model(c, std::move(t), seed), std::move(s), {seed, threads, 0});
}

}  // namespace

TEST_CASE("the corpus is split by document: every tenth document is validation, none in both") {
  const Corpus c = split_corpus(small_corpus());
  CHECK(c.train.size() == 36);
  CHECK(c.validation.size() == 4);
  CHECK(c.hash.size() == 16);
  const Corpus one = split_corpus("line one\nline two\nline three\nline four\n");  // one document: 90/10 by lines
  CHECK(one.train.size() == 1);
  CHECK(one.validation.size() == 1);
  CHECK(one.train[0] + one.validation[0] == "line one\nline two\nline three\nline four\n");
  CHECK_THROWS_AS(split_corpus("%\n%\n"), InputError);
}

TEST_CASE("training is deterministic for a seed and thread count, and 2 threads equal 2 threads") {
  LmTrainer a = make_trainer(1), b = make_trainer(1), c = make_trainer(2), d = make_trainer(2);
  for (int i = 0; i < 5; ++i) {
    CHECK(a.step() == b.step());
    CHECK(c.step() == d.step());
  }
  CHECK(a.model().weights == b.model().weights);
  CHECK(c.model().weights == d.model().weights);
  // one thread and two add the same gradients in another grouping: close, not necessarily equal
  float diff = 0.0f;
  for (std::size_t i = 0; i < a.model().weights.size(); ++i)
    diff = std::max(diff, std::abs(a.model().weights[i] - c.model().weights[i]));
  CHECK(diff < 1e-3f);
  // three parts: uneven slices of every tensor, each added, clipped and updated by its thread
  LmTrainer e = make_trainer(3);
  for (int i = 0; i < 5; ++i) e.step();
  float diff3 = 0.0f;
  for (std::size_t i = 0; i < a.model().weights.size(); ++i)
    diff3 = std::max(diff3, std::abs(a.model().weights[i] - e.model().weights[i]));
  CHECK(diff3 < 1e-3f);
  CHECK(e.last_gradient_norm() == doctest::Approx(a.last_gradient_norm()).epsilon(1e-3));
  LmTrainer other_seed = make_trainer(1, 4);
  other_seed.step();
  CHECK(other_seed.model().weights != a.model().weights);
}

TEST_CASE("a snapshot restores the trainer: the steps after it repeat bit for bit") {
  LmTrainer t = make_trainer(2);
  t.step();
  t.step();
  const LmTrainer::Snapshot s = t.snapshot();
  std::vector<float> losses;
  for (int i = 0; i < 3; ++i) losses.push_back(t.step());
  const std::vector<float> weights = t.model().weights;
  t.restore(s);
  CHECK(t.steps_done() == 2);
  for (int i = 0; i < 3; ++i) CHECK(t.step() == losses[static_cast<std::size_t>(i)]);
  CHECK(t.model().weights == weights);
}

TEST_CASE("a gradient that is not finite refuses the step on every thread count and changes nothing") {
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    LmTrainer t = make_trainer(threads);
    t.step();
    LmTrainer::Snapshot s = t.snapshot();
    s.weights[s.weights.size() / 2] = std::nanf("");  // one poisoned weight: NaN in every part's gradient
    t.restore(s);
    CHECK_THROWS_AS(t.step(), InputError);
    CHECK(t.steps_done() == 1);
    const std::vector<float>& after = t.model().weights;
    CHECK(std::memcmp(after.data(), s.weights.data(), after.size() * sizeof(float)) == 0);  // not one moved
  }
}

TEST_CASE("training lowers the validation loss well below the untrained model's") {
  LmTrainer t = make_trainer(1);
  const float before = t.validation_loss();
  CHECK(before == doctest::Approx(std::log(t.model().config.vocab_size)).epsilon(0.1));  // near uniform at the start
  for (int i = 0; i < 30; ++i) t.step();
  const float after = t.validation_loss();
  MESSAGE("validation loss " << before << " -> " << after);
  CHECK(after < before - 1.0f);
  // the schedule: warm-up rises linearly, then decays to the final fraction
  const LmConfig& c = t.model().config;
  CHECK(t.learning_rate_at(0) == doctest::Approx(c.learning_rate / c.warmup_steps));
  CHECK(t.learning_rate_at(t.total_steps()) == doctest::Approx(c.learning_rate * c.final_lr_fraction));
}

TEST_CASE("AdamW's decay shrinks matrices and leaves gains and biases alone") {
  std::vector<float> matrix{1.0f, -2.0f}, gain{1.0f, -2.0f};
  const std::vector<float> zero{0.0f, 0.0f};
  AdamW adam({0.1f, 0.9f, 0.999f, 1e-8f, 0.5f});
  adam.step({{matrix.data(), zero.data(), 2, true}, {gain.data(), zero.data(), 2, false}});
  CHECK(matrix[0] == doctest::Approx(1.0f - 0.1f * 0.5f * 1.0f));  // θ −= lr·λ·θ (no gradient)
  CHECK(matrix[1] == doctest::Approx(-2.0f + 0.1f * 0.5f * 2.0f));
  CHECK(gain[0] == 1.0f);
  CHECK(gain[1] == -2.0f);
}

TEST_CASE("the model file keeps the tokenizer and the weights (to fp16), and refuses damaged files") {
  LmTrainer t = make_trainer(1);
  t.step();
  LmModel m = t.model();
  m.lang = "en";
  const std::string bytes = model_file_bytes(m);
  const LmModel back = model_from_bytes(bytes);
  CHECK(back.tokenizer.merges() == m.tokenizer.merges());
  CHECK(back.config.d_model == m.config.d_model);
  CHECK(back.lang == "en");
  CHECK(back.steps == 1);
  float worst = 0.0f;
  for (std::size_t i = 0; i < m.weights.size(); ++i)
    worst = std::max(worst, std::abs(back.weights[i] - m.weights[i]) / std::max(std::abs(m.weights[i]), 1e-4f));
  CHECK(worst < 1e-3f);                    // fp16: 11 significant bits
  CHECK(model_file_bytes(back) == bytes);  // a second save changes nothing
  std::string cut = bytes.substr(0, bytes.size() - 10);
  CHECK_THROWS_AS(model_from_bytes(cut), InputError);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 1;
  CHECK_THROWS_AS(model_from_bytes(flipped), InputError);
  CHECK_THROWS_AS(model_from_bytes("NPLM1\nname x\nend\n12345678"), InputError);
  CHECK_THROWS_AS(model_from_bytes(""), InputError);
  // fp16 conversion: exact for representable values, nearest otherwise, infinities kept
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f})
    CHECK(half_to_float(float_to_half(v)) == v);
  CHECK(half_to_float(float_to_half(1.0f + 1.0f / 4096.0f)) == 1.0f);  // ties to even
  CHECK(std::isinf(half_to_float(float_to_half(1e6f))));
}

TEST_CASE("generation is the same for a seed, greedy at temperature 0, and stops at the document token") {
  LmTrainer t = make_trainer(1);
  for (int i = 0; i < 30; ++i) t.step();
  const LmModel& m = t.model();
  const Generation a = generate(m, "The ", {20, 0.8f, 10, 5});
  const Generation b = generate(m, "The ", {20, 0.8f, 10, 5});
  CHECK(a.text == b.text);
  CHECK(a.text.rfind("The ", 0) == 0);
  CHECK(a.tokens.size() <= 20);
  const Generation greedy1 = generate(m, "The cat", {10, 0.0f, 0, 1});
  const Generation greedy2 = generate(m, "The cat", {10, 0.0f, 0, 99});
  CHECK(greedy1.text == greedy2.text);  // no randomness left
  const std::vector<float> p = reshape_distribution({0.5f, 0.3f, 0.2f}, 1.0f, 2);
  CHECK(p[2] == 0.0f);
  CHECK(p[0] == doctest::Approx(0.625f));
  CHECK_THROWS_AS(generate(m, "x", {10, -1.0f, 0, 1}), InputError);
}
