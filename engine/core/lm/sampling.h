// sampling.h: writing text with the model, one token at a time.
//
// The prompt is encoded after a document token (as every training document began), then each
// step takes the next-token probabilities over the last `context` tokens, reshapes them and
// draws one token: temperature τ divides the logits (τ = 0 takes the most likely token), top-k
// keeps the k most likely and renormalises (0 keeps all). Drawing uses our own seeded generator,
// so a seed gives the same text on every machine with the same weights. Generation stops after
// `tokens` tokens or when the model writes the document token (the end of a document). A prompt
// ending in one space is healed: the space is not encoded, and the first token drawn is one that
// starts with a space (sampling.cpp says why).
#pragma once

#include "engine/core/lm/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lm {

struct SampleOptions {
  int tokens = 60;
  float temperature = 0.8f;
  int top_k = 40;
  std::uint64_t seed = 1;
};

struct Generation {
  std::string text;         // the prompt followed by what the model wrote
  std::vector<int> tokens;  // the ids the model wrote
  bool ended = false;       // it wrote the document token
};

// Throws InputError for tokens outside 0..4096, a negative or non-finite temperature, top_k < 0.
Generation generate(const LmModel& model, std::string_view prompt, const SampleOptions& options);

// The probabilities after temperature and top-k (what generate draws from), for the views.
std::vector<float> reshape_distribution(std::vector<float> probabilities, float temperature, int top_k);

}  // namespace neuralpath::lm
