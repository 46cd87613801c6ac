// embedding.h: tokens -> vectors. Named features for known words, seeded ones for the rest,
// and the sinusoidal positional encoding of "Attention is all you need".
#pragma once

#include "model.h"
#include "tensor.h"
#include "tokenizer.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace neuralpath {

// One word's vector of length d_model.
//   Known word: its vocabulary features in the first F entries, zeros after them.
//   Unknown word: deterministic: entry k is uniform in [-0.5, 0.5), drawn from splitmix64
//   seeded with fnv1a64(key) XOR seed and advanced k+1 times. Same word + same seed = same
//   vector on every machine and in WebAssembly.
Vector word_embedding(const Vocabulary& vocabulary, std::string_view key, int d_model, std::uint64_t seed);
bool is_known_word(const Vocabulary& vocabulary, std::string_view key);

// The [T][d_model] matrix of token embeddings, row t = word_embedding(tokens[t].key).
Matrix embed_tokens(const Vocabulary& vocabulary, const std::vector<Token>& tokens, int d_model, std::uint64_t seed);

// PE[pos][2i] = sin(pos / 10000^(2i/d)), PE[pos][2i+1] = cos(pos / 10000^(2i/d)), shape [T][d].
Matrix positional_encoding(int tokens, int d_model);

// The hashing and random numbers behind every seeded default (exposed so tests and views can
// name them): FNV-1a 64-bit of the bytes, and one splitmix64 step.
std::uint64_t fnv1a64(std::string_view bytes);
std::uint64_t splitmix64(std::uint64_t& state);
float uniform_from(std::uint64_t& state, float low, float high);  // [low, high)

}  // namespace neuralpath
