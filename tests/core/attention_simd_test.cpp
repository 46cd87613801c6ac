// attention_simd_test.cpp: every compilation of the tiled kernel this CPU runs (AVX-512, AVX2,
// SSE2, ...) and its threaded path agree with the naive kernel; the vector 2^x is accurate.
#include "helpers.h"

#include "engine/core/attention.h"
#include "engine/core/error.h"
#include "engine/core/simd_attention.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace neuralpath;
using neuralpath::test::max_abs_diff;
using neuralpath::test::random_matrix;

namespace {

Mask padding_mask(std::mt19937& rng, Index keys, bool causal) {
  std::vector<bool> flags(static_cast<std::size_t>(keys));
  for (auto&& flag : flags) flag = rng() % 3 == 0;  // about a third of the keys hidden
  return Mask::padding(std::move(flags), causal);
}

TiledOptions options_for(const std::string& isa, int block, int threads) {
  TiledOptions options;
  options.isa = isa;
  options.block = block;
  options.threads = threads;
  return options;
}

}  // namespace

TEST_CASE("the instruction sets listed are the ones the kernel runs, best first, never none") {
  const std::vector<std::string> isas = attention_tiled_isas();
  REQUIRE(!isas.empty());
  CHECK(isas.front() == simd::available_variants().front().name);
  for (const std::string& isa : isas) CHECK(simd::find_variant(isa.c_str()) != nullptr);
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
  CHECK(isas.back() == "sse2");  // every x86-64 CPU has it: the fallback is always there
#endif
  std::printf("tiled kernel instruction sets here:");
  for (const std::string& isa : isas) std::printf(" %s", isa.c_str());
  std::printf("\n");
}

TEST_CASE("every instruction set's tiled kernel equals naive within 1e-5 (d = 64 and odd shapes)" *
          doctest::test_suite("slow")) {
  std::mt19937 rng(12);
  for (const std::string& isa : attention_tiled_isas()) {
    float worst = 0.0f;
    for (const Index T : {1, 17, 100, 257}) {
      // d_v = 64: whole register tiles; 20: one tile, one vector and a scalar tail; 3: scalar only
      for (const auto& [dk, dv] : {std::pair<Index, Index>{64, 64}, {5, 20}, {64, 3}}) {
        for (const int block : {1, 7, 64, 300}) {
          for (int m = 0; m < 4; ++m) {
            const Mask mask = m < 2 ? (m ? Mask::causal_mask() : Mask::none()) : padding_mask(rng, T, m == 3);
            const Matrix q = random_matrix(rng, T, dk), k = random_matrix(rng, T, dk);
            const Matrix v = random_matrix(rng, T, dv);
            const Matrix naive = attention_naive(q, k, v, mask).output;
            const Matrix tiled = attention_tiled(q, k, v, mask, options_for(isa, block, 1));
            REQUIRE(tiled.allFinite());
            const float diff = max_abs_diff(naive, tiled);
            if (diff > 1e-5f)
              CHECK_MESSAGE(diff <= 1e-5f, isa << " T=" << T << " dk=" << dk << " dv=" << dv << " block=" << block
                                               << " mask=" << mask.name());
            worst = std::max(worst, diff);
          }
        }
      }
    }
    std::printf("%s vs naive: max abs diff %.3g\n", isa.c_str(), static_cast<double>(worst));
    CHECK(worst <= 1e-5f);
  }
}

TEST_CASE("queries and keys of different lengths: every instruction set matches the reference") {
  std::mt19937 rng(5);
  const Matrix q = random_matrix(rng, 40, 64), k = random_matrix(rng, 70, 64), v = random_matrix(rng, 70, 64);
  for (const std::string& isa : attention_tiled_isas())
    for (const Mask& mask : {Mask::none(), Mask::causal_mask()}) {
      const Matrix ref = attention_reference(q.cast<double>(), k.cast<double>(), v.cast<double>(), mask).cast<float>();
      CHECK(max_abs_diff(attention_tiled(q, k, v, mask, options_for(isa, 16, 1)), ref) <= 1e-5f);
    }
}

