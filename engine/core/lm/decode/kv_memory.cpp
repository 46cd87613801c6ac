// kv_memory.cpp: the KV cache's memory formula (kv_memory.h).
#include "engine/core/lm/decode/kv_memory.h"

#include "engine/core/error.h"

#include <string>

namespace neuralpath::lm {

KvMemory kv_memory(int layers, int heads, int kv_heads, int head_dim, std::int64_t tokens, int bytes_per_number) {
  if (layers < 1 || layers > 1024) throw InputError("layers must be 1 to 1,024");
  if (heads < 1 || heads > 1024) throw InputError("heads must be 1 to 1,024");
  if (kv_heads < 1 || kv_heads > heads || heads % kv_heads != 0)
    throw InputError("the key-value heads (" + std::to_string(kv_heads) + ") must divide the " + std::to_string(heads) +
                     " query heads");
  if (head_dim < 1 || head_dim > 65536) throw InputError("numbers per head must be 1 to 65,536");
  if (tokens < 0 || tokens > (std::int64_t{1} << 31)) throw InputError("tokens must be 0 to 2^31");
  if (bytes_per_number != 1 && bytes_per_number != 2 && bytes_per_number != 4)
    throw InputError("bytes per number must be 1, 2 or 4");
  KvMemory m;
  m.layers = layers;
  m.heads = heads;
  m.kv_heads = kv_heads;
  m.head_dim = head_dim;
  m.bytes_per_number = bytes_per_number;
  m.tokens = tokens;
  m.per_head_per_token = 2 * std::int64_t{head_dim} * bytes_per_number;  // 2 · dh · b (a key and a value)
  m.per_layer_per_token = m.per_head_per_token * kv_heads;               // · G
  m.per_token = m.per_layer_per_token * layers;                          // · L
  m.total = m.per_token * tokens;                                        // · T
  return m;
}

KvMemory kv_memory(const LmConfig& c, std::int64_t tokens, int kv_heads, int bytes_per_number) {
  return kv_memory(c.layers, c.heads, kv_heads == 0 ? c.heads : kv_heads, c.head_dim(), tokens, bytes_per_number);
}

}  // namespace neuralpath::lm
