// head_stats.cpp: per-head attention mass per relation, and the divergence between heads.
#include "head_stats.h"

#include "error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace neuralpath {

namespace {
// KL(p ‖ m) in bits, skipping the items p gives nothing (0 · log 0 = 0).
double kl_bits(const Vector& p, const Vector& m) {
  double sum = 0.0;
  for (Index j = 0; j < p.size(); ++j)
    if (p(j) > 0.0f && m(j) > 0.0f) sum += p(j) * std::log2(static_cast<double>(p(j)) / m(j));
  return sum;
}
}  // namespace

float jensen_shannon_bits(const Vector& p, const Vector& q) {
  const Vector m = 0.5f * (p + q);                                       // m = ½(p + q)
  return static_cast<float>(0.5 * kl_bits(p, m) + 0.5 * kl_bits(q, m));  // ½KL(p‖m) + ½KL(q‖m)
}

HeadSpecialisation head_specialisation(const ModelSpec& model, const std::vector<Example>& examples,
                                       const std::vector<std::string>& relations, Objective objective) {
  const auto H = static_cast<std::size_t>(model.attention.heads), R = relations.size();
  HeadSpecialisation s;
  s.relations = relations;
  s.examples.assign(R, 0);
  s.mass.assign(H, std::vector<float>(R, 0.0f));
  s.pair_divergence.assign(H, std::vector<float>(H, 0.0f));
  s.coverage.assign(R, 0.0f);
  double divergence = 0.0;
  int pairs_seen = 0;
  for (const Example& e : examples) {
    if (e.relation < 0 || static_cast<std::size_t>(e.relation) >= R || e.query < 0)
      throw InputError("a measured example needs a query and one of the task's relations");
    const auto r = static_cast<std::size_t>(e.relation);
    const std::vector<Matrix> w = shown_head_weights(model, e, objective);  // one [T][T] per head
    ++s.examples[r];
    bool covered = false;
    for (std::size_t h = 0; h < H; ++h) {
      s.mass[h][r] += w[h](e.query, e.answer);
      Vector row = w[h].row(e.query).transpose();
      row(e.query) = -1.0f;  // the query looking at itself is not an answer
      Index best = 0;
      row.maxCoeff(&best);
      covered = covered || best == e.answer;
      for (std::size_t k = h + 1; k < H; ++k) {
        const float js = jensen_shannon_bits(w[h].row(e.query).transpose(), w[k].row(e.query).transpose());
        s.pair_divergence[h][k] += js;
        divergence += js;
        ++pairs_seen;
      }
    }
    s.coverage[r] += covered ? 1.0f : 0.0f;
  }
  for (std::size_t r = 0; r < R; ++r) {
    const float n = static_cast<float>(std::max(1, s.examples[r]));
    for (std::size_t h = 0; h < H; ++h) s.mass[h][r] /= n;
    s.coverage[r] /= n;
  }
  const float n = static_cast<float>(std::max<std::size_t>(1, examples.size()));
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t k = h + 1; k < H; ++k) s.pair_divergence[k][h] = s.pair_divergence[h][k] /= n;
  s.divergence = pairs_seen ? static_cast<float>(divergence / pairs_seen) : 0.0f;
  for (std::size_t r = 0; r < R; ++r) {
    std::size_t best = 0;
    for (std::size_t h = 1; h < H; ++h)
      if (s.mass[h][r] > s.mass[best][r]) best = h;
    s.best_head.push_back(static_cast<int>(best));
  }
  return s;
}

// [SECTION] One weight taken apart ------------------------------------------------------------

WeightParts weight_parts(const MultiHeadResult& layer, int head, Cell cell) {
  const int H = static_cast<int>(layer.heads.size());
  if (head < 0 || head >= H) throw InputError("weight_parts: no head " + std::to_string(head));
  const AttentionResult& a = layer.heads[static_cast<std::size_t>(head)];
  const auto T = static_cast<int>(a.weights.rows());
  if (cell.row < 0 || cell.row >= T || cell.col < 0 || cell.col >= a.weights.cols())
    throw InputError("weight_parts: no cell (" + std::to_string(cell.row) + ", " + std::to_string(cell.col) + ")");
  const Index dh = layer.q.cols() / H, first = dh * head;  // head h owns columns [h·d_head, (h+1)·d_head)
  WeightParts p;
  p.products = {cell, {}, a.scores(cell.row, cell.col)};  // s_ij = Σ_k q_i,h[k]·k_j,h[k]
  for (Index k = 0; k < dh; ++k)
    p.products.terms.push_back({static_cast<int>(k), layer.q(cell.row, first + k), layer.k(cell.col, first + k)});
  p.scale = a.scale;
  p.scaled = a.scaled(cell.row, cell.col);
  p.masked = std::isinf(a.masked(cell.row, cell.col));
  p.weight = a.weights(cell.row, cell.col);
  const float m = a.masked.row(cell.row).maxCoeff();                   // m_i, the row's largest
  if (std::isinf(m)) return p;                                         // a row that sees nothing
  const float sum = (a.masked.row(cell.row).array() - m).exp().sum();  // Σ_j' exp(s·scale − m_i)
  p.exp_shifted = p.masked ? 0.0f : std::exp(p.scaled - m);
  p.inv_sum = 1.0f / sum;
  return p;
}

}  // namespace neuralpath
