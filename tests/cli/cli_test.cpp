// cli_test.cpp: neuralpath-cli's contract (README.md, "The command-line tool"), run as the real binary.
#include "cli_runner.h"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

using neuralpath::test::CliRun;
using Run = CliRun;

// Runs `neuralpath-cli ARGS < stdin_text` and captures everything.
Run cli(const std::string& args, const std::string& stdin_text = "") {
  return neuralpath::test::run_cli_text(args, stdin_text);
}

void check_bad_input(const std::string& json, const std::string& message) {
  CAPTURE(json);
  neuralpath::test::check_refused(cli("attend", json), message);
}

}  // namespace

TEST_CASE("attend prints the output and weights of one head as JSON") {
  const Run r =
      cli("attend", R"({"q": [[1, 0], [0, 1]], "k": [[1, 0], [0, 1]], "v": [[1, 2], [3, 4]], "mask": "causal"})");
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find(R"("output":[[1.0,2.0],)") != std::string::npos);
  CHECK(r.out.find(R"("weights":[[1.0,0.0],)") != std::string::npos);
}

TEST_CASE("attend takes one matrix per head and the tiled kernel prints no weights") {
  const std::string heads =
      R"({"q": [[[1, 0]], [[0, 1]]], "k": [[[1, 0]], [[0, 1]]], "v": [[[5]], [[7]]], "kernel": "tiled"})";
  const Run r = cli("attend", heads);
  REQUIRE(r.code == 0);
  CHECK(r.out == "{\"output\":[[[5.0]],[[7.0]]]}\n");
}

TEST_CASE("attend rejects bad input with exit 2, one line on stderr and nothing on stdout") {
  check_bad_input("not json", "not valid JSON");
  check_bad_input("[1, 2]", "must be a JSON object");
  check_bad_input(R"({"q": [[1, 2], [3]], "k": [[1, 2]], "v": [[1]]})", "ragged rows");
  check_bad_input(R"({"q": [[1, 2]], "k": [[1, 2, 3]], "v": [[1]]})", "q and k must share d");
  check_bad_input(R"({"q": [[1, 2]], "k": [[1, 2]], "v": [[1], [2]]})", "k and v must share T");
  check_bad_input(R"({"q": [[1e39]], "k": [[1]], "v": [[1]]})", "not a finite float32 number");
  check_bad_input(R"({"q": [[1, "x"]], "k": [[1, 2]], "v": [[1]]})", "is not a number");
  check_bad_input(R"({"q": [], "k": [], "v": []})", "T = 0");
  check_bad_input(R"({"q": [[1]], "k": [[1]]})", "missing \"v\"");
  check_bad_input(R"({"q": [[1]], "k": [[1]], "v": [[1]], "mask": "diagonal"})", "unknown mask");
  check_bad_input(R"({"q": [[[1]]], "k": [[1]], "v": [[1]]})", "all be [T][d] or all be [H][T][d]");
}

TEST_CASE("trace prints tokens, narrated steps, weights and next-token probabilities") {
  const Run r = cli("trace --sentence 'The cat sat.' --mask none");
  REQUIRE(r.code == 0);
  for (const char* key : {"\"tokens\"", "\"steps\"", "\"narration\"", "\"weights\"", "\"next_token\"",
                          "\"kind\":\"softmax\"", "\"text\":\"cat\"", "\"mask\":\"none\""})
    CHECK(r.out.find(key) != std::string::npos);
}

TEST_CASE("trace and unknown commands reject bad arguments with exit 2") {
  for (const char* args :
       {"trace", "trace --sentence ''", "trace --sentence hi --mask up", "frobnicate", "trace --sentence hi --bogus"}) {
    CAPTURE(args);
    const Run r = cli(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
  }
}

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  const auto path =
      std::filesystem::temp_directory_path() / ("neuralpath-cli-test-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}
// The smallest lesson the lesson library accepts: front matter and one section, no vocabulary
// block (so it runs on the default model).
const char* kTinyLesson =
    "---\nid: tiny\ntitle: Tiny\nlevel: Beginner\nsummary: A tiny lesson.\n---\n\n"
    "## Beginner: Hello\n\nSome text.\n";
}  // namespace

TEST_CASE("check prints file:line:col errors and exits 1, and is silent with exit 0 for a valid lesson") {
  const std::string bad = write_temp("bad.md", "# Not a lesson\n");
  const std::string good = write_temp("good.md", kTinyLesson);
  const Run r = cli("check '" + good + "' '" + bad + "'");
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find(bad + ":1:") != std::string::npos);
  CHECK(r.err.find(": error: ") != std::string::npos);
  CHECK(r.err.find(good) == std::string::npos);
  const Run ok = cli("check '" + good + "'");
  CHECK(ok.code == 0);
  CHECK(ok.out.empty());
  CHECK(ok.err.empty());
  CHECK(cli("check").code == 2);
  std::filesystem::remove(bad);
  std::filesystem::remove(good);
}

