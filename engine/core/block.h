// block.h: the whole transformer block run forward on a sentence, as maths: every activation
// the forward pass makes, kept for what reads them (the trace, engine/trace/block_trace.h, turns
// them into steps with titles and narration; training's backward, training.cpp, walks back
// through them).
//
//   x_0 = e + s·PE                          embeddings plus scaled positions     [T][d]
//   x_c+1 = x_c + MultiHead_c(x_c)          each context layer
//   a = MultiHead(x), r_1 = x + a           the shown layer (naive kernel: every matrix kept)
//   h = LayerNorm_1(r_1)
//   r_2 = h + FFN(h), h = LayerNorm_2(r_2)  when the feed-forward is enabled
//   output = h
#pragma once

#include "attention.h"
#include "layers.h"
#include "model.h"
#include "tensor.h"
#include "tokenizer.h"

#include <vector>

namespace neuralpath {

struct BlockActivations {
  Matrix embeddings;                     // [T][d] e: the tokens' vectors, before positions
  Matrix positions;                      // [T][d] s·PE, the positions added (zero without them)
  Matrix input;                          // [T][d] x_0: what the first layer sees
  std::vector<Matrix> context_input;     // x_c before each context layer
  std::vector<MultiHeadResult> context;  // one per context layer
  Matrix shown_input;                    // [T][d] x: what the shown layer sees
  MultiHeadResult attention;             // a: the shown layer
  Matrix after_attention;                // r_1 = x + a
  LayerNormResult norm_attention;        // LayerNorm_1(r_1)
  FeedForwardResult feed_forward;        // FFN(h) (feed-forward enabled)
  Matrix after_feed_forward;             // r_2 = h + FFN(h)
  LayerNormResult norm_feed_forward;     // LayerNorm_2(r_2)
  Matrix output;                         // [T][d] the block's output
};

// The forward pass of `spec` (resolved: resolve_model) on `tokens` under `mask`. Throws
// InputError for no tokens, more than kMaxTokens, or a padding mask of another length.
BlockActivations block_forward(const ModelSpec& spec, const std::vector<Token>& tokens, const Mask& mask);

}  // namespace neuralpath
