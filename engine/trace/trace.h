// trace.h: the recorded forward pass. Views and the narrator read this; they never recompute.
//
// A Trace is the block's activations (engine/core/block.h) and an ordered list of Steps covering
// the whole block (block_trace.h has the order). Each step says what kind of calculation it is,
// which tokens/heads it touches, its inputs, its result matrix, its title and narration in the
// learner's language, and for each result cell the terms that produced it, e.g. for a score cell
// (i, j) the d_head products q_i[k]·k_j[k] whose sum is the cell.
#pragma once

#include "engine/core/attention.h"
#include "engine/core/block.h"
#include "engine/core/cell_terms.h"
#include "engine/core/layers.h"
#include "engine/core/tensor.h"
#include "engine/core/tokenizer.h"

#include <string>
#include <vector>

namespace neuralpath {

enum class StepKind {
  tokens,             // the sentence split into tokens (result: token ids as a [1][T] row of positions)
  embedding,          // token vectors from the vocabulary              result [T][d]
  positions,          // X = embedding + positional_scale * PE          result [T][d]
  context_layer,      // x = x + MultiHead(x) of one context layer      result [T][d]
  project_q,          // Q = X·W_Q                                      result [T][d]
  project_k,          // K = X·W_K
  project_v,          // V = X·W_V
  score,              // Q_h·K_hᵀ for one head                          result [T][T]
  scale,              // scores · (1/√d_head)
  mask,               // -∞ where the mask hides a key
  softmax,            // each row -> weights that sum to 1
  blend,              // weights · V_h: each token's new vector         result [T][d_head]
  concat_heads,       // heads side by side                             result [T][d]
  output_projection,  // concat · W_O
  residual,           // x + sublayer(x)
  layer_norm,         // LayerNorm per token
  feed_forward,       // relu(x·W1 + b1)·W2 + b2
  next_token,         // probabilities over the vocabulary              result [1][V]
};
const char* step_kind_name(StepKind kind);  // "score", "layer_norm", ... (JSON and tests use these)

struct NamedMatrix {
  std::string name;  // "Q (head 1)", "weights"
  Matrix values;
  std::vector<std::string> row_labels;  // usually the token texts
  std::vector<std::string> col_labels;  // token texts, feature names, or "0".."d-1"
};

struct Step {
  StepKind kind = StepKind::tokens;
  std::string title;        // "Scores, head 1"
  int layer = -1;           // -1 = the shown layer (or not layer-specific); k = context layer k
  int head = -1;            // -1 = all heads / not per-head
  std::vector<int> tokens;  // token indices this step is about (rows)
  std::vector<NamedMatrix> inputs;
  NamedMatrix result;
  std::vector<CellTerms> cell_terms;  // per result cell; empty when T > max_term_tokens
  std::string term_a, term_b;         // what Term::a and Term::b are, e.g. "q", "k"
  std::vector<Cell> masked_cells;     // cells set to -∞ (mask step) / 0 weight (softmax step)
  float scalar = 0.0f;                // the step's one constant, if any (scale = 1/√d_head)
  std::string scalar_name;            // "1/√16"
  Cell focus;                         // the cell the narration speaks about
  std::string narration;              // one plain sentence with the real numbers
};

// The activations (BlockActivations: embeddings, positions, input, context, shown_input,
// attention, norm_attention, feed_forward, norm_feed_forward, output) with what a view needs
// to show them: the tokens, the labels of rows and columns, the next token and the steps.
struct Trace : BlockActivations {
  std::vector<Token> tokens;
  std::vector<std::string> labels;          // token texts, one per row/column of every [T][..] matrix
  std::vector<std::string> feature_labels;  // d_model column names (vocabulary features, then "d5", ...)
  std::vector<bool> known;                  // per token: found in the vocabulary (else seeded)
  Mask mask;
  int d_model = 0, heads = 0, d_head = 0;
  int focus_token = 0;   // the query token the narration follows (default: last)
  NextTokenResult next;  // from output's last row

  std::vector<Step> steps;

  Matrix weights(int head) const;                    // shown layer's [T][T] weights of one head
  Vector spotlight(int query, int head = -1) const;  // row `query` of weights; -1 = mean over heads
};

}  // namespace neuralpath
