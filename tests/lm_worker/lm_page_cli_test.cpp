// lm_page_cli_test.cpp: `neuralpath-cli lm pack` and `lm page`, the page's data and its worker's
// messages from the command line (engine/cli/lm_page_command.cpp).
#include "cli_runner.h"
#include "engine/core/lm/page/page_data.h"
#include "test_data.h"

#include <nlohmann/json.hpp>

using namespace neuralpath;
using neuralpath::test::json_lines;
using neuralpath::test::run_cli;
using neuralpath::test::TempDir;
using Json = nlohmann::json;

TEST_CASE("lm pack writes the page data file and says what is in it") {
  const TempDir dir;
  const std::string corpus = dir.file("corpus.txt", test::small_corpus());
  const test::CliRun r =
      run_cli(dir, "lm pack --corpus " + corpus + " --config tiny --lang en --source 'test text' --out " +
                       (dir.path / "t.nptok").string());
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const Json j = Json::parse(r.out);
  const lm::PageData d = lm::page_data_from_bytes(test::slurp(dir.path / "t.nptok"));
  CHECK(j["train_tokens"] == d.streams.train.size());
  CHECK(j["validation_tokens"] == d.streams.validation.size());
  CHECK(j["train_documents"] == 54);
  CHECK(j["bytes"] == std::filesystem::file_size(dir.path / "t.nptok"));
  CHECK(d.source == "test text");
  CHECK(d.streams.train ==
        lm::pack_page_data(lm::split_corpus(test::small_corpus()), 320, 0, 0, "", "").streams.train);  // bit for bit
  const test::CliRun capped =
      run_cli(dir, "lm pack --corpus " + corpus + " --config tiny --max-train-tokens 300 --out " +
                       (dir.path / "c.nptok").string());
  REQUIRE(capped.code == 0);
  CHECK(Json::parse(capped.out)["train_tokens"].get<int>() <= 300);
}

TEST_CASE("lm page prints the worker's messages: ready, then snapshots to the end") {
  const TempDir dir;
  const std::string corpus = dir.file("corpus.txt", test::small_corpus());
  const std::string data = (dir.path / "t.nptok").string();
  REQUIRE(run_cli(dir, "lm pack --corpus " + corpus + " --config tiny --out " + data).code == 0);
  const test::CliRun r = run_cli(dir, "lm page --data " + data + " --config tiny --steps 50 --seed 2");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::vector<Json> lines = json_lines(r.out);
  REQUIRE(lines.size() == 4);  // ready, step 0, 25, 50
  CHECK(lines[0]["type"] == "ready");
  CHECK(lines[1]["step"] == 0);
  CHECK(lines[3]["step"] == 50);
  CHECK(lines[3]["running"] == false);
  CHECK_FALSE(lines[3].contains("text"));  // attention only with --attention
  const test::CliRun again = run_cli(
      dir, "lm page --data " + data + " --config tiny --steps 50 --seed 2 --until 25 --attention --text 'the cat'");
  REQUIRE(again.code == 0);
  const std::vector<Json> until = json_lines(again.out);
  REQUIRE(until.size() == 3);
  CHECK(until[2]["step"] == 25);
  CHECK(until[2]["curve"] == lines[2]["curve"]);  // the same seed, the same numbers
  CHECK(until[2]["text"]["tokens"].size() >= 2);
}

TEST_CASE("lm pack and lm page refuse bad arguments with one line") {
  const TempDir dir;
  test::check_refused(run_cli(dir, "lm pack --config tiny --out x.nptok"), "--corpus is required");
  test::check_refused(run_cli(dir, "lm pack --corpus nowhere.txt --config nope --out x.nptok"),
                      "unknown config 'nope'");
  test::check_refused(run_cli(dir, "lm page --data " + dir.file("bad.nptok", "junk")), "NPTOK1");
  test::check_refused(run_cli(dir, "lm page --data x --colour red"), "unknown argument '--colour'");
  test::check_refused(run_cli(dir, "lm page --data x --seed -1"), "--seed must be a whole number");
}
