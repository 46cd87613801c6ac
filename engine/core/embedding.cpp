// embedding.cpp: token vectors (named features or seeded), and sinusoidal positions.
#include "embedding.h"

#include "error.h"

#include <cmath>
#include <string>

namespace neuralpath {

std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV offset basis
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;  // FNV prime
  }
  return hash;
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

float uniform_from(std::uint64_t& state, float low, float high) {
  // The top 24 bits give a float in [0, 1) exactly, identical on every platform.
  const float unit = static_cast<float>(splitmix64(state) >> 40) * (1.0f / 16777216.0f);
  return low + (high - low) * unit;
}

bool is_known_word(const Vocabulary& vocabulary, std::string_view key) {
  return vocabulary.words.find(key) != vocabulary.words.end();
}

Vector word_embedding(const Vocabulary& vocabulary, std::string_view key, int d_model, std::uint64_t seed) {
  if (d_model < 1) throw InputError("d_model must be at least 1");
  Vector e = Vector::Zero(d_model);
  if (const auto it = vocabulary.words.find(key); it != vocabulary.words.end()) {
    const std::vector<float>& features = it->second;
    if (static_cast<int>(features.size()) > d_model)
      throw InputError("the word '" + std::string(key) + "' has " + std::to_string(features.size()) +
                       " numbers but d_model is " + std::to_string(d_model));
    for (std::size_t k = 0; k < features.size(); ++k) e(static_cast<Index>(k)) = features[k];
    return e;
  }
  std::uint64_t state = fnv1a64(key) ^ seed;
  for (Index k = 0; k < d_model; ++k) e(k) = uniform_from(state, -0.5f, 0.5f);
  return e;
}

Matrix embed_tokens(const Vocabulary& vocabulary, const std::vector<Token>& tokens, int d_model, std::uint64_t seed) {
  Matrix x(static_cast<Index>(tokens.size()), d_model);
  for (std::size_t t = 0; t < tokens.size(); ++t)
    x.row(static_cast<Index>(t)) = word_embedding(vocabulary, tokens[t].key, d_model, seed).transpose();
  return x;
}

Matrix positional_encoding(int tokens, int d_model) {
  if (tokens < 0 || d_model < 1) throw InputError("positional encoding needs T >= 0 and d >= 1");
  Matrix pe(tokens, d_model);
  for (int pos = 0; pos < tokens; ++pos) {
    for (int i = 0; 2 * i < d_model; ++i) {
      // angle = pos / 10000^(2i/d); computed in double so long sentences stay accurate
      const double angle = pos / std::pow(10000.0, (2.0 * i) / d_model);
      pe(pos, 2 * i) = static_cast<float>(std::sin(angle));
      if (2 * i + 1 < d_model) pe(pos, 2 * i + 1) = static_cast<float>(std::cos(angle));
    }
  }
  return pe;
}

}  // namespace neuralpath
