// gemm_test.cpp: the language model's matrix products (gemm.h) against a double-precision
// reference, at the shapes training uses and at ragged ones: rows that do not fill the
// micro-kernel, columns that do not fill a panel, inner sizes that span several chunks, row
// strides wider than the matrix, and both overwrite and accumulate.
#include "engine/core/lm/gemm.h"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace neuralpath::lm;

namespace {

struct Shape {
  int m, n, k;
};

// C (+)= op(A)·op(B) in double, all row-major with the given strides.
void reference(char kind, int m, int n, int k, const std::vector<float>& a, int lda, const std::vector<float>& b,
               int ldb, std::vector<double>& c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int r = 0; r < k; ++r) {
        const double x =
            kind == 't' ? a[static_cast<std::size_t>(r * lda + i)] : a[static_cast<std::size_t>(i * lda + r)];
        const double y =
            kind == 'n' ? b[static_cast<std::size_t>(j * ldb + r)] : b[static_cast<std::size_t>(r * ldb + j)];
        sum += x * y;
      }
      c[static_cast<std::size_t>(i * ldc + j)] += sum;
    }
}

// Every product of one instruction set's compilation against the reference.
void check_products(const GemmKernels& kernels) {
  const std::string isa = kernels.name;
  CAPTURE(isa);
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::vector<Shape> shapes{{1, 1, 1},      {5, 7, 3},     {6, 64, 128},   {7, 65, 385},    {13, 48, 9},
                                  {97, 130, 770}, {128, 96, 33}, {200, 320, 64}, {64, 2048, 128}, {1536, 128, 128}};
  float worst = 0.0f;
  for (const char kind : {'N', 'n', 't'}) {  // N: A·B, n: A·Bᵀ, t: Aᵀ·B
    for (const Shape& s : shapes) {
      for (const bool accumulate : {false, true}) {
        const int pad = 3;  // row strides wider than the rows
        const int lda = (kind == 't' ? s.m : s.k) + pad, ldb = (kind == 'n' ? s.k : s.n) + pad, ldc = s.n + pad;
        const int a_rows = kind == 't' ? s.k : s.m, b_rows = kind == 'n' ? s.n : s.k;
        std::vector<float> a(static_cast<std::size_t>(a_rows * lda)), b(static_cast<std::size_t>(b_rows * ldb)),
            c(static_cast<std::size_t>(s.m * ldc));
        for (float& x : a) x = normal(rng);
        for (float& x : b) x = normal(rng);
        for (float& x : c) x = normal(rng);
        std::vector<double> expected(c.begin(), c.end());
        if (!accumulate)
          for (int i = 0; i < s.m; ++i)
            for (int j = 0; j < s.n; ++j) expected[static_cast<std::size_t>(i * ldc + j)] = 0.0;
        reference(kind, s.m, s.n, s.k, a, lda, b, ldb, expected, ldc);
        if (kind == 'N') kernels.nn(s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
        if (kind == 'n') kernels.nt(s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
        if (kind == 't') kernels.tn(s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
        float diff = 0.0f;
        bool padding_kept = true;
        for (int i = 0; i < s.m; ++i)
          for (int j = 0; j < ldc; ++j) {
            const auto at = static_cast<std::size_t>(i * ldc + j);
            if (j >= s.n) {
              padding_kept = padding_kept && c[at] == static_cast<float>(expected[at]);  // never written
              continue;
            }
            // relative to √k: the size of a sum of k products of unit normals
            diff = std::max(diff, static_cast<float>(std::abs(c[at] - expected[at]) / std::sqrt(s.k + 1.0)));
          }
        CAPTURE(kind);
        CAPTURE(s.m);
        CAPTURE(s.n);
        CAPTURE(s.k);
        CAPTURE(accumulate);
        CHECK(diff < 1e-5f);
        CHECK(padding_kept);
        worst = std::max(worst, diff);
      }
    }
  }
  MESSAGE("products (" << isa << "): worst |C − reference| / sqrt(k) = " << worst);
}

}  // namespace

TEST_CASE("the matrix products nn, nt and tn equal a double-precision reference at ragged and training shapes") {
  for (const GemmKernels& kernels : gemm_kernel_variants()) check_products(kernels);  // avx512, avx2, sse2 here
}

TEST_CASE("a matrix product gives the same bits at any address of its operands") {
  // The trainer is exact per seed and thread count only if a product does not round
  // differently when its buffers sit elsewhere (Eigen's vector loops peel to alignment).
  std::mt19937 rng(12);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int m = 37, n = 70, k = 400;
  std::vector<float> a(static_cast<std::size_t>(m * k + 16)), b(static_cast<std::size_t>(k * n + 16));
  for (float& x : a) x = normal(rng);
  for (float& x : b) x = normal(rng);
  std::vector<float> first(static_cast<std::size_t>(m * n + 16)), moved(first.size());
  gemm_nn(m, n, k, a.data(), k, b.data(), n, first.data(), n, false);
  for (int shift = 1; shift < 16; shift += 5) {
    std::vector<float> a2(a.size()), b2(b.size());
    std::copy(a.begin(), a.begin() + m * k, a2.begin() + shift);
    std::copy(b.begin(), b.begin() + k * n, b2.begin() + shift);
    gemm_nn(m, n, k, a2.data() + shift, k, b2.data() + shift, n, moved.data() + shift, n, false);
    CHECK(std::equal(first.begin(), first.begin() + m * n, moved.begin() + shift));
  }
}
