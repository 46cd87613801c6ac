// attention.cpp: scaled dot-product attention, naive (for display) and tiled (online softmax).
//
// [SECTION] Masks
// [SECTION] Validation
// [SECTION] Naive kernel
// [SECTION] Tiled kernel
// [SECTION] Double-precision reference
#include "attention.h"

#include "error.h"
#include "simd_attention.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace neuralpath {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

// [SECTION] Masks ------------------------------------------------------------------------------

bool Mask::hides(Index query, Index key) const {
  if (causal && key > query) return true;  // the future: key j after query i
  return !padded_keys.empty() && padded_keys[static_cast<std::size_t>(key)];
}

std::string Mask::name() const {
  if (padded_keys.empty()) return causal ? "causal" : "none";
  return causal ? "causal+padding" : "padding";
}

Mask parse_mask(std::string_view name) {
  if (name == "none") return Mask::none();
  if (name == "causal") return Mask::causal_mask();
  throw InputError("unknown mask '" + std::string(name) + "' (expected \"causal\" or \"none\")");
}

Kernel parse_kernel(std::string_view name) {
  if (name == "naive") return Kernel::naive;
  if (name == "tiled") return Kernel::tiled;
  throw InputError("unknown kernel '" + std::string(name) + "' (expected \"naive\" or \"tiled\")");
}

const char* kernel_name(Kernel kernel) { return kernel == Kernel::naive ? "naive" : "tiled"; }

// [SECTION] Validation -------------------------------------------------------------------------

namespace {
// x·0 is 0 for a finite x and NaN for ±infinity or NaN, so one vectorised sum finds any entry
// that is not finite. (Eigen's allFinite() ran at ~3 ns an entry: 5% of the tiled kernel's time
// at T = 2048 went into checking its inputs.)
bool all_finite(const Matrix& m) { return !std::isnan((m.array() * 0.0f).sum()); }
}  // namespace

void validate_attention_inputs(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask) {
  auto shape = [](const Matrix& m) { return "[" + std::to_string(m.rows()) + "][" + std::to_string(m.cols()) + "]"; };
  if (q.rows() == 0 || k.rows() == 0) throw InputError("attention needs at least one token (T = 0)");
  if (q.cols() == 0 || v.cols() == 0) throw InputError("attention needs vectors of width >= 1 (d = 0)");
  if (q.cols() != k.cols()) throw InputError("q is " + shape(q) + " but k is " + shape(k) + ": q and k must share d");
  if (k.rows() != v.rows()) throw InputError("k is " + shape(k) + " but v is " + shape(v) + ": k and v must share T");
  if (!mask.padded_keys.empty() && static_cast<Index>(mask.padded_keys.size()) != k.rows())
    throw InputError("the padding mask has " + std::to_string(mask.padded_keys.size()) + " flags for " +
                     std::to_string(k.rows()) + " keys");
  if (!all_finite(q) || !all_finite(k) || !all_finite(v))
    throw InputError("q, k and v must hold finite numbers (no NaN or infinity)");
}

std::size_t attention_naive_working_bytes(Index tq, Index tk) {
  return 4 * static_cast<std::size_t>(tq) * static_cast<std::size_t>(tk) * sizeof(float);
}

// [SECTION] Naive kernel -----------------------------------------------------------------------
// Shapes: q [Tq][dk], k [Tk][dk], v [Tk][dv]; scores/scaled/masked/weights [Tq][Tk]; out [Tq][dv].

AttentionResult attention_naive(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask) {
  validate_attention_inputs(q, k, v, mask);
  AttentionResult r;
  r.scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));  // scale = 1/sqrt(d_k)

  // pass 1: every query · every key                         scores_ij = q_i · k_j
  r.scores.noalias() = q * k.transpose();
  // pass 2: scale once, so the spread does not grow with d_k  scaled_ij = scores_ij * scale
  r.scaled = r.scores * r.scale;
  // pass 3: the mask, BEFORE the softmax                       masked_ij = -inf where hidden
  r.masked = r.scaled;
  for (Index i = 0; i < r.masked.rows(); ++i)
    for (Index j = 0; j < r.masked.cols(); ++j)
      if (mask.hides(i, j)) r.masked(i, j) = kNegInf;
  // pass 4: each row to weights summing to 1 (a fully masked row -> zeros, see softmax.h)
  r.weights = softmax_rows(r.masked);
  // pass 5: blend the values                                   out_i = Σ_j w_ij v_j
  r.output.noalias() = r.weights * v;
  return r;
}

// [SECTION] Tiled kernel -----------------------------------------------------------------------
// The online softmax itself (passes, shapes, formulas) is in simd_attention.cpp; here the
// Eigen matrices become the plain row-major problem it works on, and the options pick its
// compilation and thread count.

