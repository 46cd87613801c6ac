// grad_train_cli_test.cpp: the CLI contracts of issue #10, run as the real binary:
// `attend` with "grad_output", and `train --lesson FILE [--task] [--steps] [--seed] [--out]`.
#include "cli_runner.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::json;
using neuralpath::test::json_lines;

using Run = neuralpath::test::CliRun;
using neuralpath::test::check_refused;
using neuralpath::test::slurp;

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("neuralpath-train-test-" + std::to_string(::getpid()) + "-" + name);
}

Run cli(const std::string& args, const std::string& stdin_text = "") {
  return neuralpath::test::run_cli_text(args, stdin_text);
}

double max_abs_diff(const Json& a, const Json& b) {
  if (a.is_number()) return std::abs(a.get<double>() - b.get<double>());
  double worst = 0;
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, max_abs_diff(a[i], b[i]));
  return worst;
}

// A small lesson whose model can learn where "it" looks. The weights block fixes the shape
// (one context layer, one shown layer, a feed-forward of 8); training re-draws every matrix.
const char* kLessonHead = R"(---
id: train-fixture
title: Training fixture
level: Advanced
summary: A lesson with a task.
---

## Beginner: Only section

Text.

```vocabulary
features: [pronoun, punctuation, function, action, animate, needs_animate, place, needs_place]
words:
  the:      [0, 0, 1, 0, 0, 0, 0, 0]
  because:  [0, 0, 1, 0, 0, 0, 0, 0]
  was:      [0, 0, 1, 0, 0, 0, 0, 0]
  too:      [0, 0, 1, 0, 0, 0, 0, 0]
  didn't:   [0, 0, 1, 0.5, 0, 0, 0, 0]
  cross:    [0, 0, 0, 1, 0, 0, 0, 0]
  it:       [1, 0, 0, 0, 0, 0, 0, 0]
  ".":      [0, 1, 0, 0, 0, 0, 0, 0]
  cat:      [0, 0, 0, 0, 1, 0, 0, 0]
  dog:      [0, 0, 0, 0, 1, 0, 0, 0]
  fox:      [0, 0, 0, 0, 1, 0, 0, 0]
  road:     [0, 0, 0, 0, 0, 0, 1, 0]
  river:    [0, 0, 0, 0, 0, 0, 1, 0]
  field:    [0, 0, 0, 0, 0, 0, 1, 0]
  tired:    [0, 0, 0, 0, 0, 1, 0, 0]
  hungry:   [0, 0, 0, 0, 0, 1, 0, 0]
  wide:     [0, 0, 0, 0, 0, 0, 0, 1]
  long:     [0, 0, 0, 0, 0, 0, 0, 1]
```
)";

const char* kWeights = R"(
```weights
positions: 0.1
context:
  - heads: 1
attention:
  heads: 1
feed-forward:
  hidden: 8
```
)";

const char* kTask = R"(
```task
id: pronoun
objective: answer
query: it
templates:
  - text: The ANIMAL didn't cross the PLACE because it was too A_ADJ.
    answer: ANIMAL
  - text: The ANIMAL didn't cross the PLACE because it was too P_ADJ.
    answer: PLACE
words:
  ANIMAL: [cat, dog, fox]
  PLACE: [road, river, field]
  A_ADJ: [tired, hungry]
  P_ADJ: [wide, long]
held-out: 0.25
steps: 120
seed: 3
learning-rate: 0.01
```
)";

