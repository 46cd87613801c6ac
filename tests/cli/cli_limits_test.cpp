// cli_limits_test.cpp: neuralpath-cli against hostile files and inputs (issue #11), run as the
// real binary. Reads are bounded, only regular files are read, odd file names cannot forge
// diagnostic lines, and attend refuses overflow and oversized inputs with exit 2 for both
// kernels alike.
#include "cli_runner.h"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using neuralpath::test::TempDir;
using Run = neuralpath::test::CliRun;

Run cli(const TempDir& dir, const std::string& args, const std::string& stdin_path = "/dev/null") {
  return neuralpath::test::run_cli(dir, args, stdin_path);
}

Run attend(const TempDir& dir, const std::string& json) { return cli(dir, "attend", dir.file("in.json", json)); }

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

const char* kTinyLesson =
    "---\nid: tiny\ntitle: Tiny\nlevel: Beginner\nsummary: A tiny lesson.\n---\n\n"
    "## Beginner: Hello\n\nSome text.\n";

}  // namespace

TEST_CASE("check and trace --lesson refuse devices, FIFOs and folders instead of reading forever") {
  TempDir dir;
  const std::string fifo = (dir.path / "lesson.fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo}) {
    CAPTURE(path);
    const Run check = cli(dir, "check '" + path + "'");
    CHECK(check.code == 1);
    CHECK(check.err == path + ": error: not a regular file (a pipe or device); give a lesson file\n");
    const Run trace = cli(dir, "trace --sentence 'the cat' --lesson '" + path + "'");
    CHECK(trace.code == 2);
    CHECK(trace.out.empty());
    CHECK(trace.err.find("not a regular file") != std::string::npos);
  }
  const Run folder = cli(dir, "check '" + dir.path.string() + "'");
  CHECK(folder.code == 1);
  CHECK(folder.err.find("a folder, not a lesson file") != std::string::npos);
}

TEST_CASE("check refuses a lesson file over 4 MB without parsing it") {
  TempDir dir;
  const std::string big = dir.file("big.md", std::string(kTinyLesson) + std::string(4 << 20, 'x'));
  const Run r = cli(dir, "check '" + big + "'");
  CHECK(r.code == 1);
  CHECK(r.err == big + ": error: the file is larger than 4 MB; is it a lesson?\n");
}

TEST_CASE("a file name with a line break or control characters is quoted so it cannot forge lines") {
  TempDir dir;
  // Tries to print a line of its own ("x.md:1:1: error: fake", then "real.md:1:1: ...").
  const std::string forged = dir.file("x.md:1:1: error: fake\nreal.md", "# Not a lesson\n");
  const std::string escape = dir.file("esc\x1b[2Jape.md", "# Not a lesson\n");
  // Single quotes keep the line break and the escape byte as they are, even in /bin/sh.
  const Run r = cli(dir, "check '" + forged + "' '" + escape + "'");
  CHECK(r.code == 1);
  // Every line is a whole diagnostic that starts with the quoted name: none was forged.
  // (A std::string for the quote: GCC 12 misreports "literal" + std::string, -Wrestrict.)
  const std::string quote = "\"";
  std::istringstream err(r.err);
  int count = 0;
  for (std::string line; std::getline(err, line); ++count) {
    CAPTURE(line);
    CHECK(line.rfind(quote + dir.path.string() + "/", 0) == 0);
    CHECK(line.find("\":1:") != std::string::npos);
  }
  CHECK(count >= 2);
  CHECK(r.err.find(quote + dir.path.string() + "/x.md:1:1: error: fake\\nreal.md\":1:1: error: ") != std::string::npos);
  CHECK(r.err.find(quote + dir.path.string() + "/esc\\x1b[2Jape.md\":1:1: error: ") != std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  // Plain names (letters, digits, spaces, non-ASCII letters) print as they are.
  const std::string plain = dir.file("lección 1.md", "# Not a lesson\n");
  CHECK(cli(dir, "check '" + plain + "'").err.rfind(plain + ":1:1: error: ", 0) == 0);
}

TEST_CASE("attend refuses scores that overflow float32, the same way for both kernels") {
  TempDir dir;
  for (const char* kernel : {"naive", "tiled"}) {
    CAPTURE(kernel);
    const std::string tail = std::string(R"(, "kernel": ")") + kernel + "\"}";
    const Run scores =
        attend(dir, R"({"q": [[3e38, 3e38], [1, 1]], "k": [[3e38, 3e38], [1, 1]], "v": [[1], [2]])" + tail);
    CHECK(scores.code == 2);
    CHECK(scores.out.empty());
    CHECK(scores.err ==
          "neuralpath-cli: the score q[0] · k[0] overflows float32 (its terms reach 1.8e+77; "
          "the largest float32 is 3.4e38): scale q and k down\n");
    // Terms that would cancel still overflow on the way, in some order: refused too.
    const Run cancel = attend(dir, R"({"q": [[2e38, 2e38, 2e38]], "k": [[1, 1, -1]], "v": [[1]])" + tail);
    CHECK(cancel.code == 2);
    CHECK(cancel.err.find("q[0] · k[0] overflows float32") != std::string::npos);
    // A V column whose sum leaves float32: the tiled kernel sums it before dividing.
    const Run values = attend(dir, R"({"q": [[0], [0]], "k": [[0], [0]], "v": [[3e38], [-3e38]])" + tail);
    CHECK(values.code == 2);
    CHECK(values.err.find("column 0 of v sums to 6e+38") != std::string::npos);
    // Heads are named in [H][T][d] input.
    const Run heads = attend(dir, R"({"q": [[[1]], [[3e38]]], "k": [[[1]], [[3e38]]], "v": [[[1]], [[1]]])" + tail);
    CHECK(heads.err.find("q[1][0] · k[1][0] overflows") != std::string::npos);
    // Large numbers whose products fit are fine, and both kernels print the same output.
    const Run big = attend(dir, R"({"q": [[1e19, 0], [0, 1e19]], "k": [[1e19, 0], [0, 1e19]], "v": [[1], [2]])" + tail);
    CHECK(big.code == 0);
    CHECK(big.out.find(R"("output":[[1.0],[2.0]])") != std::string::npos);
  }
}

TEST_CASE("attend reports a number beyond double's range (1e400) as bad input, exit 2") {
  TempDir dir;
  const Run r = attend(dir, R"({"q": [[1e400]], "k": [[1]], "v": [[1]]})");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("out of range") != std::string::npos);
  CHECK(lines(r.err) == 1);
}

