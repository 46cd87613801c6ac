// multi_head_cost.h: what one multi-head attention layer costs, counted from its shapes alone
// (the multi-head lesson's #cost section). Pure arithmetic, 64-bit counts: no run, no memory.
//
// Shapes (d = d_model, H = heads, d_head = d / H, T = tokens):
//   W_Q, W_K, W_V, W_O   [d][d] each, b_Q, b_K, b_V, b_O [d] each   (a head owns d_head columns)
//   Q, K, V = X·W + b    [T][d]          -> 3·T·d² multiplications
//   per head: Q_h·K_hᵀ   [T][T]          -> T²·d_head multiplications
//             w·V_h      [T][d_head]     -> T²·d_head multiplications
//   concat·W_O + b_O     [T][d]          -> T·d² multiplications
// Summed over heads, H·2·T²·d_head = 2·T²·d: nothing but the grid count depends on H.
#pragma once

#include <cstdint>
#include <vector>

namespace neuralpath {

struct MultiHeadCost {
  std::int64_t d_model = 0, heads = 0, d_head = 0, t = 0;
  // Parameters: 4·d² weights ("4 d_model²" in the lesson) + 4·d biases.
  std::uint64_t weights = 0, biases = 0, parameters = 0;
  // Multiplications (one multiply-add each; a FLOP count is twice these).
  std::uint64_t projection_mults = 0;  // 4·T·d²          Q, K, V and W_O
  std::uint64_t score_mults = 0;       // H·T²·d_head = T²·d   every head's Q_h·K_hᵀ
  std::uint64_t mix_mults = 0;         // H·T²·d_head = T²·d   every head's weights·V_h
  std::uint64_t total_mults = 0;       // 4·T·d² + 2·T²·d
  std::uint64_t flops = 0;             // 2 × total_mults (a multiply and an add)
  // What does grow with H: one T×T grid of weights per head, and the softmax's exponentials.
  std::uint64_t grid_cells = 0;  // H·T²
};

// True when `heads` cuts d_model into equal whole slices (1 <= heads <= d_model, d_model % heads == 0).
bool heads_divide(std::int64_t d_model, std::int64_t heads);

// The head counts that divide d_model, ascending (1 and d_model included).
std::vector<std::int64_t> head_counts(std::int64_t d_model);

// The divisor of d_model nearest to `heads` (the smaller one on a tie): where a head count
// that no longer divides lands when d_model changes.
std::int64_t nearest_head_count(std::int64_t d_model, std::int64_t heads);

// The sizes multi_head_cost() counts: every figure then stays far below 2^64.
inline constexpr std::int64_t kMaxCostDModel = 65536;
inline constexpr std::int64_t kMaxCostTokens = 1'000'000;

// The cost of one layer. Throws InputError when d_model is outside 1..kMaxCostDModel, t outside
// 1..kMaxCostTokens, or heads does not divide d_model (d_head = d_model / H must be whole).
MultiHeadCost multi_head_cost(std::int64_t d_model, std::int64_t heads, std::int64_t t);

}  // namespace neuralpath