TEST_CASE("long inputs walked in groups of strips and spans of keys still equal naive, bit for bit across threads" *
          doctest::test_suite("slow")) {
  // The kernel keeps a span of K and V rows (512 KiB) in cache for a group of up to 16 strips,
  // whose transposed queries stay under 128 KiB. Wide heads (d = 512: 4 KiB of K and V a key)
  // make a span 128 keys, a few blocks, and groups of 2-8 strips, so these cross many spans
  // and groups, with blocks that do and do not divide the span.
  std::mt19937 rng(33);
  const Index T = 1100, d = 512;
  const Matrix q = random_matrix(rng, T, d), k = random_matrix(rng, T, d), v = random_matrix(rng, T, d);
  for (const Mask& mask : {Mask::none(), Mask::causal_mask(), padding_mask(rng, T, true)}) {
    const Matrix naive = attention_naive(q, k, v, mask).output;
    for (const std::string& isa : attention_tiled_isas())
      for (const int block : {64, 48}) {
        const Matrix one = attention_tiled(q, k, v, mask, options_for(isa, block, 1));
        CHECK_MESSAGE(max_abs_diff(one, naive) <= 1e-5f, isa << " block=" << block << " mask=" << mask.name());
        CHECK_MESSAGE(attention_tiled(q, k, v, mask, options_for(isa, block, 2)) == one,
                      isa << " block=" << block << " mask=" << mask.name());
      }
  }
}

TEST_CASE("threads split the query strips and change no number" * doctest::test_suite("slow")) {
  // Strips are independent, so 2 or 3 threads must give bit-for-bit the single thread's output.
  std::mt19937 rng(21);
  const Index T = 300;  // several strips for every instruction set, the last one short
  const Matrix q = random_matrix(rng, T, 64), k = random_matrix(rng, T, 64), v = random_matrix(rng, T, 64);
  for (const std::string& isa : attention_tiled_isas())
    for (const Mask& mask : {Mask::none(), Mask::causal_mask(), padding_mask(rng, T, true)}) {
      const Matrix one = attention_tiled(q, k, v, mask, options_for(isa, 64, 1));
      CHECK(max_abs_diff(one, attention_naive(q, k, v, mask).output) <= 1e-5f);
      for (const int threads : {2, 3}) {
        const Matrix many = attention_tiled(q, k, v, mask, options_for(isa, 64, threads));
        CHECK_MESSAGE(many == one, isa << " threads=" << threads << " mask=" << mask.name());
      }
    }
}

TEST_CASE("the vector 2^x is within a few ulps of exp2, and exactly 0 for a masked score") {
  // The kernel takes its exps in base 2 (scores scaled by log2 e): every probability is one of these.
  std::vector<float> in, out;
  for (float x = -126.0f; x <= 0.0f; x += 0.0137f) in.push_back(x);
  for (const float x : {0.0f, -1e-30f, -0.5f, -1.5f, -125.5f, -126.0f}) in.push_back(x);  // rounding ties, the floor
  const std::size_t finite = in.size();
  for (const float hidden : {-std::numeric_limits<float>::infinity(), -126.5f, -1e30f}) in.push_back(hidden);
  out.resize(in.size());
  for (const simd::KernelVariant& variant : simd::available_variants()) {
    variant.exp2_array(in.data(), out.data(), static_cast<std::ptrdiff_t>(in.size()));
    double worst = 0.0;
    for (std::size_t i = 0; i < finite; ++i) {
      const double exact = std::exp2(static_cast<double>(in[i]));
      worst = std::max(worst, std::abs(static_cast<double>(out[i]) - exact) / exact);
    }
    std::printf("%s exp2: max relative error %.3g on [-126, 0]\n", variant.name, worst);
    CHECK(worst <= 4e-7);  // float's epsilon is 1.2e-7
    for (std::size_t i = finite; i < in.size(); ++i) CHECK(out[i] == 0.0f);
  }
}

TEST_CASE("an instruction set this CPU does not run is a clear InputError") {
  const Matrix q = Matrix::Ones(2, 3);
  CHECK_THROWS_WITH_AS(attention_tiled(q, q, q, Mask::none(), options_for("neon9000", 64, 1)),
                       doctest::Contains("instruction set 'neon9000' is not available here"), InputError);
  CHECK_THROWS_AS(attention_tiled(q, q, q, Mask::none(), options_for("", 64, -1)), InputError);
}

TEST_CASE("tiled working memory stays under 4 MiB at T = 65,536 and does not grow with T") {
  const std::size_t at_64k = attention_tiled_working_bytes(65536, 65536, 64, 64, Mask::none(), TiledOptions{});
  std::printf("tiled working memory at T = 65536, d = 64: %zu bytes\n", at_64k);
  CHECK(at_64k <= 4u << 20);
  TiledOptions two;
  two.threads = 2;
  CHECK(attention_tiled_working_bytes(4096, 4096, 64, 64, Mask::none(), two) ==
        attention_tiled_working_bytes(65536, 65536, 64, 64, Mask::none(), two));
}
