// kv_cache.h: writing with a KV cache. The model (model.h) is causal: the token at position t
// attends only to positions 0..t, so once a token's keys and values are computed they never
// change when later tokens arrive. An incremental decoder keeps them (the cache) and, for each
// new token, runs the model on that one row: its query meets every cached key.
//
//   full forward, T tokens       every layer's matrices on T rows, attention T×T (masked)
//   one cached step, position t  every layer's matrices on 1 row, attention 1×(t+1) (no mask
//                                needed: the cache holds only positions <= t)
//
// What is cached, per layer l and position t: the rotated key k_t (RoPE applied, as the
// attention reads it) and the value v_t, each d = H·dh floats (every head's slice side by side,
// the layout of qkv's K and V sections in model.cpp). Queries are not cached: only the newest
// token's query is ever used again.
//
//   KvDecoder dec(model);
//   std::vector<float> logits = dec.prefill(prompt_ids);   // the whole prompt at once
//   logits = dec.step(next_id);                            // one token, position dec.length()-1
//
// step() equals the full forward's last row to float rounding (tests/lm_decode/kv_cache_test.cpp).
#pragma once

#include "engine/core/lm/model.h"

#include <cstddef>
#include <vector>

namespace neuralpath::lm {

// Keys and values of every layer for positions 0..length-1, room for `capacity` positions (the
// model's context).
struct KvCache {
  int layers = 0, d = 0, capacity = 0;
  int length = 0;                    // positions filled
  std::vector<Buffer> keys, values;  // per layer [capacity][d]

  void reset(const LmConfig& config);
  float* key(int layer, int t) {
    return keys[static_cast<std::size_t>(layer)].data() + static_cast<std::ptrdiff_t>(t) * d;
  }
  float* value(int layer, int t) {
    return values[static_cast<std::size_t>(layer)].data() + static_cast<std::ptrdiff_t>(t) * d;
  }
  const float* key(int layer, int t) const {
    return keys[static_cast<std::size_t>(layer)].data() + static_cast<std::ptrdiff_t>(t) * d;
  }
  const float* value(int layer, int t) const {
    return values[static_cast<std::size_t>(layer)].data() + static_cast<std::ptrdiff_t>(t) * d;
  }
  std::size_t used_bytes() const;       // 2 · layers · length · d · sizeof(float)
  std::size_t allocated_bytes() const;  // 2 · layers · capacity · d · sizeof(float)
};

class KvDecoder {
 public:
  explicit KvDecoder(const LmModel& model);  // keeps a reference: the model must outlive it

  // Empties the cache, runs the full forward on `ids` (1..context tokens) and keeps every
  // layer's keys and values; returns the logits [V] after the last token.
  const std::vector<float>& prefill(const std::vector<int>& ids);
  // Feeds one token at position length(); returns the logits [V] after it. Throws InputError
  // when the cache is full (length() == context) or the id is outside the vocabulary.
  const std::vector<float>& step(int token);

  void reset() { cache_.length = 0; }
  int length() const { return cache_.length; }
  bool full() const { return cache_.length == cache_.capacity; }
  const KvCache& cache() const { return cache_; }
  const LmModel& model() const { return model_; }

 private:
  const LmModel& model_;
  ParameterLayout layout_;
  KvCache cache_;
  Activations prefill_acts_;
  // One row's buffers: x [d], ln [d], qkv [3d], atty [d], scratch [max(d, h)], fch [h], logits [V]
  Buffer x_, ln_, qkv_, atty_, scratch_, fch_, fch_gelu_;
  std::vector<float> logits_;
  std::vector<float> rope_cos_, rope_sin_;  // [context][dh/2]: the same angles as layers.cpp's table
};

// Rotates one row's query and key (the Q and K sections of qkv [3d]) to position t, the angle
// t·θ_i with θ_i = 10000^(−2i/dh) as rope_forward (layers.h) does for a whole sequence.
void rope_row(float* qkv, int t, int d, int heads, const float* cosines, const float* sines);

// softmax(logits) as next_token_probabilities (model.h) computes it: e^(z − max) in float, the
// sum in double, so the cached and uncached paths hand the sampler the same numbers.
std::vector<float> probabilities_from_logits(const std::vector<float>& logits);

}  // namespace neuralpath::lm