TEST_CASE("attend refuses sizes that will not fit up front, naming the limit" * doctest::test_suite("slow")) {
  TempDir dir;
  auto rows = [](int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i) out += i ? ",[0]" : "[0]";
    return out + "]";
  };
  // Under 1 MB of JSON asking the naive kernel for 4.9 × 10^9 weights (19.6 GB): refused at
  // once, not std::terminate after trying to allocate them.
  const std::string big = rows(70'000);
  const std::string qkv = R"("q": )" + big + R"(, "k": )" + big + R"(, "v": )" + big;
  const Run naive = attend(dir, "{" + qkv + "}");
  CHECK(naive.code == 2);
  CHECK(naive.out.empty());
  CHECK(naive.err.find("the naive kernel would hold H × Tq × Tk = 1 × 70000 × 70000") != std::string::npos);
  CHECK(naive.err.find("the limit is 4194304") != std::string::npos);
  const Run tiled = attend(dir, R"({"kernel": "tiled", )" + qkv + "}");
  CHECK(tiled.code == 2);
  CHECK(tiled.err.find("scores; the limit is 1073741824") != std::string::npos);
  // One query past the naive limit (T = 2048) is refused; the tiled kernel, which never
  // holds the weights, runs it.
  const std::string over = R"("q": )" + rows(2049) + R"(, "k": )" + rows(2048) + R"(, "v": )" + rows(2048);
  CHECK(attend(dir, "{" + over + "}").code == 2);
  const Run runs = attend(dir, R"({"kernel": "tiled", )" + over + "}");
  CHECK(runs.code == 0);
  CHECK(runs.out.rfind(R"({"output":[[0.0],[0.0],)", 0) == 0);
}

TEST_CASE("attend reads at most 32 MB from stdin, so /dev/zero or a huge pipe cannot exhaust memory") {
  TempDir dir;
  const Run zero = cli(dir, "attend", "/dev/zero");
  CHECK(zero.code == 2);
  CHECK(zero.out.empty());
  CHECK(zero.err == "neuralpath-cli: stdin is larger than 32 MB; the limit keeps memory bounded\n");
}

// [SECTION] Issue #35: lessons that kept the CLI busy or ended it with an exception ----------------

namespace {

const std::string kTrainedForever =
    "---\nid: t\ntitle: T\nlevel: Beginner\nsummary: s\n---\n\n## Beginner: One\n\n"
    "```vocabulary\nfeatures: [a, b]\nwords:\n  the: [1, 0]\n  cat: [0, 1]\n```\n\n"
    "```weights\nfeed-forward:\n  hidden: 8\n```\n\n"
    "```task\nid: t\nobjective: next-word\nlesson-weights: trained\nsteps: 100000\nbatch: 1024\n---\nthe cat\n```\n";

double seconds_since(const std::chrono::steady_clock::time_point& start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("check, trace and heads refuse a 400-byte lesson that asks for minutes of training, at once") {
  TempDir dir;
  const std::string lesson = dir.file("forever.md", kTrainedForever);
  for (const std::string& args : {"check '" + lesson + "'", "trace --sentence 'the cat' --lesson '" + lesson + "'",
                                  "heads --lesson '" + lesson + "'"}) {
    CAPTURE(args);
    const auto start = std::chrono::steady_clock::now();
    const Run r = cli(dir, args);
    CHECK(seconds_since(start) < 10.0);  // minutes before
    CHECK(r.code == (args.rfind("check", 0) == 0 ? 1 : 2));
    CHECK(r.err.find("forever.md:22:4: error: training this task would take about") != std::string::npos);
  }
}

TEST_CASE("check compares a translation of 30 000 blocks with its original without running out of memory" *
          doctest::test_suite("slow")) {
  // The comparison built a table of every pair of blocks: 30k × 30k cells, std::bad_alloc, exit 3.
  TempDir dir;
  const std::string head = "---\nid: big\ntitle: Big\nlevel: Beginner\nsummary: s\n---\n\n## Beginner: One {#one}\n\n";
  std::string blocks;
  for (int i = 0; i < 30000; ++i) blocks += "```equation\n---\nx_{" + std::to_string(i % 10) + "}\n```\n\n";
  dir.file("big.md", head + blocks);
  std::filesystem::create_directories(dir.path / "es");
  std::ofstream(dir.path / "es" / "big.md") << head + blocks;
  const auto start = std::chrono::steady_clock::now();
  const Run same = cli(dir, "check '" + (dir.path / "es" / "big.md").string() + "'");
  CHECK(seconds_since(start) < 30.0);
  CHECK(same.code == 0);
  CHECK(same.err.empty());
  // One block more in the translation: found, at its line.
  std::ofstream(dir.path / "es" / "big.md") << head + "```equation\n---\ny\n```\n\n" + blocks;
  const Run extra = cli(dir, "check '" + (dir.path / "es" / "big.md").string() + "'");
  CHECK(extra.code == 1);
  CHECK(extra.err.find("big.md:") != std::string::npos);
}
