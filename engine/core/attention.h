// attention.h: scaled dot-product attention, O = softmax(Q·Kᵀ / √d_k + M) · V.
//
// Shapes: Q [Tq][d_k], K [Tk][d_k], V [Tk][d_v]  ->  O [Tq][d_v], weights [Tq][Tk].
// scale = 1/sqrt(d_k) is applied exactly once, to the scores, before the mask.
//
// Masks (M above is 0 for a visible key and -infinity for a hidden one, added BEFORE the
// softmax; masking after the softmax would leave rows that no longer sum to 1):
//   none     every query sees every key (bidirectional, BERT-style)
//   causal   query i sees keys j <= i (GPT-style; top-left aligned when Tq != Tk, as
//            torch's scaled_dot_product_attention(is_causal=True))
//   padding  keys flagged in padded_keys are hidden from every query; combinable with causal
// A query that can see no key at all (fully masked row) gets weights of all zeros and an
// output row of zeros: a defined, finite result, never NaN (see softmax.h).
//
// Two kernels that agree to float precision (max abs diff <= 1e-5) for any shapes and block:
//   naive  materializes the [Tq][Tk] scores and weights; what the views show.
//   tiled  walks blocks of keys with a running max and running sum (the online softmax behind
//          FlashAttention); holds only [block][strip] scores at a time, never [Tq][Tk].
//          Vectorised by hand (simd_attention.cpp), compiled for several instruction sets and
//          picked at run time, with strips of queries shared among threads.
#pragma once

#include "tensor.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace neuralpath {

// [SECTION] Masks ------------------------------------------------------------------------------

struct Mask {
  bool causal = false;
  std::vector<bool> padded_keys;  // empty = no padding; else one flag per key, true = hidden

  static Mask none() { return {}; }
  static Mask causal_mask() { return {true, {}}; }
  static Mask padding(std::vector<bool> padded, bool causal_too = false) { return {causal_too, std::move(padded)}; }

  bool hides(Index query, Index key) const;  // true where M is -infinity
  std::string name() const;                  // "none", "causal", "padding", "causal+padding"
};

Mask parse_mask(std::string_view name);  // "none" | "causal" (InputError otherwise)

// [SECTION] Kernels ----------------------------------------------------------------------------

enum class Kernel { naive, tiled };
Kernel parse_kernel(std::string_view name);  // "naive" | "tiled" (InputError otherwise)
const char* kernel_name(Kernel kernel);

// Everything the naive kernel computes, for display. All [Tq][Tk] except output.
struct AttentionResult {
  Matrix scores;       // Q·Kᵀ                       (raw dot products)
  Matrix scaled;       // scores * scale             (before the mask)
  Matrix masked;       // scaled, -infinity where the mask hides a key
  Matrix weights;      // softmax of each masked row (zeros for a fully masked row)
  Matrix output;       // weights · V                [Tq][d_v]
  float scale = 0.0f;  // 1/sqrt(d_k)
};

// Throw InputError for empty T, d_k mismatch between Q and K, Tk mismatch between K and V,
// a padding mask of the wrong length, or non-finite numbers.
void validate_attention_inputs(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask);

AttentionResult attention_naive(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask);

inline constexpr int kDefaultBlock = 64;
// block: keys whose scores the tiled kernel holds at once (>= 1). Returns only O [Tq][d_v].
Matrix attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask, int block = kDefaultBlock);

// How the tiled kernel runs. The defaults pick the fastest: the widest instruction set the CPU
// has, and as many threads as the problem's size repays (always 1 in WebAssembly).
struct TiledOptions {
  int block = kDefaultBlock;  // keys whose scores are held at once (>= 1)
  int threads = 0;            // 0 = automatic; else exactly this many (capped by the work)
  std::string isa;            // "" = the best; else one of attention_tiled_isas()
};
Matrix attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask,
                       const TiledOptions& options);

// Instruction sets the tiled kernel has been compiled for that this CPU runs, fastest first:
// some of "avx512", "avx2", "sse2" on x86-64; "wasm128" in WebAssembly; "generic" elsewhere.
std::vector<std::string> attention_tiled_isas();

// Bytes of working memory each kernel holds besides its inputs and output (for the benchmark
// and the lesson on why tiling matters): naive ~ 4 [Tq][Tk] float matrices; tiled ~ per thread,
// a transposed strip of queries and one block of scores (the output is its own accumulator),
// whatever T is. The 4-argument form assumes d_k = d_v and the default options.
std::size_t attention_naive_working_bytes(Index tq, Index tk);
std::size_t attention_tiled_working_bytes(Index tq, Index tk, Index d_v, int block);
std::size_t attention_tiled_working_bytes(Index tq, Index tk, Index d_k, Index d_v, const Mask& mask,
                                          const TiledOptions& options);

// Double-precision naive attention, the reference that tests compare both kernels against.
MatrixD attention_reference(const MatrixD& q, const MatrixD& k, const MatrixD& v, const Mask& mask,
                            MatrixD* weights = nullptr);

}  // namespace neuralpath
