// sampling_stages.cpp: temperature, top-k and top-p stage by stage, and the draw (sampling_stages.h).
#include "engine/core/lm/decode/sampling_stages.h"

#include "engine/core/error.h"
#include "engine/core/lm/sampling.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace neuralpath::lm {

void validate_sampling(const SamplingSettings& s) {
  if (!(s.temperature >= 0.0f) || !std::isfinite(s.temperature) || s.temperature > 100.0f)
    throw InputError("the temperature must be a number from 0 to 100");
  if (s.top_k < 0) throw InputError("top-k must be 0 (all) or more");
  if (!(s.top_p > 0.0f) || !(s.top_p <= 1.0f)) throw InputError("top-p must be above 0 and at most 1");
}

namespace {
int count_kept(const std::vector<float>& p) {
  return static_cast<int>(std::count_if(p.begin(), p.end(), [](float x) { return x > 0.0f; }));
}
}  // namespace

std::vector<float> apply_top_p(std::vector<float> p, float top_p) {
  if (top_p >= 1.0f || p.empty()) return p;
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] > p[b]; });
  double mass = 0.0;
  std::size_t keep = 0;
  while (keep < order.size() && (keep == 0 || mass < top_p) && p[order[keep]] > 0.0f)
    mass += p[order[keep++]];                                            // most likely first, until Σ >= p
  for (std::size_t i = keep; i < order.size(); ++i) p[order[i]] = 0.0f;  // the tail is dropped
  for (float& x : p) x = static_cast<float>(x / mass);                   // renormalise
  return p;
}

SamplingStages sampling_stages(const std::vector<float>& probabilities, const SamplingSettings& s) {
  validate_sampling(s);
  SamplingStages out;
  out.model = probabilities;
  out.temperature = reshape_distribution(probabilities, s.temperature, 0);  // p^(1/τ) / Σ
  out.top_k = reshape_distribution(probabilities, s.temperature, s.top_k);  // then the k largest
  out.kept_top_k = count_kept(out.top_k);
  out.top_p = apply_top_p(out.top_k, s.top_p);  // then the nucleus
  out.kept_top_p = count_kept(out.top_p);
  return out;
}

int draw_token(const std::vector<float>& p, double u) {
  int pick = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());  // (rounding fallback)
  double acc = 0.0;
  for (std::size_t k = 0; k < p.size(); ++k) {  // inverse CDF
    if (p[k] <= 0.0f) continue;
    acc += p[k];
    if (u < acc) return static_cast<int>(k);
  }
  return pick;
}

}  // namespace neuralpath::lm
