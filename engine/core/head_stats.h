// head_stats.h: how differently the heads of one attention layer look, measured on a task.
//
// Two figures a lesson can state about trained heads (multi-head.md):
//   mass[h][r]   the mean weight head h's query row gives the answer, over the examples of
//                relation r: 1 = the head always points exactly at that relation's word.
//   divergence   how far apart the heads' rows are: the Jensen-Shannon divergence between two
//                heads' query rows, JS(p, q) = ½ KL(p ‖ m) + ½ KL(q ‖ m) with m = ½(p + q), in
//                bits (0 = the same row, 1 = rows with nothing in common), averaged over every
//                example and every pair of heads.
// A model's numbers come from the same forward pass training uses (training.h), so the figures
// are about exactly the weights the widgets show.
//
// And one weight of any layer's head taken apart (weight_parts), for the model view's
// explanations: the trace records per-cell terms for the shown layer only, while a context
// layer keeps its MultiHeadResult (Q, K and each head's scores and weights) and no terms.
#pragma once

#include "cell_terms.h"
#include "layers.h"
#include "training.h"

#include <string>
#include <vector>

namespace neuralpath {

struct HeadSpecialisation {
  std::vector<std::string> relations;               // names, as the task's TrainingSet has them
  std::vector<int> examples;                        // per relation: how many examples were measured
  std::vector<std::vector<float>> mass;             // [head][relation], each in [0, 1]
  std::vector<int> best_head;                       // per relation: the head with the most mass
  std::vector<std::vector<float>> pair_divergence;  // [head][head], bits, symmetric, 0 on the diagonal
  float divergence = 0.0f;                          // mean over examples and pairs h < k, bits
  std::vector<float> coverage;                      // per relation: share of examples where some
                                                    // head's row (itself excluded) peaks on the answer
};

// Jensen-Shannon divergence of two distributions over the same items, in bits.
float jensen_shannon_bits(const Vector& p, const Vector& q);

// The figures above for `model` (resolved) on `examples` of an answer task whose relation names
// are `relations`. Throws InputError when an example has no relation or no query.
HeadSpecialisation head_specialisation(const ModelSpec& model, const std::vector<Example>& examples,
                                       const std::vector<std::string>& relations, Objective objective);

// [SECTION] One weight taken apart ------------------------------------------------------------
//   s_ij = q_i,h · k_j,h             the head's columns of Q and K (d_head of them)
//   w_ij = exp(s_ij·scale − m_i) / Σ_j' exp(s_ij'·scale − m_i),  m_i = max_j' s_ij'·scale
struct WeightParts {
  CellTerms products;        // q_h[k]·k_h[k], one Term per column k; value = the score s_ij
  float scale = 0.0f;        // 1/√d_head
  float scaled = 0.0f;       // s_ij · scale (before the mask)
  bool masked = false;       // the mask hides this key: exp(−∞) = 0
  float exp_shifted = 0.0f;  // exp(s_ij·scale − m_i)
  float inv_sum = 0.0f;      // 1 / Σ_j' exp(s_ij'·scale − m_i) (0 for a row that sees nothing)
  float weight = 0.0f;       // the layer's own softmax result for the cell
};

// The parts of cell (row, col) of head `head` in a layer the naive kernel ran (every matrix
// kept). Throws InputError for a head or cell outside the layer.
WeightParts weight_parts(const MultiHeadResult& layer, int head, Cell cell);

}  // namespace neuralpath
