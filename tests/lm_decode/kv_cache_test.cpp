// kv_cache_test.cpp: the incremental decoder with its KV cache gives the full forward's logits
// at every position, keeps exactly the keys and values the full forward computes, and refuses
// what it cannot hold.
#include "engine/core/error.h"
#include "engine/core/lm/decode/kv_cache.h"
#include "test_models.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace neuralpath;
using namespace neuralpath::lm;

namespace {

// The full forward's logits [T][V] over ids (no targets: model_forward leaves the logits).
std::vector<float> full_logits(const LmModel& m, const std::vector<int>& ids) {
  Activations a;
  const int T = static_cast<int>(ids.size());
  model_forward(m.config, parameter_layout(m.config), m.weights.data(), a, ids.data(), nullptr, 1, T);
  return {a.probs.begin(), a.probs.begin() + static_cast<std::ptrdiff_t>(T) * m.config.vocab_size};
}

std::vector<int> some_ids(const LmModel& m, int n) {
  std::vector<int> ids{kDocumentToken};
  std::vector<int> text = m.tokenizer.encode(
      "The cat sat on the mat. A dog ran in the park. The sun is warm today. We read a book at night. "
      "The bird sang a song. She likes green tea. He walked to the old town.");
  ids.insert(ids.end(), text.begin(), text.end());
  ids.resize(static_cast<std::size_t>(n));
  return ids;
}

// max |a − b| over the row, and the row's spread (max − min of the full forward's logits)
struct RowDiff {
  float max_abs = 0.0f, spread = 0.0f;
};
RowDiff compare_row(const float* cached, const float* full, int V) {
  RowDiff r;
  float lo = full[0], hi = full[0];
  for (int i = 0; i < V; ++i) {
    r.max_abs = std::max(r.max_abs, std::abs(cached[i] - full[i]));
    lo = std::min(lo, full[i]);
    hi = std::max(hi, full[i]);
  }
  r.spread = hi - lo;
  return r;
}

void check_steps_equal_full_forward(const LmModel& m, int prefill_length) {
  const int T = m.config.context, V = m.config.vocab_size;
  const std::vector<int> ids = some_ids(m, T);
  const std::vector<float> full = full_logits(m, ids);
  KvDecoder dec(m);
  float worst = 0.0f, spread = 1e30f;
  if (prefill_length > 0) {
    const std::vector<float>& logits = dec.prefill({ids.begin(), ids.begin() + prefill_length});
    const RowDiff r = compare_row(logits.data(), full.data() + static_cast<std::ptrdiff_t>(prefill_length - 1) * V, V);
    CHECK(r.max_abs < 2e-4f * std::max(1.0f, r.spread));  // the full forward over fewer rows
  }
  for (int t = prefill_length; t < T; ++t) {
    const std::vector<float>& logits = dec.step(ids[static_cast<std::size_t>(t)]);
    const RowDiff r = compare_row(logits.data(), full.data() + static_cast<std::ptrdiff_t>(t) * V, V);
    worst = std::max(worst, r.max_abs);
    spread = std::min(spread, r.spread);
  }
  CHECK(dec.length() == T);
  CHECK(dec.full());
  MESSAGE("prefill " << prefill_length << ": max |logit difference| " << worst << ", smallest row spread " << spread);
  CHECK(spread > 1.0f);  // the logits are far from flat, so a wrong cache would show
  CHECK(worst < 2e-4f * std::max(1.0f, spread));
}

}  // namespace

TEST_CASE("one cached step per token gives the full forward's logits at every position") {
  const LmModel m = test::scaled_model();
  SUBCASE("from an empty cache") { check_steps_equal_full_forward(m, 0); }
  SUBCASE("after a prefill of 5 tokens") { check_steps_equal_full_forward(m, 5); }
  SUBCASE("after a prefill of all but one") { check_steps_equal_full_forward(m, m.config.context - 1); }
}

TEST_CASE("the cache holds the rotated keys and the values the full forward computes, nothing for queries") {
  const LmModel m = test::scaled_model();
  const int T = 10, d = m.config.d_model;
  const std::vector<int> ids = some_ids(m, T);
  Activations a;
  model_forward(m.config, parameter_layout(m.config), m.weights.data(), a, ids.data(), nullptr, 1, T);
  KvDecoder dec(m);
  for (int t = 0; t < T; ++t) dec.step(ids[static_cast<std::size_t>(t)]);
  float worst = 0.0f;
  for (int l = 0; l < m.config.layers; ++l)
    for (int t = 0; t < T; ++t)
      for (int i = 0; i < d; ++i) {
        const float* row = a.layers[static_cast<std::size_t>(l)].qkv.data() + static_cast<std::ptrdiff_t>(t) * 3 * d;
        worst = std::max(worst, std::abs(dec.cache().key(l, t)[i] - row[d + i]));
        worst = std::max(worst, std::abs(dec.cache().value(l, t)[i] - row[2 * d + i]));
      }
  CHECK(worst < 1e-3f);
  CHECK(dec.cache().used_bytes() == 2u * 2u * 10u * 64u * 4u);  // 2 · L · T · d · 4 bytes
  CHECK(dec.cache().allocated_bytes() == 2u * 2u * 24u * 64u * 4u);
}

TEST_CASE("the decoder refuses a token outside the vocabulary, a full cache and a prompt longer than the context") {
  const LmModel m = test::scaled_model();
  KvDecoder dec(m);
  CHECK_THROWS_AS(dec.step(m.config.vocab_size), InputError);
  CHECK_THROWS_AS(dec.step(-1), InputError);
  CHECK(dec.length() == 0);  // nothing was cached by a refused step
  CHECK_THROWS_AS(dec.prefill(std::vector<int>(static_cast<std::size_t>(m.config.context + 1), 65)), InputError);
  CHECK_THROWS_AS(dec.prefill({}), InputError);
  for (int t = 0; t < m.config.context; ++t) dec.step(65);
  CHECK_THROWS_AS(dec.step(65), InputError);
  dec.reset();
  CHECK(dec.length() == 0);
  CHECK_NOTHROW(dec.step(65));
}

TEST_CASE("on the shipped English model, cached steps equal the full forward" *
          doctest::skip(!test::shipped_built("en"))) {
  const LmModel m = load_model(test::shipped_path("en"));
  check_steps_equal_full_forward(m, 3);
}
