// model.h: the parameters of the transformer block a lesson shows, as plain data.
//
// A lesson (engine/lesson) fills a ModelSpec from its text; engine/core never parses lessons.
// Every matrix may be left EMPTY: resolve_model() then fills it with a documented seeded
// default of the right shape, so a lesson only writes the weights it wants to talk about.
//
// Shapes (d = d_model, F = vocabulary.feature_names.size(), V = number of vocabulary words):
//   embedding of a known word  [d]      its F named features, then zeros up to d
//   AttentionLayer w_q/w_k/w_v [d][d]   heads split the columns: head h owns d/heads of them
//   AttentionLayer w_o         [d][d]   output projection after the heads are concatenated
//   FeedForward w1 [d][hidden], b1 [hidden], w2 [hidden][d], b2 [d]   (ReLU between them)
//   LayerNormParams gamma, beta [d]
//   unembedding [V][d]                  row v scores vocabulary word v (map order)
//
// The forward pass (block.h) is, with x the [T][d] token vectors:
//   x = embed(tokens) + positional_scale * PE            (if positional_encoding)
//   for each context layer:  x = x + MultiHead(x)        (residual; no LayerNorm)
//   a = MultiHead_attention(x)                           <- the layer the spotlight shows
//   x = LayerNorm_1(x + a)                               (post-LN, as in "Attention is all you need")
//   x = LayerNorm_2(x + FeedForward(x))                  (if feed_forward.enabled)
//   p = softmax(unembedding · x_last / temperature)      next-token probabilities
//
// Why context layers exist: with ONE attention layer over static embeddings, the query of
// "it" and the keys of "animal"/"street" are identical in "...because it was too tired" and
// "...because it was too wide" (only the last word differs, and only "it"'s query and those
// keys decide where "it" looks), so the spotlight could never swing. One or more context
// layers run first and let "it" pick up "tired"/"wide" (bidirectional mask needed: the
// adjective comes after "it") before the layer the spotlight shows.
#pragma once

#include "tensor.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace neuralpath {

// [SECTION] Vocabulary -------------------------------------------------------------------------

// Words with readable feature dimensions ("animate", "place", ...). Keys are lower-case token
// keys as produced by tokenize() (punctuation tokens such as "." may be keys too). Each value
// has one number per feature name (missing trailing numbers count as 0; extra ones are an
// error). A word not in `words` gets a deterministic seeded embedding: see word_embedding().
struct Vocabulary {
  std::vector<std::string> feature_names;
  std::map<std::string, std::vector<float>, std::less<>> words;
};

// [SECTION] Layers -----------------------------------------------------------------------------

// Multi-head self-attention. heads must divide d_model. Empty matrices are seeded defaults:
// w_q, w_k, w_v uniform in ±sqrt(3/d_model) (variance 1/d_model); w_o the IDENTITY, so with one
// head the layer's output is exactly the blend the learner watched being made.
struct AttentionLayer {
  int heads = 1;
  Matrix w_q, w_k, w_v, w_o;
};

// Position-wise feed-forward: FFN(x) = relu(x·w1 + b1)·w2 + b2. hidden = 0 means 4·d_model.
// Empty w1/w2 are seeded uniform in ±sqrt(3/fan_in); empty b1/b2 are zeros.
struct FeedForward {
  bool enabled = true;
  int hidden = 0;
  Matrix w1, w2;
  Vector b1, b2;
};

// LayerNorm(x) = gamma ⊙ (x - mean(x)) / sqrt(var(x) + eps) + beta, per token (population
// variance, as PyTorch). Empty gamma = ones, empty beta = zeros.
struct LayerNormParams {
  Vector gamma, beta;
  float eps = 1e-5f;
};

// [SECTION] The whole block --------------------------------------------------------------------

struct ModelSpec {
  Vocabulary vocabulary;
  int d_model = 0;  // 0 = number of vocabulary features (at least 1)

  bool positional_encoding = true;  // add sinusoidal positions (positional_encoding())
  float positional_scale = 1.0f;    // PE is multiplied by this before it is added

  std::vector<AttentionLayer> context_layers;  // run first, each as x = x + MultiHead(x)
  AttentionLayer attention;                    // the layer the trace and spotlight show
  LayerNormParams norm_attention;              // LayerNorm after attention + residual
  FeedForward feed_forward;
  LayerNormParams norm_feed_forward;  // LayerNorm after feed-forward + residual

  // Next token over the vocabulary words (in map order). Empty = tied weights: row v is the
  // embedding of vocabulary word v (the usual weight tying of GPT-2).
  Matrix unembedding;
  float temperature = 1.0f;  // > 0; lower = sharper next-token distribution

  std::uint64_t seed = 42;  // every seeded default derives from this
};

// A documented default for `neuralpath-cli trace` without --lesson and for tests: eight readable
// features (animate, place, pronoun, action, describes_animate, describes_place, function_word,
// punctuation), about forty everyday words including "the animal didn't cross the street
// because it was too tired/wide", d_model 8, one hand-set context layer that lets a pronoun
// gather the adjectives around it, a shown layer (2 heads) whose head 1 sends "it" to the noun
// those adjectives describe and whose head 2 sends animate words to actions, positions at
// scale 0.1, seeded feed-forward, tied unembedding, seed 42. With mask "none", "it" attends
// to "animal" in "...because it was too tired." and to "street" in "...too wide.".
ModelSpec default_model_spec();

// The same spec with every empty matrix/vector filled with its documented default and d_model
// set. Throws InputError on inconsistent shapes (heads not dividing d_model, a matrix of the
// wrong size, a word with more numbers than features, temperature <= 0, non-finite numbers).
ModelSpec resolve_model(const ModelSpec& spec);

}  // namespace neuralpath