TEST_CASE("check --kinds lists each lesson's widget kinds, sorted, one JSON line per file") {
  // What the site's build reads to give a lesson its engine (web/assemble_site.cmake).
  const Run lm = cli("check --kinds " NEURALPATH_SOURCE_DIR "/lessons/writing-text.md " NEURALPATH_SOURCE_DIR
                     "/lessons/self-attention.md");
  REQUIRE(lm.code == 0);
  std::istringstream lines(lm.out);
  std::string first, second, extra;
  std::getline(lines, first);
  std::getline(lines, second);
  CHECK_FALSE(std::getline(lines, extra));
  const auto writing = nlohmann::json::parse(first), attention = nlohmann::json::parse(second);
  CHECK(writing["file"].get<std::string>().ends_with("writing-text.md"));
  CHECK(writing["kinds"] == nlohmann::json{"generate", "kv-cache", "tokenizer"});
  CHECK(attention["kinds"] == nlohmann::json{"cost-explorer", "heatmap", "mask-steps", "spotlight", "train"});
  // A lesson with no widget has none; a broken one still gets its line, and the exit says it failed.
  const std::string good = write_temp("kinds-good.md", kTinyLesson);
  const std::string bad = write_temp("kinds-bad.md", "# Not a lesson\n");
  const Run both = cli("check --kinds '" + good + "' '" + bad + "'");
  CHECK(both.code == 1);
  CHECK(both.out == nlohmann::json{{"file", good}, {"kinds", nlohmann::json::array()}}.dump() + "\n" +
                        nlohmann::json{{"file", bad}, {"kinds", nlohmann::json::array()}}.dump() + "\n");
  CHECK(cli("check --kinds").code == 2);
  CHECK(cli("check --kind '" + good + "'").code == 2);
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

TEST_CASE("trace --lesson runs the lesson's model and refuses a broken lesson with exit 2") {
  const std::string bad = write_temp("bad-trace.md", "# Not a lesson\n");
  const std::string good = write_temp("good-trace.md", kTinyLesson);
  const Run r = cli("trace --sentence 'the cat sat' --lesson '" + good + "'");
  CHECK(r.code == 0);
  CHECK(r.out.find("\"source\":\"" + good + "\"") != std::string::npos);
  const Run broken = cli("trace --sentence 'the cat sat' --lesson '" + bad + "'");
  CHECK(broken.code == 2);
  CHECK(broken.out.empty());
  CHECK(broken.err.find(bad + ":1:") != std::string::npos);
  // No --sentence and no widget sentence in the lesson: nothing to trace, and it says how to give one.
  const Run unnamed = cli("trace --lesson '" + good + "'");
  CHECK(unnamed.code == 2);
  CHECK(unnamed.out.empty());
  CHECK(unnamed.err.find("--sentence") != std::string::npos);
  std::filesystem::remove(bad);
  std::filesystem::remove(good);
}

TEST_CASE("trace --lesson lessons/multi-head.md prints the weights of each of its four heads, rows summing to 1") {
  const Run r =
      cli("trace --lesson lessons/multi-head.md --mask none"
          " --sentence 'The farmer carefully carried the bag because it was old.'");
  REQUIRE(r.code == 0);
  const auto out = nlohmann::json::parse(r.out);
  CHECK(out["model"]["heads"] == 4);
  CHECK(out["model"]["context_layers"] == 0);
  const auto& weights = out["attention"]["weights"];
  REQUIRE(weights.size() == 4);
  for (const auto& head : weights) {
    REQUIRE(head.size() == out["tokens"].size());
    for (const auto& row : head) {
      float sum = 0;
      for (const auto& w : row) sum += w.get<float>();
      CHECK(sum == doctest::Approx(1.0f).epsilon(1e-5));
    }
  }
  // The trained heads differ (the lesson's grids): "carried" (token 3) looks at "farmer" in head 1
  // (0.86), at "it" in head 3 and at "carefully" in head 4.
  CHECK(weights[0][3][1].get<float>() > 0.8f);
  CHECK(weights[2][3][7].get<float>() > 0.3f);
  CHECK(weights[3][3][2].get<float>() > 0.35f);
}

TEST_CASE("trace --lesson without --sentence traces the lesson's first widget sentence, every head's weights") {
  const Run r = cli("trace --lesson lessons/multi-head.md");
  REQUIRE(r.code == 0);
  const auto out = nlohmann::json::parse(r.out);
  // The split-join walk's sentence, the first a widget of lessons/multi-head.md names.
  CHECK(out["sentence"] == "The boy gently pushed the chair.");
  const auto& weights = out["attention"]["weights"];
  REQUIRE(weights.size() == 4);
  // The four trained heads are four different rows for "pushed" (token 3), not one copied.
  float apart = 0;
  for (std::size_t h = 1; h < 4; ++h)
    for (std::size_t k = 0; k < weights[0][3].size(); ++k)
      apart = std::max(apart, std::abs(weights[h][3][k].get<float>() - weights[0][3][k].get<float>()));
  CHECK(apart > 0.5f);
}