namespace {

const simd::KernelVariant& variant_for(const TiledOptions& options) {
  if (options.isa.empty()) return simd::default_variant();
  if (const simd::KernelVariant* variant = simd::find_variant(options.isa.c_str())) return *variant;
  std::string known;
  for (const std::string& name : attention_tiled_isas()) known += (known.empty() ? "" : ", ") + name;
  throw InputError("instruction set '" + options.isa + "' is not available here (this CPU runs: " + known + ")");
}

// The problem as the kernel sees it. padded holds the padding flags as bytes (vector<bool>
// has no data pointer) and must outlive the problem.
simd::AttentionProblem make_problem(const Matrix& q, const Matrix& k, const Matrix& v, Matrix& out, const Mask& mask,
                                    const TiledOptions& options, std::vector<unsigned char>& padded) {
  if (options.block < 1) throw InputError("the tile block size must be at least 1");
  if (options.threads < 0) throw InputError("the thread count must be 0 (automatic) or more");
  padded.assign(mask.padded_keys.begin(), mask.padded_keys.end());
  simd::AttentionProblem p;
  p.q = q.data();
  p.k = k.data();
  p.v = v.data();
  p.out = out.data();
  p.tq = q.rows();
  p.tk = k.rows();
  p.dk = q.cols();
  p.dv = v.cols();
  p.causal = mask.causal;
  p.padded_keys = padded.empty() ? nullptr : padded.data();
  p.block = std::min<Index>(options.block, k.rows());        // a block longer than the keys holds nothing more
  p.scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));  // scale = 1/sqrt(d_k)
  return p;
}

}  // namespace

Matrix attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask,
                       const TiledOptions& options) {
  validate_attention_inputs(q, k, v, mask);
  const simd::KernelVariant& variant = variant_for(options);
  Matrix out(q.rows(), v.cols());
  std::vector<unsigned char> padded;
  const simd::AttentionProblem problem = make_problem(q, k, v, out, mask, options, padded);
  const int threads = options.threads > 0 ? options.threads : simd::default_threads(problem, variant);
  simd::run_attention(problem, variant, threads);
  return out;
}

Matrix attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask, int block) {
  TiledOptions options;
  options.block = block;
  return attention_tiled(q, k, v, mask, options);
}

std::vector<std::string> attention_tiled_isas() {
  std::vector<std::string> names;
  for (const simd::KernelVariant& variant : simd::available_variants()) names.emplace_back(variant.name);
  return names;
}

std::size_t attention_tiled_working_bytes(Index tq, Index tk, Index d_k, Index d_v, const Mask& mask,
                                          const TiledOptions& options) {
  const simd::KernelVariant& variant = variant_for(options);
  // Shapes only: no data is read, so empty matrices with the right sizes stand in.
  simd::AttentionProblem p;
  p.tq = tq;
  p.tk = tk;
  p.dk = d_k;
  p.dv = d_v;
  p.causal = mask.causal;
  p.block = std::clamp<Index>(options.block, 1, std::max<Index>(tk, 1));
  const int threads = options.threads > 0 ? options.threads : simd::default_threads(p, variant);
  const std::size_t padding_flags = mask.padded_keys.empty() ? 0 : static_cast<std::size_t>(tk);
  return simd::working_bytes(p, variant, threads) + padding_flags;
}

std::size_t attention_tiled_working_bytes(Index tq, Index tk, Index d_v, int block) {
  TiledOptions options;
  options.block = block;
  return attention_tiled_working_bytes(tq, tk, d_v, d_v, Mask::none(), options);
}

// [SECTION] Double-precision reference ---------------------------------------------------------

MatrixD attention_reference(const MatrixD& q, const MatrixD& k, const MatrixD& v, const Mask& mask, MatrixD* weights) {
  validate_attention_inputs(q.cast<float>(), k.cast<float>(), v.cast<float>(), mask);
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.cols()));
  MatrixD w = (q * k.transpose()) * scale;
  for (Index i = 0; i < w.rows(); ++i) {
    double max = -std::numeric_limits<double>::infinity();
    for (Index j = 0; j < w.cols(); ++j)
      if (!mask.hides(i, j)) max = std::max(max, w(i, j));
    double sum = 0.0;
    for (Index j = 0; j < w.cols(); ++j) {
      w(i, j) = mask.hides(i, j) ? 0.0 : std::exp(w(i, j) - max);
      sum += w(i, j);
    }
    if (sum > 0.0) w.row(i) /= sum;  // a fully masked row stays all zeros
  }
  if (weights) *weights = w;
  return w * v;
}

}  // namespace neuralpath
