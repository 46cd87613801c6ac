// simd.h: a vector of floats as wide as the instruction set a translation unit is compiled for,
// and the few operations the tiled attention kernel needs (load, store, max, fused multiply-add,
// 2^x), written once with GCC/Clang vector extensions.
//
// Included ONLY by translation units compiled once per instruction set (simd_attention.cpp,
// see engine/core/CMakeLists.txt), which define:
//   NP_SIMD_NS     the namespace of this compilation (avx512, avx2, sse2, wasm128, generic)
//   NP_SIMD_LANES  floats per vector (16, 8 or 4)
// Everything here has internal linkage (anonymous namespace): an inline function compiled with
// -mavx512f must never be merged by the linker with the copy another unit compiled for SSE2,
// or a plain CPU would run AVX-512 code. For the same reason these units include no Eigen and
// no standard-library templates.
#pragma once

#if !defined(NP_SIMD_NS) || !defined(NP_SIMD_LANES)
#error "simd.h is for the per-instruction-set kernel units (NP_SIMD_NS, NP_SIMD_LANES)"
#endif

#include <cstring>
#if NP_SIMD_LANES == 16 && defined(__AVX512F__)
#include <immintrin.h>  // vrndscaleps, vscalefps for exp2 (its functions are always inlined)
#endif

namespace neuralpath::simd::NP_SIMD_NS {
namespace {

constexpr int kLanes = NP_SIMD_LANES;
typedef float vf __attribute__((vector_size(kLanes * sizeof(float))));  // kLanes floats
typedef int vi __attribute__((vector_size(kLanes * sizeof(int))));      // kLanes ints (masks, bits)

constexpr float kNegInf = -__builtin_inff();

// x - 0 is x for every float (-0 included), so compilers fold the subtraction away and keep a
// single broadcast; vf{} + x would have to stay a real addition (0 + -0 is +0).
inline vf splat(float x) { return x - vf{}; }
inline vi splat_int(int x) { return x + vi{}; }
inline vf load(const float* p) {  // unaligned load (memcpy compiles to one vector move)
  vf v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, vf v) { std::memcpy(p, &v, sizeof v); }
inline vi bits_of(vf x) { return __builtin_bit_cast(vi, x); }  // same bits, read as ints
inline vf float_of(vi x) { return __builtin_bit_cast(vf, x); }
inline vf select(vi mask, vf yes, vf no) { return mask ? yes : no; }
inline vf zero_where(vi mask, vf x) { return float_of(bits_of(x) & ~mask); }  // select(mask, 0, x) in one op
#if defined(__wasm_simd128__)
// f32x4.pmax is one instruction (V8: vmaxps); the comparison and select that a > b ? a : b is
// otherwise compiled to take four. Same result here: the kernel's operands are never NaN.
inline vf max(vf a, vf b) { return __builtin_wasm_pmax_f32x4(a, b); }
#else
inline vf max(vf a, vf b) { return a > b ? a : b; }
#endif
inline vi iota() {  // {0, 1, 2, ...}
  vi v;
  for (int i = 0; i < kLanes; ++i) v[i] = i;
  return v;
}

// a·b + c. The kernel units compile with -ffp-contract=fast, so this is one FMA instruction
// where the instruction set has one (AVX2, AVX-512), a multiply and an add elsewhere.
inline vf madd(vf a, vf b, vf c) { return a * b + c; }

// 2^x for x <= 0, branch-free. The kernel works in base 2: it folds log2 e into the query scale,
// so its scores are s·log2 e and e^(s - m) = 2^(s·log2 e - m·log2 e). Base 2 needs no range
// reduction by ln 2 (two multiply-adds) and no separate e^r = 1 + r + r²·P(r) assembly (three
// more): 5 multiply-adds where e^x took 10, and on a 64-wide head one exp comes per 128
// multiply-adds of the two matrix products.
//   2^x = 2^n · 2^f   with n = round(x) and f = x - n in [-1/2, 1/2]
//   2^f ≈ P(f), degree 5, fitted for the least relative error on [-1/2, 1/2] (7.7e-8; 2.3e-7
//         evaluated in float)
//   2^n is added straight into the exponent bits of P(f).
// x below -126 (including -inf, a masked score) gives exactly 0: 2^-126 ≈ 1.2e-38 is the bottom of
// float's normal range, and a masked key must weigh exactly nothing.
inline vf exp2_fraction(vf f) {  // P(f) ≈ 2^f on [-1/2, 1/2], by Horner's rule
  vf p = splat(1.3266974129e-3f);
  p = madd(p, f, splat(9.6754627302e-3f));
  p = madd(p, f, splat(5.5507425219e-2f));
  p = madd(p, f, splat(2.4022121727e-1f));
  p = madd(p, f, splat(6.9314694405e-1f));
  return madd(p, f, splat(1.0f));
}
inline vf exp2(vf x) {
  const vf low = splat(-126.0f);
#if NP_SIMD_LANES == 16 && defined(__AVX512F__)
  // AVX-512 has the rounding and the scaling by 2^n as one instruction each, and its mask
  // register zeroes the hidden lanes inside the scaling (their NaNs from -inf go with them):
  // 9 operations where the portable code below takes 13 (perf: 2^x was 7% of the kernel's time).
  const __mmask16 visible = _mm512_cmp_ps_mask(static_cast<__m512>(x), static_cast<__m512>(low), _CMP_GE_OQ);
  const vf n =
      static_cast<vf>(_mm512_roundscale_ps(static_cast<__m512>(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  const vf f = x - n;
  const vf p = exp2_fraction(f);
  return static_cast<vf>(_mm512_maskz_scalef_ps(visible, static_cast<__m512>(p), static_cast<__m512>(n)));
#else
  const vi hidden = x < low;
  x = max(x, low);  // keeps -inf out of the arithmetic below (it would give NaN)
  // n = round(x): adding 1.5·2^23 pushes the fraction bits out of the mantissa, so the float t
  // holds the rounded integer in its low mantissa bits.
  const vf magic = splat(12582912.0f);
  const vf t = x + magic;
  const vf n = t - magic;
  const vf f = x - n;  // exact
  const vf p = exp2_fraction(f);
  const vi n_bits = (bits_of(t) - bits_of(magic)) << 23;
  return zero_where(hidden, float_of(bits_of(p) + n_bits));  // 2^f · 2^n
#endif
}

}  // namespace
}  // namespace neuralpath::simd::NP_SIMD_NS
