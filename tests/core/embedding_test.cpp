// embedding_test.cpp: readable vectors for known words, seeded ones for the rest, positions.
#include "engine/core/embedding.h"
#include "engine/core/error.h"
#include "engine/core/model.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace neuralpath;

TEST_CASE("a known word's vector is its named features followed by zeros") {
  Vocabulary vocab{{"animate", "place"}, {{"cat", {1.0f, 0.25f}}}};
  const Vector e = word_embedding(vocab, "cat", 4, 42);
  REQUIRE(e.size() == 4);
  CHECK(e(0) == 1.0f);
  CHECK(e(1) == 0.25f);
  CHECK(e(2) == 0.0f);
  CHECK(e(3) == 0.0f);
}

TEST_CASE("an unknown word gets the same seeded vector every time, between -0.5 and 0.5, changing with the seed") {
  const Vocabulary vocab;
  const Vector a = word_embedding(vocab, "zebra", 8, 42);
  const Vector b = word_embedding(vocab, "zebra", 8, 42);
  CHECK(a == b);
  CHECK(a.minCoeff() >= -0.5f);
  CHECK(a.maxCoeff() < 0.5f);
  CHECK(a != word_embedding(vocab, "zebra", 8, 43));
  CHECK(a != word_embedding(vocab, "zebras", 8, 42));
  // Pinned value: fnv1a64 and splitmix64 are platform independent, so native and wasm agree.
  CHECK(fnv1a64("") == 0xcbf29ce484222325ULL);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
}

TEST_CASE("sinusoidal positions follow sin(pos / 10000^(2i/d)) and cos for odd columns") {
  const Matrix pe = positional_encoding(5, 6);
  REQUIRE(pe.rows() == 5);
  REQUIRE(pe.cols() == 6);
  CHECK(pe(0, 0) == 0.0f);
  CHECK(pe(0, 1) == 1.0f);
  CHECK(pe(1, 0) == doctest::Approx(std::sin(1.0)));
  CHECK(pe(1, 1) == doctest::Approx(std::cos(1.0)));
  CHECK(pe(3, 2) == doctest::Approx(std::sin(3.0 / std::pow(10000.0, 2.0 / 6.0))));
  CHECK(pe(4, 5) == doctest::Approx(std::cos(4.0 / std::pow(10000.0, 4.0 / 6.0))));
  CHECK(positional_encoding(3, 5).cols() == 5);  // odd d: the last column is a sine
}

TEST_CASE("resolving a model fills every empty matrix with the documented default shape") {
  ModelSpec spec;
  spec.vocabulary = {{"a", "b", "c", "d"}, {{"x", {1, 0, 0, 0}}, {"y", {0, 1}}}};
  spec.attention.heads = 2;
  spec.context_layers.resize(1);
  const ModelSpec r = resolve_model(spec);
  CHECK(r.d_model == 4);
  CHECK(r.attention.w_q.rows() == 4);
  CHECK(r.attention.w_q.cols() == 4);
  CHECK(r.attention.w_o.isIdentity());
  CHECK(r.context_layers[0].w_k.rows() == 4);
  CHECK(r.context_layers[0].w_k != r.attention.w_k);  // seeded per layer
  CHECK(r.feed_forward.w1.cols() == 16);              // hidden = 4·d_model
  CHECK(r.norm_attention.gamma.isOnes());
  CHECK(r.unembedding.rows() == 2);  // tied to the two words
  CHECK(r.unembedding(1, 1) == 1.0f);
  CHECK(resolve_model(spec).attention.w_q == r.attention.w_q);  // deterministic
}

TEST_CASE("an inconsistent model is a clear error") {
  ModelSpec spec;
  spec.vocabulary = {{"a", "b", "c"}, {}};
  spec.attention.heads = 2;
  CHECK_THROWS_WITH(resolve_model(spec), doctest::Contains("heads do not divide d_model"));
  spec.attention.heads = 1;
  spec.attention.w_q = Matrix::Zero(2, 3);
  CHECK_THROWS_WITH(resolve_model(spec), doctest::Contains("attention.w_q is [2][3] but must be [3][3]"));
  spec.attention.w_q.resize(0, 0);
  spec.vocabulary.words["x"] = {1, 2, 3, 4};
  CHECK_THROWS_AS(resolve_model(spec), InputError);
  spec.vocabulary.words.clear();
  spec.temperature = 0.0f;
  CHECK_THROWS_WITH(resolve_model(spec), doctest::Contains("temperature"));
}
