// attend_limits.h: what `neuralpath-cli attend` refuses before it runs a kernel (exit 2).
//
// Both kernels compute in float32. Rather than let one print null and the other zeros when a
// number overflows, attend refuses, up front and for both kernels, inputs whose arithmetic
// could leave float32's range, and sizes that would not fit in memory:
//
//   stdin                 at most kMaxAttendInputBytes of JSON
//   naive kernel          H × Tq × Tk <= kMaxNaiveWeights   (it holds four [Tq][Tk] matrices)
//   tiled kernel          H × Tq × Tk <= kMaxTiledScores    (it computes every score once)
//   scores  q_i · k_j     every partial sum of the products q_i[c]·k_j[c], in any order,
//                         stays within ±FLT_MAX (naive forms Q·Kᵀ unscaled)
//   output  sum_j |v_j|   per column of V, within FLT_MAX (tiled sums exp(s - max)·v_j, each
//                         factor <= 1, before dividing by the softmax denominator)
#pragma once

#include "engine/core/tensor.h"

#include <cstddef>
#include <string>
#include <vector>

namespace neuralpath::cli {

inline constexpr std::size_t kMaxAttendInputBytes = 32u << 20;  // 32 MiB of JSON
inline constexpr long long kMaxNaiveWeights = 1LL << 22;        // e.g. T = 2048, one head
inline constexpr long long kMaxTiledScores = 1LL << 30;         // e.g. T = 32768, one head

// Throws InputError naming the limit when H heads of Tq queries and Tk keys are too many.
void check_attend_sizes(long long heads, long long tq, long long tk, bool naive);

// Throws InputError naming the first head, query and key (or V column) whose float32
// arithmetic could overflow. `rank3` only changes how the cell is named ("[h]" or not).
void check_attend_range(const std::vector<Matrix>& q, const std::vector<Matrix>& k, const std::vector<Matrix>& v,
                        bool rank3);

}  // namespace neuralpath::cli
