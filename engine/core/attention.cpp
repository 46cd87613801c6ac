// attention.cpp: scaled dot-product attention, naive (for display) and tiled (online softmax).
//
// [SECTION] Masks
// [SECTION] Validation
// [SECTION] Naive kernel
// [SECTION] Tiled kernel
// [SECTION] Double-precision reference
#include "attention.h"

#include "error.h"
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

void validate_attention_inputs(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask) {
    auto shape = [](const Matrix& m) {
        return "[" + std::to_string(m.rows()) + "][" + std::to_string(m.cols()) + "]";
    };
    if (q.rows() == 0 || k.rows() == 0) throw InputError("attention needs at least one token (T = 0)");
    if (q.cols() == 0 || v.cols() == 0) throw InputError("attention needs vectors of width >= 1 (d = 0)");
    if (q.cols() != k.cols())
        throw InputError("q is " + shape(q) + " but k is " + shape(k) + ": q and k must share d");
    if (k.rows() != v.rows())
        throw InputError("k is " + shape(k) + " but v is " + shape(v) + ": k and v must share T");
    if (!mask.padded_keys.empty() && static_cast<Index>(mask.padded_keys.size()) != k.rows())
        throw InputError("the padding mask has " + std::to_string(mask.padded_keys.size()) +
                         " flags for " + std::to_string(k.rows()) + " keys");
    if (!q.allFinite() || !k.allFinite() || !v.allFinite())
        throw InputError("q, k and v must hold finite numbers (no NaN or infinity)");
}

std::size_t attention_naive_working_bytes(Index tq, Index tk) {
    return 4 * static_cast<std::size_t>(tq) * static_cast<std::size_t>(tk) * sizeof(float);
}

std::size_t attention_tiled_working_bytes(Index tq, Index tk, Index d_v, int block) {
    const auto bq = static_cast<std::size_t>(std::min<Index>(block, tq));
    const auto bk = static_cast<std::size_t>(std::min<Index>(block, tk));
    // scores/probabilities block + running max + running sum + correction + accumulator
    return (bq * bk + 3 * bq + bq * static_cast<std::size_t>(d_v)) * sizeof(float);
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
// The online softmax: for query row i keep m_i (the max score seen so far), l_i (the sum of
// exp(score - m_i) so far) and acc_i (the sum of exp(score - m_i)·v so far). When a new block
// raises the max to m_new, everything accumulated so far is rescaled by exp(m_i - m_new), so at
// the end acc_i / l_i equals softmax(row)·V exactly, without the row ever being stored whole.
//
// Shapes: q [Tq][dk], k [Tk][dk], v [Tk][dv], out [Tq][dv]
//         per query block (bq rows): m [bq], l [bq], acc [bq][dv]
//         per key block (bk rows):   s [bq][bk] (scores, then probabilities in place)

Matrix attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask, int block) {
    validate_attention_inputs(q, k, v, mask);
    if (block < 1) throw InputError("the tile block size must be at least 1");
    const Index tq = q.rows(), tk = k.rows(), dv = v.cols();
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));  // scale = 1/sqrt(d_k)
    const bool padding = !mask.padded_keys.empty();

    Matrix out(tq, dv);
    Matrix s(std::min<Index>(block, tq), std::min<Index>(block, tk));
    Matrix acc(s.rows(), dv);
    Vector m(s.rows()), l(s.rows()), correction(s.rows());

    for (Index i0 = 0; i0 < tq; i0 += block) {
        const Index bq = std::min<Index>(block, tq - i0);
        m.head(bq).setConstant(kNegInf);
        l.head(bq).setZero();
        acc.topRows(bq).setZero();

        for (Index j0 = 0; j0 < tk; j0 += block) {
            if (mask.causal && j0 > i0 + bq - 1) break;  // every later key is in every row's future
            const Index bk = std::min<Index>(block, tk - j0);
            auto sb = s.topLeftCorner(bq, bk);

            // pass 1: scores of this block, scaled once            s_ij = (q_i · k_j) * scale
            sb.noalias() = q.middleRows(i0, bq) * k.middleRows(j0, bk).transpose();
            sb *= scale;
            // pass 2: the mask (only blocks the mask touches)      s_ij = -inf where hidden
            const bool touches_diagonal = mask.causal && j0 + bk - 1 > i0;
            if (touches_diagonal || padding)
                for (Index i = 0; i < bq; ++i)
                    for (Index j = 0; j < bk; ++j)
                        if (mask.hides(i0 + i, j0 + j)) sb(i, j) = kNegInf;
            // pass 3: new running max; rescale what was accumulated  c_i = exp(m_i - m_new)
            bool empty_rows = false;
            for (Index i = 0; i < bq; ++i) {
                const float m_new = std::max(m(i), sb.row(i).maxCoeff());
                if (m_new == kNegInf) {  // nothing visible yet in this row: nothing to rescale
                    correction(i) = 1.0f;
                    empty_rows = true;
                    continue;
                }
                correction(i) = std::exp(m(i) - m_new);  // exp(-inf) = 0 on the first visible block
                m(i) = m_new;
            }
            // pass 4: probabilities relative to the running max      p_ij = exp(s_ij - m_i)
            // (vectorised exp; it maps -inf to a tiny positive number, so hidden keys and rows
            // with nothing visible yet are set to exactly 0 afterwards)
            sb = (sb.array().colwise() - m.head(bq).array()).exp();
            if (touches_diagonal || padding)
                for (Index i = 0; i < bq; ++i)
                    for (Index j = 0; j < bk; ++j)
                        if (mask.hides(i0 + i, j0 + j)) sb(i, j) = 0.0f;
            if (empty_rows)
                for (Index i = 0; i < bq; ++i)
                    if (m(i) == kNegInf) sb.row(i).setZero();
            // pass 5: running sum and running blend                 l = c·l + Σ_j p_ij,  acc = c·acc + P·V
            l.head(bq) = l.head(bq).cwiseProduct(correction.head(bq)) + sb.rowwise().sum();
            acc.topRows(bq) = correction.head(bq).asDiagonal() * acc.topRows(bq);
            acc.topRows(bq).noalias() += sb * v.middleRows(j0, bk);
        }
        // pass 6: normalise                                         out_i = acc_i / l_i (0 if l_i = 0)
        for (Index i = 0; i < bq; ++i) {
            if (l(i) > 0.0f) out.row(i0 + i) = acc.row(i) / l(i);
            else out.row(i0 + i).setZero();  // fully masked row: defined as zeros
        }
    }
    return out;
}

// [SECTION] Double-precision reference ---------------------------------------------------------

MatrixD attention_reference(const MatrixD& q, const MatrixD& k, const MatrixD& v, const Mask& mask,
                            MatrixD* weights) {
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
