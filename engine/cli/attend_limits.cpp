// attend_limits.cpp: see attend_limits.h. Checked outside the kernels (engine/core stays the
// plain maths), in double precision, so the verdict does not depend on the kernel's order of
// summation: naive and tiled accept and refuse exactly the same inputs.
#include "attend_limits.h"

#include "engine/core/error.h"

#include <cfloat>
#include <cmath>
#include <cstdio>

namespace neuralpath::cli {

namespace {

// A little under FLT_MAX: float32 rounding of a sum of up to d terms adds a relative error of
// about d·2^-24, which this margin (1e-3) covers for any d the size limits allow.
constexpr double kSafeMax = FLT_MAX * (1.0 - 1e-3);

std::string short_number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

std::string head_name(bool rank3, std::size_t h) { return rank3 ? "[" + std::to_string(h) + "]" : ""; }

}  // namespace

void check_attend_sizes(long long heads, long long tq, long long tk, bool naive) {
  // Tq, Tk <= 2^25 and H <= 2^25 here (the JSON input is at most 32 MiB), so no overflow.
  const long long cells = heads * tq * tk;
  const long long limit = naive ? kMaxNaiveWeights : kMaxTiledScores;
  if (cells <= limit) return;
  const std::string shape = std::to_string(heads) + " × " + std::to_string(tq) + " × " + std::to_string(tk);
  if (naive)
    throw InputError("the naive kernel would hold H × Tq × Tk = " + shape + " = " + std::to_string(cells) +
                     " attention weights; the limit is " + std::to_string(kMaxNaiveWeights) +
                     " (T = 2048 for one head); use \"kernel\": \"tiled\" for longer inputs");
  throw InputError("the tiled kernel would compute H × Tq × Tk = " + shape + " = " + std::to_string(cells) +
                   " scores; the limit is " + std::to_string(kMaxTiledScores) + " (T = 32768 for one head)");
}

void check_attend_range(const std::vector<Matrix>& q, const std::vector<Matrix>& k, const std::vector<Matrix>& v,
                        bool rank3) {
  for (std::size_t h = 0; h < q.size(); ++h) {
    const Matrix& qh = q[h];
    const Matrix& kh = k[h];
    // Cauchy–Schwarz: every partial sum of q_i[c]·k_j[c] is at most |q_i|·|k_j| in size,
    // so when the largest norms multiply to less than kSafeMax nothing can overflow (every
    // ordinary input stops here after O(T·d) work).
    const Eigen::VectorXd q_norm = qh.cast<double>().rowwise().norm();
    const Eigen::VectorXd k_norm = kh.cast<double>().rowwise().norm();
    if (q_norm.maxCoeff() * k_norm.maxCoeff() >= kSafeMax) {
      // Otherwise look at each pair the bound cannot clear: the largest partial sum in
      // any order is the sum of the positive products or of the negative ones.
      for (Index i = 0; i < qh.rows(); ++i) {
        if (q_norm(i) * k_norm.maxCoeff() < kSafeMax) continue;
        for (Index j = 0; j < kh.rows(); ++j) {
          if (q_norm(i) * k_norm(j) < kSafeMax) continue;
          double positive = 0, negative = 0;
          for (Index c = 0; c < qh.cols(); ++c) {
            const double term = static_cast<double>(qh(i, c)) * static_cast<double>(kh(j, c));
            (term > 0 ? positive : negative) += term;
          }
          if (positive >= kSafeMax || -negative >= kSafeMax)
            throw InputError("the score q" + head_name(rank3, h) + "[" + std::to_string(i) + "] · k" +
                             head_name(rank3, h) + "[" + std::to_string(j) + "] overflows float32 (its terms reach " +
                             short_number(std::max(positive, -negative)) +
                             "; the largest float32 is 3.4e38): scale q and k down");
        }
      }
    }
    // The output is a weighted sum of V's rows with weights in [0, 1].
    const Eigen::RowVectorXd column_sums = v[h].cast<double>().cwiseAbs().colwise().sum();
    for (Index c = 0; c < column_sums.size(); ++c)
      if (column_sums(c) >= kSafeMax)
        throw InputError("column " + std::to_string(c) + " of v" + head_name(rank3, h) + " sums to " +
                         short_number(column_sums(c)) +
                         " in size, which overflows float32 while the output is summed; scale v down");
  }
}

}  // namespace neuralpath::cli
