// kv_memory_test.cpp: the KV cache's memory formula, and that it counts what the decoder holds.
#include "engine/core/error.h"
#include "engine/core/lm/decode/kv_cache.h"
#include "engine/core/lm/decode/kv_memory.h"
#include "test_models.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using namespace neuralpath::lm;

TEST_CASE("the shipped config's cache: 2 · dh · 4 bytes per head, times heads, times layers, per token") {
  const LmConfig& small = *find_config("small");  // L = 3, H = 4, d = 128: dh = 32
  const KvMemory m = kv_memory(small, small.context);
  CHECK(m.per_head_per_token == 2 * 32 * 4);  // 256 B: a key and a value of 32 floats
  CHECK(m.per_layer_per_token == 4 * 256);    // 1,024 B
  CHECK(m.per_token == 3 * 1024);             // 3,072 B
  CHECK(m.total == 3072 * 64);                // 196,608 B for the whole context
  CHECK(m.kv_heads == 4);
}

TEST_CASE("grouped-query and multi-query attention divide the cache by H / G") {
  const LmConfig& small = *find_config("small");
  const KvMemory mha = kv_memory(small, 64, 4), gqa = kv_memory(small, 64, 2), mqa = kv_memory(small, 64, 1);
  CHECK(gqa.total * 2 == mha.total);
  CHECK(mqa.total * 4 == mha.total);
  CHECK(mqa.per_layer_per_token == mqa.per_head_per_token);
  CHECK(kv_memory(small, 64, 4, 2).total * 2 == mha.total);  // float16 halves it again
  // a large model's shapes: 32 layers, 32 heads of 128, float16, 4,096 tokens
  CHECK(kv_memory(32, 32, 32, 128, 4096, 2).total == 2LL * 32 * 32 * 128 * 2 * 4096);  // 2 GiB
  CHECK(kv_memory(32, 32, 8, 128, 4096, 2).total == 512LL * 1024 * 1024);              // GQA with 8 groups: 512 MiB
}

TEST_CASE("shapes the formula cannot take are refused") {
  const LmConfig& small = *find_config("small");
  CHECK_THROWS_AS(kv_memory(small, 64, 3), InputError);  // 3 does not divide 4
  CHECK_THROWS_AS(kv_memory(small, 64, 8), InputError);
  CHECK_THROWS_AS(kv_memory(small, -1), InputError);
  CHECK_THROWS_AS(kv_memory(small, 64, 4, 3), InputError);
  CHECK_THROWS_AS(kv_memory(0, 4, 4, 32, 64, 4), InputError);
  CHECK_THROWS_AS(kv_memory(2, 4, 4, 0, 64, 4), InputError);
}

TEST_CASE("the formula counts exactly the bytes the decoder's cache holds") {
  const LmModel m = test::scaled_model();
  KvDecoder dec(m);
  for (int t = 0; t < 9; ++t) dec.step(65 + t);
  CHECK(static_cast<std::int64_t>(dec.cache().used_bytes()) == kv_memory(m.config, 9).total);
  CHECK(static_cast<std::int64_t>(dec.cache().allocated_bytes()) == kv_memory(m.config, m.config.context).total);
}
