// block.cpp: the block's forward pass (block.h has the formulas), every activation kept.
#include "block.h"

#include "embedding.h"
#include "error.h"

#include <string>

namespace neuralpath {

BlockActivations block_forward(const ModelSpec& spec, const std::vector<Token>& tokens, const Mask& mask) {
  if (tokens.empty()) throw InputError("the sentence has no tokens");
  if (static_cast<int>(tokens.size()) > kMaxTokens)
    throw InputError("the sentence has " + std::to_string(tokens.size()) + " tokens; the limit is " +
                     std::to_string(kMaxTokens));
  const int T = static_cast<int>(tokens.size());
  if (!mask.padded_keys.empty() && static_cast<int>(mask.padded_keys.size()) != T)
    throw InputError("the padding mask has " + std::to_string(mask.padded_keys.size()) + " flags for " +
                     std::to_string(T) + " tokens");
  const int d = spec.d_model;

  BlockActivations a;
  a.embeddings = embed_tokens(spec.vocabulary, tokens, d, spec.seed);  // e
  if (spec.positional_encoding) {
    a.positions = positional_encoding(T, d) * spec.positional_scale;  // s·PE
    a.input = a.embeddings + a.positions;                             // x_0 = e + s·PE
  } else {
    a.positions = Matrix::Zero(T, d);
    a.input = a.embeddings;
  }
  Matrix x = a.input;
  for (const AttentionLayer& layer : spec.context_layers) {  // x_c+1 = x_c + MultiHead_c(x_c)
    a.context_input.push_back(x);
    a.context.push_back(multi_head_attention(x, layer, mask));
    x += a.context.back().output;
  }
  a.shown_input = x;
  a.attention = multi_head_attention(x, spec.attention, mask);  // a = MultiHead(x)
  a.after_attention = x + a.attention.output;                   // r_1 = x + a
  a.norm_attention = layer_norm(a.after_attention, spec.norm_attention);
  a.output = a.norm_attention.output;  // h = LayerNorm_1(r_1)
  if (spec.feed_forward.enabled) {
    a.feed_forward = feed_forward(a.output, spec.feed_forward);  // FFN(h) = relu(h·W1 + b1)·W2 + b2
    a.after_feed_forward = a.output + a.feed_forward.output;     // r_2 = h + FFN(h)
    a.norm_feed_forward = layer_norm(a.after_feed_forward, spec.norm_feed_forward);
    a.output = a.norm_feed_forward.output;  // h = LayerNorm_2(r_2)
  }
  return a;
}

}  // namespace neuralpath