std::string write_lesson(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace

TEST_CASE("attend with grad_output prints grad_q, grad_k, grad_v, the same for both kernels") {
  const std::string input = R"({"q": [[1, 0], [0, 1], [1, 1]], "k": [[1, 0], [0, 1], [0.5, 0.5]],
        "v": [[1, 2], [3, 4], [5, 6]], "mask": "causal", "grad_output": [[1, 0], [0, 1], [1, -1]]})";
  const Run naive = cli("attend", input);
  INFO(naive.err);
  REQUIRE(naive.code == 0);
  const Json n = Json::parse(naive.out);
  // Row 0 sees only key 0 (weight 1), so its output is v_0 whatever q_0 is: grad_q row 0 is 0,
  // and grad_v row 2 (the last key) only collects from the last query: w_22 · grad_output_2.
  CHECK(std::abs(n["grad_q"][0][0].get<double>()) < 1e-7);
  CHECK(std::abs(n["grad_q"][0][1].get<double>()) < 1e-7);
  const double w22 = n["weights"][2][2].get<double>();
  CHECK(n["grad_v"][2][0].get<double>() == doctest::Approx(w22 * 1.0).epsilon(1e-6));
  CHECK(n["grad_v"][2][1].get<double>() == doctest::Approx(w22 * -1.0).epsilon(1e-6));

  std::string tiled_input = input;
  tiled_input.insert(tiled_input.size() - 1, R"(, "kernel": "tiled", "block": 2)");
  const Run tiled = cli("attend", tiled_input);
  REQUIRE(tiled.code == 0);
  const Json t = Json::parse(tiled.out);
  CHECK_FALSE(t.contains("weights"));
  for (const char* g : {"grad_q", "grad_k", "grad_v"}) CHECK(max_abs_diff(n[g], t[g]) <= 1e-5);
}

TEST_CASE("attend with grad_output works per head and refuses a grad_output of the wrong shape") {
  const std::string qkv = R"("q": [[[1, 0]], [[0, 1]]], "k": [[[1, 0]], [[0, 1]]], "v": [[[1, 2]], [[3, 4]]])";
  const Run ok = cli("attend", "{" + qkv + R"(, "grad_output": [[[1, 1]], [[2, 2]]]})");
  REQUIRE(ok.code == 0);
  const Json j = Json::parse(ok.out);
  CHECK(j["grad_v"][1][0][0].get<double>() == doctest::Approx(2.0));  // one key: weight 1
  check_refused(cli("attend", "{" + qkv + R"(, "grad_output": [[1, 1]]})"), "grad_output");
  check_refused(cli("attend", R"({"q": [[1, 0]], "k": [[1, 0]], "v": [[1, 2]], "grad_output": [[1, 2, 3]]})"),
                "grad_output is [1][3] but the output is [1][2]");
}

TEST_CASE("train prints one JSON line per logged step and teaches the pronoun task" * doctest::test_suite("slow")) {
  const std::string lesson = write_lesson("pronoun.md", std::string(kLessonHead) + kWeights + kTask);
  const Run r = cli("train --lesson '" + lesson + "'");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const std::vector<Json> lines = json_lines(r.out);
  REQUIRE(lines.size() >= 3);
  CHECK(lines.front()["step"] == 0);
  CHECK(lines.back()["step"] == 120);
  for (const Json& l : lines) {
    CHECK(l.size() == 3);
    CHECK(l["loss"].is_number());
    CHECK(l["accuracy"].get<double>() >= 0.0);
  }
  CHECK(lines.back()["loss"].get<double>() < lines.front()["loss"].get<double>() / 4);
  CHECK(lines.back()["accuracy"].get<double>() >= 0.95);  // on word combinations never trained on

  SUBCASE("same seed, same output; another seed, other numbers") {
    CHECK(cli("train --lesson '" + lesson + "'").out == r.out);
    const Run other = cli("train --lesson '" + lesson + "' --task pronoun --seed 4 --steps 120");
    REQUIRE(other.code == 0);
    CHECK(other.out != r.out);
  }
  SUBCASE("--steps limits the run") {
    const Run short_run = cli("train --lesson '" + lesson + "' --steps 5");
    REQUIRE(short_run.code == 0);
    CHECK(json_lines(short_run.out).back()["step"] == 5);
  }
  std::filesystem::remove(lesson);
}

