// simd.h: a vector of floats as wide as the instruction set a translation unit is compiled for,
// and the few operations the tiled attention kernel needs (load, store, max, fused multiply-add,
// exp), written once with GCC/Clang vector extensions.
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

namespace neuralpath::simd::NP_SIMD_NS {
namespace {

constexpr int kLanes = NP_SIMD_LANES;
typedef float vf __attribute__((vector_size(kLanes * sizeof(float))));  // kLanes floats
typedef int   vi __attribute__((vector_size(kLanes * sizeof(int))));    // kLanes ints (masks, bits)

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
inline vf   max(vf a, vf b) { return a > b ? a : b; }
inline vf   select(vi mask, vf yes, vf no) { return mask ? yes : no; }
inline vi   bits_of(vf x) { return __builtin_bit_cast(vi, x); }  // same bits, read as ints
inline vf   float_of(vi x) { return __builtin_bit_cast(vf, x); }
inline vi   iota() {  // {0, 1, 2, ...}
    vi v;
    for (int i = 0; i < kLanes; ++i) v[i] = i;
    return v;
}

// a·b + c. The kernel units compile with -ffp-contract=fast, so this is one FMA instruction
// where the instruction set has one (AVX2, AVX-512), a multiply and an add elsewhere.
inline vf madd(vf a, vf b, vf c) { return a * b + c; }

// e^x for x <= 0 (softmax arguments are always score - running max), branch-free.
//   e^x = 2^n · e^r   with n = round(x · log2 e) and r = x - n·ln 2, |r| <= ln2/2
//   e^r ≈ 1 + r + r²·P(r), P of degree 5 (the Cephes expf coefficients, ~1 ulp)
//   2^n is added straight into the exponent bits of e^r.
// x below -87 (including -inf, a masked score) gives exactly 0: e^-87 ≈ 1.6e-38 is already
// at the bottom of float's normal range, and a masked key must weigh exactly nothing.
inline vf exp(vf x) {
    const vf low = splat(-87.0f);
    const vi hidden = x < low;
    x = max(x, low);  // keeps -inf out of the arithmetic below (it would give NaN)
    // n = round(x·log2 e): adding 1.5·2^23 pushes the fraction bits out of the mantissa, so
    // the float t holds the rounded integer in its low mantissa bits.
    const vf magic = splat(12582912.0f);
    const vf t = madd(x, splat(1.44269504088896341f), magic);
    const vf n = t - magic;
    // r = x - n·ln 2, with ln 2 split in two so n·ln2_hi is exact
    vf r = madd(n, splat(-0.693359375f), x);
    r = madd(n, splat(2.12194440e-4f), r);
    vf p = splat(1.9875691500e-4f);
    p = madd(p, r, splat(1.3981999507e-3f));
    p = madd(p, r, splat(8.3334519073e-3f));
    p = madd(p, r, splat(4.1665795894e-2f));
    p = madd(p, r, splat(1.6666665459e-1f));
    p = madd(p, r, splat(5.0000001201e-1f));
    const vf er = madd(p, r * r, r + splat(1.0f));  // e^r
    const vi n_bits = (bits_of(t) - bits_of(magic)) << 23;
    return select(hidden, splat(0.0f), float_of(bits_of(er) + n_bits));  // e^r · 2^n
}

}  // namespace
}  // namespace neuralpath::simd::NP_SIMD_NS
