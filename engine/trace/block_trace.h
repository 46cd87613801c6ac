// block_trace.h: the whole transformer block, run forward on a sentence (engine/core/block.h),
// recorded as a Trace: its activations, and a step for each calculation with its title, its
// per-cell terms and a sentence of narration in the learner's language.
//
// Step order (every step in trace.h's StepKind, in this order):
//   tokens, embedding, positions,
//   context_layer ×C (one per context layer),
//   project_q, project_k, project_v,
//   per head h: score, scale, mask, softmax, blend,
//   concat_heads, output_projection, residual, layer_norm,
//   feed_forward, residual, layer_norm        (when the feed-forward is enabled),
//   next_token
// The shown layer always uses the naive kernel (the views need its weights); the tiled kernel
// gives the same numbers to 1e-5 and is for long sequences and the benchmark.
#pragma once

#include "engine/core/attention.h"
#include "engine/core/model.h"
#include "engine/core/tokenizer.h"
#include "engine/trace/trace.h"

#include <string_view>
#include <vector>

namespace neuralpath {

struct TraceOptions {
  Mask mask = Mask::causal_mask();  // for the context layers and the shown layer
  int focus_token = -1;             // query token the narration follows; -1 = the last token
  int max_term_tokens = 48;         // per-cell terms are recorded only when T <= this
};

// Throws InputError for an empty sentence, too many tokens, invalid UTF-8 or an inconsistent
// spec. `spec` need not be resolved (run_block resolves it).
Trace run_block(const ModelSpec& spec, std::string_view sentence, const TraceOptions& options = {});
Trace run_block(const ModelSpec& spec, const std::vector<Token>& tokens, const TraceOptions& options = {});

}  // namespace neuralpath