TEST_CASE("train --out writes a weights block the lesson accepts, and the model it holds is the trained one" *
          doctest::test_suite("slow")) {
  const std::string lesson = write_lesson("out.md", std::string(kLessonHead) + kWeights + kTask);
  const std::string weights = temp_path("weights.md").string();
  const Run r = cli("train --lesson '" + lesson + "' --out '" + weights + "'");
  REQUIRE(r.code == 0);
  const std::string block = slurp(weights);
  CHECK(block.rfind("```weights\n", 0) == 0);
  // The lesson with its hand-set weights replaced by the trained ones: valid, and "it" now
  // looks at the animal when the adjective is "tired" (a combination the trace can show).
  const std::string trained = write_lesson("trained.md", std::string(kLessonHead) + "\n" + block);
  CHECK(cli("check '" + trained + "'").code == 0);
  const Run trace =
      cli("trace --sentence \"The fox didn't cross the field because it was too tired.\" --mask none --lesson '" +
          trained + "'");
  INFO(trace.err);
  REQUIRE(trace.code == 0);
  const Json w = Json::parse(trace.out)["attention"]["weights"][0][7];  // head 1, row of "it"
  CHECK(w[1].get<double>() > w[5].get<double>());                       // fox over field
  for (const auto& f : {lesson, weights, trained}) std::filesystem::remove(f);
}

TEST_CASE("train refuses bad arguments with exit 2 and one line on stderr") {
  const std::string lesson = write_lesson("args.md", std::string(kLessonHead) + kWeights + kTask);
  check_refused(cli("train"), "--lesson FILE is required");
  check_refused(cli("train --lesson"), "--lesson needs a value");
  check_refused(cli("train --lesson '" + lesson + "' --steps many"), "--steps needs a whole number");
  check_refused(cli("train --lesson '" + lesson + "' --steps -3"), "--steps needs a whole number");
  check_refused(cli("train --lesson '" + lesson + "' --task nothing"), "no task 'nothing'");
  check_refused(cli("train --lesson '" + lesson + "' --speed 3"), "unknown argument '--speed'");
  check_refused(cli("train --lesson /nonexistent/lesson.md"), "cannot open");
  const std::string no_task = write_lesson("no-task.md", std::string(kLessonHead) + kWeights);
  check_refused(cli("train --lesson '" + no_task + "'"), "name one with --task");
  std::filesystem::remove(lesson);
  std::filesystem::remove(no_task);
}

TEST_CASE("train --lang es: the same numbers, its words in Spanish; an unknown language is refused") {
  const std::string lesson = write_lesson("lang.md", std::string(kLessonHead) + kWeights + kTask);
  const Run en = cli("train --lesson '" + lesson + "' --steps 5");
  const Run es = cli("train --lesson '" + lesson + "' --steps 5 --lang es");
  REQUIRE_MESSAGE(es.code == 0, es.err);
  CHECK(es.out == en.out);  // JSON lines: numbers and keys, no words to translate

  const std::string weights = temp_path("lang-weights.md").string();
  REQUIRE(cli("train --lang es --lesson '" + lesson + "' --steps 5 --out '" + weights + "'").code == 0);
  CHECK(slurp(weights).find("# Entrenado con: neuralpath-cli train --lesson") != std::string::npos);

  // Refusals in Spanish, wherever --lang stands among the arguments.
  check_refused(cli("train --lang es"), "hace falta --lesson ARCHIVO");
  check_refused(cli("train --lesson '" + lesson + "' --speed 3 --lang es"), "argumento desconocido '--speed'");
  check_refused(cli("train --lang es --lesson '" + lesson + "' --task nothing"), "no hay ninguna tarea 'nothing'");
  check_refused(cli("train --lang es --lesson '" + lesson + "' --steps many"), "--steps necesita un número entero");
  check_refused(cli("train --lesson '" + lesson + "' --lang xx"), "--lang xx: no word catalogue");
  check_refused(cli("train --lesson '" + lesson + "' --lang"), "--lang needs a value");
  for (const auto& f : {lesson, weights}) std::filesystem::remove(f);
}
