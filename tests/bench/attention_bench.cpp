// attention-bench: the naive and the tiled attention kernels side by side, one row per T.
//
//   attention-bench [--d N] [--block N] [--causal] [--max-t N] [--seconds S]
//
// For each T: the best time of repeated runs (after a warm-up), GFLOP/s counting the two
// matrix products (Q·Kᵀ and W·V: 4·T²·d flops, half of that with --causal), the working
// memory each kernel holds besides its inputs and output, and the max |naive - tiled|.
#include "engine/core/attention.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace neuralpath;

namespace {

struct Options {
    int    d = 64;
    int    block = kDefaultBlock;
    bool   causal = false;
    int    max_t = 2048;
    double seconds = 0.3;  // time budget per kernel per T
};

[[noreturn]] void usage(const char* message) {
    std::fprintf(stderr, "attention-bench: %s\nusage: attention-bench [--d N] [--block N] [--causal] [--max-t N] [--seconds S]\n", message);
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto number = [&]() {
            if (i + 1 >= argc) usage((a + " needs a value").c_str());
            return std::atof(argv[++i]);
        };
        if (a == "--d") o.d = static_cast<int>(number());
        else if (a == "--block") o.block = static_cast<int>(number());
        else if (a == "--max-t") o.max_t = static_cast<int>(number());
        else if (a == "--seconds") o.seconds = number();
        else if (a == "--causal") o.causal = true;
        else usage(("unknown option '" + a + "'").c_str());
    }
    if (o.d < 1 || o.block < 1 || o.max_t < 1 || !(o.seconds > 0)) usage("values must be positive");
    return o;
}

Matrix random_matrix(std::mt19937& rng, Index rows, Index cols) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Matrix m(rows, cols);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
    return m;
}

// Best wall time of `run` in seconds: one warm-up, then repeats until the budget is spent.
template <typename F>
double best_time(F&& run, double budget) {
    using clock = std::chrono::steady_clock;
    run();
    double best = 1e30, spent = 0.0;
    int repeats = 0;
    while (repeats < 3 || spent < budget) {
        const auto start = clock::now();
        run();
        const double t = std::chrono::duration<double>(clock::now() - start).count();
        best = std::min(best, t);
        spent += t;
        if (++repeats >= 1000) break;
    }
    return best;
}

std::string bytes(std::size_t n) {
    char buffer[32];
    if (n >= (1u << 20)) std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(n) / (1 << 20));
    else std::snprintf(buffer, sizeof buffer, "%.1f KiB", static_cast<double>(n) / (1 << 10));
    return buffer;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const Mask mask = o.causal ? Mask::causal_mask() : Mask::none();
    std::printf("attention: one head, d = %d, mask = %s, tile block = %d, best of repeated runs\n", o.d,
                mask.name().c_str(), o.block);
    std::printf("%6s | %10s %8s %10s | %10s %8s %10s | %7s | %9s\n", "T", "naive ms", "GFLOP/s", "memory",
                "tiled ms", "GFLOP/s", "memory", "speedup", "max diff");
    std::printf("-------+--------------------------------+--------------------------------+---------+----------\n");
    std::mt19937 rng(1);
    for (int T = 128; T <= o.max_t; T *= 2) {
        const Matrix q = random_matrix(rng, T, o.d), k = random_matrix(rng, T, o.d), v = random_matrix(rng, T, o.d);
        Matrix naive_out, tiled_out;
        const double tn = best_time([&] { naive_out = attention_naive(q, k, v, mask).output; }, o.seconds);
        const double tt = best_time([&] { tiled_out = attention_tiled(q, k, v, mask, o.block); }, o.seconds);
        const double flops = 4.0 * T * static_cast<double>(T) * o.d * (o.causal ? 0.5 : 1.0);
        const float diff = (naive_out - tiled_out).cwiseAbs().maxCoeff();
        std::printf("%6d | %10.3f %8.2f %10s | %10.3f %8.2f %10s | %6.2fx | %9.2e\n", T, tn * 1e3, flops / tn * 1e-9,
                    bytes(attention_naive_working_bytes(T, T)).c_str(), tt * 1e3, flops / tt * 1e-9,
                    bytes(attention_tiled_working_bytes(T, T, o.d, o.block)).c_str(), tn / tt,
                    static_cast<double>(diff));
    }
    return 0;
}
