// kv_memory.h: what a KV cache costs in memory, from a model's shapes.
//
// Each layer keeps, for every position, one key and one value per key-value head, each dh
// numbers:
//
//   bytes per token, per layer, per head   2 · dh · b                      (a key and a value)
//   bytes per token, per layer             2 · G · dh · b
//   bytes per token                        2 · L · G · dh · b
//   bytes for T tokens                     2 · L · G · dh · b · T
//
// with L layers, G key-value heads, dh numbers per head and b bytes per number (4 for float32,
// 2 for float16). Ordinary multi-head attention has G = H (every query head has its own keys
// and values); grouped-query attention shares one key-value head among H/G query heads
// (1 < G < H); multi-query attention has G = 1. The queries are never cached.
#pragma once

#include "engine/core/lm/config.h"

#include <cstdint>

namespace neuralpath::lm {

struct KvMemory {
  int layers = 0, heads = 0, kv_heads = 0, head_dim = 0, bytes_per_number = 4;
  std::int64_t tokens = 0;
  std::int64_t per_head_per_token = 0;   // 2 · dh · b
  std::int64_t per_layer_per_token = 0;  // 2 · G · dh · b
  std::int64_t per_token = 0;            // 2 · L · G · dh · b
  std::int64_t total = 0;                // per_token · T
};

// Throws InputError unless kv_heads divides the config's heads (G = 0 means G = H), tokens >= 0
// and bytes_per_number is 1, 2 or 4.
KvMemory kv_memory(const LmConfig& config, std::int64_t tokens, int kv_heads = 0, int bytes_per_number = 4);

// The same from bare shapes (a model the learner describes): layers, query heads, key-value
// heads, numbers per head. Throws InputError for shapes out of range (any < 1, G not dividing H,
// more than 1,024 layers or heads, dh above 65,536, T above 2^31).
KvMemory kv_memory(int layers, int heads, int kv_heads, int head_dim, std::int64_t tokens, int bytes_per_number);

}  // namespace neuralpath::lm
