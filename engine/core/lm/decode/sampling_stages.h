// sampling_stages.h: the next-token distribution on its way to a drawn token, one filter at a
// time, so a view can show each stage and the CLI can print it.
//
//   model        p_i = softmax(z)_i                               what the model says
//   temperature  p_i^(1/τ) / Σ_j p_j^(1/τ) = softmax(z/τ)_i        τ < 1 sharpens, τ > 1 flattens;
//                                                                  τ = 0 puts everything on the argmax
//   top-k        keep the k most likely, renormalise              (k = 0 keeps all)
//   top-p        keep the fewest most likely whose mass reaches p, renormalise (p = 1 keeps all)
//
// The filters run in that order. Temperature and top-k are reshape_distribution's (sampling.h),
// so with p = 1 every stage and every draw is exactly what `lm generate` has always done. A token
// is drawn by the inverse CDF: the first id whose running sum exceeds u, u uniform in [0, 1).
#pragma once

#include <cstdint>
#include <vector>

namespace neuralpath::lm {

struct SamplingSettings {
  float temperature = 0.8f;  // 0 .. 100
  int top_k = 40;            // 0 = off
  float top_p = 1.0f;        // (0, 1]; 1 = off
};

// Throws InputError for a temperature outside 0..100 (or not finite), top_k < 0, top_p outside (0, 1].
void validate_sampling(const SamplingSettings& settings);

struct SamplingStages {
  std::vector<float> model, temperature, top_k, top_p;  // [V] each; top_p is what is drawn from
  int kept_top_k = 0, kept_top_p = 0;                   // tokens with p > 0 after each filter
};

SamplingStages sampling_stages(const std::vector<float>& probabilities, const SamplingSettings& settings);

// Keeps the smallest set of most likely tokens whose probabilities sum to at least top_p (at
// least one token; ties in order of id), zeroes the rest and renormalises.
std::vector<float> apply_top_p(std::vector<float> p, float top_p);

// Inverse CDF: the first id k with p_0 + … + p_k > u; the most likely id if rounding leaves u
// beyond the sum. p must have some mass.
int draw_token(const std::vector<float>& p, double u);

// The uniform number in [0, 1) a 64-bit draw gives (its top 53 bits), as `lm generate` uses.
inline double unit_interval(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace neuralpath::lm
