// simd_attention.cpp: the tiled attention kernel (online softmax) on vectors of kLanes floats.
// Compiled once per instruction set into its own namespace (engine/core/CMakeLists.txt);
// attention_tiled() picks the widest one the CPU runs (simd_dispatch.cpp).
//
// [SECTION] Register tiles
// [SECTION] Micro-kernels: scores, blend
// [SECTION] Strips of queries
// [SECTION] Exp and peak probe (for tests and the benchmark)
//
// Layout, and why. A strip of kStrip queries is transposed into qt [dk][kStrip] (once, when it
// starts; "Strips of queries" below), so one vector holds the same coordinate of kLanes different
// queries. Then
//   - a score tile is a plain outer-product GEMM: broadcast k[j][c], multiply by qt[c][...];
//     keys need no packing, and the scores land as s [key][query];
//   - the softmax runs down the keys of each query, i.e. across rows of s: the running max,
//     the exps and the running sum are vertical vector operations, with no horizontal
//     reduction anywhere;
//   - the blend broadcasts one probability p[j][i] and multiplies it by v's row j, which is
//     already contiguous in the row-major input.
// The strip's output rows are the accumulator, so working memory is one score block, one small
// vector and the qt, running max and sum of a group of strips per thread, whatever T is.
#include "engine/core/simd_attention.h"
#include "engine/core/simd.h"

#define NP_STRINGIFY2(x) #x
#define NP_STRINGIFY(x) NP_STRINGIFY2(x)

namespace neuralpath::simd::NP_SIMD_NS {
namespace {

using Index = std::ptrdiff_t;

// [SECTION] Register tiles ---------------------------------------------------------------------
// The accumulators of a micro-tile live in vector registers for its whole inner loop: AVX-512
// has 32 of them, the others 16. A tile of Rk keys × kStripVectors vectors needs Rk·U
// accumulators plus U query vectors and one broadcast.

#if NP_SIMD_LANES >= 16
constexpr int kStripVectors = 2;  // query vectors per strip
constexpr int kKeyRows = 8;       // keys per score tile:   8 × 2 = 16 accumulators
constexpr int kOutRows = 4;       // output rows per blend tile
constexpr int kOutVectors = 4;    // output vectors per blend tile: 4 × 4 = 16 accumulators
#elif defined(__wasm_simd128__)
// WebAssembly has no FMA: V8 emits a multiply (pipes 0-1 of a Zen 4) and an add (pipes 2-3),
// and a broadcast from memory takes one of the add pipes' slots too. 4 keys × 2 vectors made
// 8 adds + 4 broadcasts per 8 multiply-adds; 2 keys × 4 vectors make 8 + 2 (perf, V8's code:
// the loop took 5.6 cycles where its 8 multiplies take 4).
constexpr int kStripVectors = 4;
constexpr int kKeyRows = 2;  // 2 × 4 = 8 accumulators
constexpr int kOutRows = 2;
constexpr int kOutVectors = 4;  // 2 × 4 = 8 accumulators, 2 broadcasts per key
#else
constexpr int kStripVectors = 2;
constexpr int kKeyRows = 4;  // 4 × 2 = 8 accumulators
constexpr int kOutRows = 4;
constexpr int kOutVectors = 2;  // 4 × 2 = 8 accumulators
#endif
constexpr int kStrip = kStripVectors * kLanes;  // query rows per strip

constexpr float kLog2e = 1.44269504088896341f;  // log2 e: e^x = 2^(x·log2 e)

inline Index min_index(Index a, Index b) { return a < b ? a : b; }

// [SECTION] Micro-kernels: scores, blend -------------------------------------------------------

// Scores of R keys (key .. key+R-1) against the strip, masked, into s_rows [R][kStrip]:
//   s[r][i] = Σ_c k[key+r][c] · qt[c][i]        (qt already holds q · scale · log2 e)
//   s[r][i] = -inf where the mask hides key+r from query first_query+i
// and each query's max over these keys folded into row_max.
// DK: the head width when the caller knows it at compile time (64, the lessons' and the bench's),
// else 0 and p.dk. A constant width makes k[r·dk + c] a fixed offset from one pointer: in
// WebAssembly, where V8 computes every address from 32-bit offsets, the runtime width cost 8
// address instructions per 8 multiply-adds in this loop (the hottest of the kernel).
template <int R, int DK>
inline void score_tile(const AttentionProblem& p, const float* qt, Index key, Index first_query, float* s_rows,
                       vf* row_max) {
  const Index dk = DK ? DK : p.dk;
  vf acc[R][kStripVectors];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int u = 0; u < kStripVectors; ++u) acc[r][u] = splat(0.0f);
  // k walks column c of the R key rows, q row c of qt: pointers that step, so that every load
  // is one of them plus a constant
  const float* k = p.k + key * dk;
  const float* q = qt;
  for (Index c = 0; c < dk; ++c, ++k, q += kStrip) {
    vf qv[kStripVectors];
#pragma GCC unroll 4
    for (int u = 0; u < kStripVectors; ++u) qv[u] = load(q + u * kLanes);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const vf kb = splat(k[r * dk]);
#pragma GCC unroll 4
      for (int u = 0; u < kStripVectors; ++u) acc[r][u] = madd(kb, qv[u], acc[r][u]);
    }
  }
  // the mask, before the softmax (only tiles it touches)
  const bool crosses_diagonal = p.causal && key + R - 1 > first_query;
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    if (p.padded_keys && p.padded_keys[key + r]) {
      for (int u = 0; u < kStripVectors; ++u) acc[r][u] = splat(kNegInf);
    } else if (crosses_diagonal) {  // causal: query i sees key j only if j <= i
      for (int u = 0; u < kStripVectors; ++u) {
        const vi query = iota() + static_cast<int>(first_query + u * kLanes);
        acc[r][u] = select(query < splat_int(static_cast<int>(key + r)), splat(kNegInf), acc[r][u]);
      }
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int u = 0; u < kStripVectors; ++u) {
      store(s_rows + r * kStrip + u * kLanes, acc[r][u]);
      row_max[u] = max(row_max[u], acc[r][u]);
    }
}

