// attend_grad.h: `attend` with "grad_output": the attention backward for the kernel asked.
#pragma once

#include "json_io.h"

#include "engine/core/attention.h"

#include <vector>

namespace neuralpath::cli {

// When `in` has "grad_output" (shaped like the output: [T][d_v] or [H][T][d_v]), adds "grad_q",
// "grad_k" and "grad_v" (shaped like q, k, v) to `out`. The naive kernel back-propagates
// through its stored weights; the tiled one recomputes them tile by tile from each row's
// log-sum-exp (engine/core/backward.h). Throws InputError for a mis-shaped grad_output.
void add_attention_gradients(const Json& in, const std::vector<Matrix>& q, const std::vector<Matrix>& k,
                             const std::vector<Matrix>& v, const Mask& mask, Kernel kernel, int block, bool rank3,
                             Json& out);

}  // namespace neuralpath::cli
