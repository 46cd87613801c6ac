// multi_head_cost.cpp: the multi-head layer's parameters and multiplications from its shapes
// (multi_head_cost.h). Each line names the lesson's term it counts.
#include "multi_head_cost.h"

#include "error.h"

#include <string>

namespace neuralpath {

// The limits keep every count far below 2^64 ≈ 1.8·10¹⁹: the FLOPs, 2·(4·T·d² + 2·T²·d), are at
// most about 2.6·10¹⁷ at T = 10⁶ and d_model = 65,536.
static_assert(kMaxCostDModel == 65536 && kMaxCostTokens == 1'000'000, "recheck the 64-bit bound above");

bool heads_divide(std::int64_t d_model, std::int64_t heads) {
  return d_model >= 1 && heads >= 1 && heads <= d_model && d_model % heads == 0;
}

std::vector<std::int64_t> head_counts(std::int64_t d_model) {
  std::vector<std::int64_t> small, large;  // divisors below √d, and their partners above it
  for (std::int64_t h = 1; h * h <= d_model; ++h)
    if (d_model % h == 0) {
      small.push_back(h);
      if (h * h != d_model) large.push_back(d_model / h);
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

std::int64_t nearest_head_count(std::int64_t d_model, std::int64_t heads) {
  std::int64_t best = 1;
  for (std::int64_t h : head_counts(d_model)) {
    const std::int64_t gap = h > heads ? h - heads : heads - h;
    const std::int64_t best_gap = best > heads ? best - heads : heads - best;
    if (gap < best_gap) best = h;  // ascending order: a tie keeps the smaller
  }
  return best;
}

MultiHeadCost multi_head_cost(std::int64_t d_model, std::int64_t heads, std::int64_t t) {
  if (d_model < 1 || d_model > kMaxCostDModel)
    throw InputError("d_model must be from 1 to " + std::to_string(kMaxCostDModel));
  if (t < 1 || t > kMaxCostTokens) throw InputError("T must be from 1 to " + std::to_string(kMaxCostTokens));
  if (!heads_divide(d_model, heads))
    throw InputError(std::to_string(heads) + " heads do not divide d_model = " + std::to_string(d_model));
  MultiHeadCost c;
  c.d_model = d_model;
  c.heads = heads;
  c.d_head = d_model / heads;  // d_head = d_model / H
  c.t = t;
  const auto d = static_cast<std::uint64_t>(d_model);
  const auto T = static_cast<std::uint64_t>(t);
  const auto H = static_cast<std::uint64_t>(heads);
  const auto dh = static_cast<std::uint64_t>(c.d_head);
  c.weights = 4 * d * d;  // W_Q, W_K, W_V, W_O: 4 d_model², whatever H is
  c.biases = 4 * d;       // b_Q, b_K, b_V, b_O
  c.parameters = c.weights + c.biases;
  c.projection_mults = 4 * T * d * d;  // X·W_Q, X·W_K, X·W_V, concat·W_O: 4 T d_model²
  c.score_mults = H * (T * T * dh);    // Σ_h Q_h·K_hᵀ: H · T² d_head = T² d_model
  c.mix_mults = H * (T * T * dh);      // Σ_h w_h·V_h:  H · T² d_head = T² d_model
  c.total_mults = c.projection_mults + c.score_mults + c.mix_mults;  // 4 T d² + 2 T² d
  c.flops = 2 * c.total_mults;
  c.grid_cells = H * T * T;  // H grids of T × T weights: the one count H multiplies
  return c;
}

}  // namespace neuralpath