// pass 1 for one key block: scores of `keys` keys from key0 into s [keys][kStrip], their max per query
template <int DK>
inline void score_block(const AttentionProblem& p, const float* qt, Index key0, Index keys, Index first_query, float* s,
                        vf* block_max) {
  Index j = 0;
  for (; j + kKeyRows <= keys; j += kKeyRows)
    score_tile<kKeyRows, DK>(p, qt, key0 + j, first_query, s + j * kStrip, block_max);
  for (; j < keys; ++j) score_tile<1, DK>(p, qt, key0 + j, first_query, s + j * kStrip, block_max);
}

// Blend of R output rows × C vectors of columns starting at col, over `keys` keys from key0:
//   out[row+r][col..] = c[r] · out[row+r][col..] + Σ_j p[j][r] · v[key0+j][col..]
// (probs points at the strip's probabilities for these rows: probs[j·kStrip + r])
template <int R, int C>
inline void blend_tile(const AttentionProblem& p, const float* probs, const float* corr, Index keys, Index key0,
                       Index row, Index col) {
  vf acc[R][C];
  float* out = p.out + row * p.dv + col;
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    const vf c = splat(corr[r]);
#pragma GCC unroll 8
    for (int cc = 0; cc < C; ++cc) acc[r][cc] = load(out + r * p.dv + cc * kLanes) * c;
  }
  const float* v = p.v + key0 * p.dv + col;
  for (Index j = 0; j < keys; ++j, v += p.dv, probs += kStrip) {
    vf vv[C];
#pragma GCC unroll 8
    for (int cc = 0; cc < C; ++cc) vv[cc] = load(v + cc * kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const vf pb = splat(probs[r]);
#pragma GCC unroll 8
      for (int cc = 0; cc < C; ++cc) acc[r][cc] = madd(pb, vv[cc], acc[r][cc]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int cc = 0; cc < C; ++cc) store(out + r * p.dv + cc * kLanes, acc[r][cc]);
}

// The same blend for the last dv % kLanes columns, one float at a time.
inline void blend_scalar(const AttentionProblem& p, const float* probs, const float* corr, Index keys, Index key0,
                         Index row, Index rows, Index col) {
  for (Index r = 0; r < rows; ++r)
    for (Index cc = col; cc < p.dv; ++cc) {
      float acc = p.out[(row + r) * p.dv + cc] * corr[r];
      for (Index j = 0; j < keys; ++j) acc += probs[j * kStrip + r] * p.v[(key0 + j) * p.dv + cc];
      p.out[(row + r) * p.dv + cc] = acc;
    }
}

template <int C>
inline void blend_columns(const AttentionProblem& p, const float* probs, const float* corr, Index keys, Index key0,
                          Index row, Index rows, Index col) {
  Index r = 0;
  for (; r + kOutRows <= rows; r += kOutRows) blend_tile<kOutRows, C>(p, probs + r, corr + r, keys, key0, row + r, col);
  for (; r < rows; ++r) blend_tile<1, C>(p, probs + r, corr + r, keys, key0, row + r, col);
}

// out rows [row, row+rows) blended with the probabilities of keys [key0, key0+keys)
// Not inlined: inside strip_keys GCC keeps the exponentials' constants in registers across the
// blend, and with 16 accumulators the tile ran out of them, spilling a V vector and reloading it
// for every multiply-add (perf on Zen 5: the blend took 25% longer than the score loop, whose
// multiply-adds are as many). A call per key block costs nothing beside 8192 multiply-adds.
__attribute__((noinline)) void blend_block(const AttentionProblem& p, const float* probs, const float* corr, Index keys,
                                           Index key0, Index row, Index rows) {
  Index col = 0;
  for (; col + kOutVectors * kLanes <= p.dv; col += kOutVectors * kLanes)
    blend_columns<kOutVectors>(p, probs, corr, keys, key0, row, rows, col);
  for (; col + kLanes <= p.dv; col += kLanes) blend_columns<1>(p, probs, corr, keys, key0, row, rows, col);
  if (col < p.dv) blend_scalar(p, probs, corr, keys, key0, row, rows, col);
}

// [SECTION] Strips of queries ------------------------------------------------------------------
// The online softmax: for query i keep m_i (max score so far), l_i (Σ e^(s - m_i) so far) and
// out_i (Σ e^(s - m_i)·v so far). A block that raises the max to m_new rescales what was
// accumulated by c_i = e^(m_i - m_new), so at the end out_i / l_i = softmax(row i)·V exactly.
//
// Shapes: q [tq][dk], k [tk][dk], v [tk][dv], out [tq][dv]
//         per strip (n = kStrip queries from i0): qt [dk][n], m, l, c [n]
//         per key block (b = block keys from j0): s [b][n] (scores, then probabilities)
//
// Why groups and spans. Each strip reads every key's K and V row. While K and V fit in L2 that
// costs nothing; past it (T = 4096 at d = 64 is 2 MiB of K and V, a whole L2 of this project's
// AVX-512 Xeon) each strip streamed them from L3 again: 170 GFLOP/s at T = 2048, 159 at 4096,
// 144 at 8192 on one core. So a group of up to kGroupStrips strips walks the keys together, a
// span of kSpanBytes of K and V at a time: each strip takes the span's key blocks, then the next
// strip the same ones, still in L2. A strip still sees its keys in the same blocks, in the same
// order, so the output is exactly what one strip at a time gives.
//
// Each strip of the group keeps its queries transposed (qt) from its first span to its last:
// transposed again for every span, as before, pass 0 cost 2% of the time at T = 2048 (2 spans)
// and grew with T (AVX-512, one core, 8 spans at T = 8192). Their qt together stay under
// kGroupQtBytes, so wide heads walk in smaller groups.
constexpr Index kGroupStrips = 16;
constexpr Index kSpanBytes = Index{512} << 10;     // K and V rows of one span: half of a 1 MiB L2
constexpr Index kGroupQtBytes = Index{128} << 10;  // qt of every strip of a group (16 at d = 64)

Index group_strips(Index dk) {
  const Index fit = kGroupQtBytes / (dk * kStrip * static_cast<Index>(sizeof(float)));
  return fit < 1 ? 1 : fit > kGroupStrips ? kGroupStrips : fit;
}

struct Strip {
  Index i0 = 0, rows = 0, key_end = 0;
  float* qt = nullptr;  // [dk][kStrip] queries, transposed (pass 0)
  float* m = nullptr;   // [kStrip] running max
  float* l = nullptr;   // [kStrip] running sum
};

// pass 0: the strip's queries, scaled once, transposed           qt[c][i] = q[i0+i][c] · scale · log2 e
// log2 e puts the scores in base 2 (s·log2 e), so passes 2-3 take 2^x, the cheaper exp (simd.h):
// e^(s - m) = 2^(s·log2 e - m·log2 e). Running maxima m are in base 2 too.
// (rows past the end are zeros: their scores are finite and nobody reads their output)
Strip start_strip(const AttentionProblem& p, Index strip, float* qt, float* m, float* l) {
  Strip st;
  st.i0 = strip * kStrip;
  st.rows = min_index(kStrip, p.tq - st.i0);  // the last strip may be short
  // causal: the strip's last query sees keys up to itself; every later key is the future
  st.key_end = p.causal ? min_index(p.tk, st.i0 + st.rows) : p.tk;
  st.qt = qt;
  st.m = m;
  st.l = l;
  const float scale = p.scale * kLog2e;
  // Row by row of qt: its stores go one after the other and the strided reads of q hit lines
  // that stay in L1 (the other order wrote qt a float per 128-byte line: 3% of a causal T = 1024)
  const float* q = p.q + st.i0 * p.dk;
  for (Index c = 0; c < p.dk; ++c) {
    float* row = qt + c * kStrip;
    for (Index i = 0; i < st.rows; ++i) row[i] = q[i * p.dk + c] * scale;
    for (Index i = st.rows; i < kStrip; ++i) row[i] = 0.0f;
  }
  for (Index i = 0; i < kStrip; ++i) {
    m[i] = kNegInf;
    l[i] = 0.0f;
  }
  for (Index i = 0; i < st.rows * p.dv; ++i) p.out[st.i0 * p.dv + i] = 0.0f;
  return st;
}

// Passes 1-4 for keys [key_begin, key_end) of one strip (key_begin a multiple of the block).
inline __attribute__((always_inline)) void strip_keys(const AttentionProblem& p, const Strip& st, Index key_begin,
                                                      Index key_end, float* s, float* corr) {
  const Index i0 = st.i0, rows = st.rows;
  const float* qt = st.qt;
  float* m = st.m;
  float* l = st.l;

  for (Index j0 = key_begin; j0 < key_end; j0 += p.block) {
    const Index keys = min_index(p.block, key_end - j0);

    // pass 1: scores, scaled and masked, and each query's max over the block
    //                                                      s_ji = q_i·k_j·scale·log2 e (-inf if hidden)
    vf block_max[kStripVectors];
    for (int u = 0; u < kStripVectors; ++u) block_max[u] = splat(kNegInf);
    if (p.dk == 64)
      score_block<64>(p, qt, j0, keys, i0, s, block_max);
    else
      score_block<0>(p, qt, j0, keys, i0, s, block_max);

    // pass 2: new running max, and the rescale of what was accumulated   c_i = 2^(m_i - m_new)
    // The exps are taken against `shift` = m_new, or 0 while a query has seen no visible key
    // (its scores are all -inf then, and -inf - -inf would be NaN).
    vf shift[kStripVectors];
    for (int u = 0; u < kStripVectors; ++u) {
      const vf m_old = load(m + u * kLanes);
      const vf m_new = max(m_old, block_max[u]);
      shift[u] = zero_where(m_new == splat(kNegInf), m_new);
      store(corr + u * kLanes, exp2(m_old - shift[u]));  // 2^-inf = 0 on the first visible block
      store(m + u * kLanes, m_new);
    }

    // pass 3: probabilities and running sum       p_ji = 2^(s_ji - m_i),  l_i = c_i·l_i + Σ_j p_ji
    vf sum[kStripVectors];
    for (int u = 0; u < kStripVectors; ++u) sum[u] = splat(0.0f);
    for (Index jj = 0; jj < keys; ++jj)
#pragma GCC unroll 4
      for (int u = 0; u < kStripVectors; ++u) {
        float* sp = s + jj * kStrip + u * kLanes;
        const vf e = exp2(load(sp) - shift[u]);
        store(sp, e);
        sum[u] += e;
      }
    for (int u = 0; u < kStripVectors; ++u)
      store(l + u * kLanes, madd(load(corr + u * kLanes), load(l + u * kLanes), sum[u]));

    // pass 4: blend the values                    out_i = c_i·out_i + Σ_j p_ji·v_j
    blend_block(p, s, corr, keys, j0, i0, rows);
  }
}

// pass 5: normalise                                   out_i = out_i / l_i (0 if query i saw no key)
void finish_strip(const AttentionProblem& p, const Strip& st) {
  for (Index i = 0; i < st.rows; ++i) {
    const float inv = st.l[i] > 0.0f ? 1.0f / st.l[i] : 0.0f;
    float* out = p.out + (st.i0 + i) * p.dv;
    for (Index c = 0; c < p.dv; ++c) out[c] *= inv;
  }
}

std::size_t workspace_floats(Index dk, Index block) {
  // s [block][kStrip] + c [kStrip] + per strip of a group: qt [dk][kStrip], m, l [kStrip]
  return static_cast<std::size_t>((block + 1 + group_strips(dk) * (dk + 2)) * kStrip);
}

void run_strips(const AttentionProblem& p, Index first, Index count, float* workspace) {
  float* s = workspace;                // [block][kStrip]
  float* corr = s + p.block * kStrip;  // [kStrip]
  float* per_strip = corr + kStrip;    // qt, m, l of each strip of the group: [group][dk + 2][kStrip]
  const Index strip_floats = (p.dk + 2) * kStrip;
  const Index group_size = group_strips(p.dk);
  const Index row_bytes = (p.dk + p.dv) * static_cast<Index>(sizeof(float));
  const Index blocks = kSpanBytes / row_bytes / p.block;
  const Index span = (blocks > 1 ? blocks : 1) * p.block;  // whole key blocks

  Strip group[kGroupStrips];
  for (Index g0 = first; g0 < first + count; g0 += group_size) {
    const Index n = min_index(group_size, first + count - g0);
    const Index group_end = p.causal ? min_index(p.tk, (g0 + n) * kStrip) : p.tk;
    for (Index k0 = 0; k0 < group_end; k0 += span)
      for (Index g = 0; g < n; ++g) {
        // a strip starts on its first span and is normalised after its last, so its
        // output rows are zeroed and scaled while they are still in L1 (every strip
        // sees key 0: attention_tiled() refuses T = 0, so k0 = 0 always comes)
        if (k0 == 0) {
          float* mine = per_strip + g * strip_floats;
          group[g] = start_strip(p, g0 + g, mine, mine + p.dk * kStrip, mine + (p.dk + 1) * kStrip);
        }
        const Strip& st = group[g];
        if (k0 >= st.key_end) continue;
        const Index end = min_index(k0 + span, st.key_end);
        strip_keys(p, st, k0, end, s, corr);
        if (end == st.key_end) finish_strip(p, st);
      }
  }
}

// [SECTION] Exp and peak probe (for tests and the benchmark) -----------------------------------

void exp2_array(const float* in, float* out, Index n) {
  Index i = 0;
  for (; i + kLanes <= n; i += kLanes) store(out + i, exp2(load(in + i)));
  if (i < n) {  // the tail through a padded vector
    float buffer[kLanes] = {};
    for (Index t = i; t < n; ++t) buffer[t - i] = in[t];
    store(buffer, exp2(load(buffer)));
    for (Index t = i; t < n; ++t) out[t] = buffer[t - i];
  }
}

// Independent multiply-add chains, enough of them to cover the latency of the FMA (or of the
// multiply plus the add) on the pipes a core has: the most flops per second this width allows.
constexpr int kProbeChains = 12;

float peak_probe(long rounds) {
  vf acc[kProbeChains];
  for (int i = 0; i < kProbeChains; ++i) acc[i] = splat(1e-3f * static_cast<float>(i));
  const vf a = splat(0.9999999f), b = splat(1e-7f);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 16
    for (int i = 0; i < kProbeChains; ++i) acc[i] = madd(acc[i], a, b);
  float total = 0.0f;
  for (int i = 0; i < kProbeChains; ++i)
    for (int lane = 0; lane < kLanes; ++lane) total += acc[i][lane];
  return total;
}

}  // namespace

KernelVariant variant() {
#if defined(__FMA__)
  constexpr bool fma = true;
#else
  constexpr bool fma = false;
#endif
  return {NP_STRINGIFY(NP_SIMD_NS), kLanes, fma, kStrip, &workspace_floats, &run_strips, &exp2_array, &peak_probe,
          kProbeChains * kLanes * 2};
}

}  // namespace neuralpath::simd::NP_SIMD_NS
