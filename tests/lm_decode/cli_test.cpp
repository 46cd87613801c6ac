// cli_test.cpp: `lm generate` (with --top-p and --cache), `lm next` and `lm cache` as a user runs
// them: JSON out, numbers that agree with each other and with the engine, bad input refused with
// exit 2 and one line on stderr.
#include "cli_runner.h"
#include "engine/core/lm/decode/kv_memory.h"
#include "engine/core/lm/decode/writer.h"
#include "test_models.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

using neuralpath::test::check_refused;
using neuralpath::test::CliRun;
using neuralpath::test::run_cli;
using neuralpath::test::TempDir;
using Json = nlohmann::json;
using namespace neuralpath::lm;

namespace {
struct SavedModel {
  TempDir dir;
  LmModel model = test::scaled_model(3.0f);
  std::string path = (dir.path / "m.nplm").string();
  SavedModel() { save_model(model, path); }
  Json run(const std::string& args) {
    const CliRun r = run_cli(dir, args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return Json::parse(r.out);
  }
};
}  // namespace

TEST_CASE("lm generate: top-p 1 and the cache change nothing; the same seed gives the same text") {
  SavedModel m;
  const std::string base = "lm generate --model " + m.path + " --prompt 'The ' --tokens 30 --seed 5";
  const Json plain = m.run(base);
  CHECK(m.run(base + " --top-p 1") == plain);
  CHECK(m.run(base + " --cache off") == plain);
  CHECK(m.run(base) == plain);
  // what the engine's writer (the page's loop) writes for the same settings, loaded from the file
  const LmModel loaded = load_model(m.path);
  TextWriter w(loaded, "The ", {{0.8f, 40, 1.0f}, 30, 5, true});
  while (w.step()) {
  }
  REQUIRE(plain["tokens"].size() == w.written().size());  // (ids: a random model's text need not be UTF-8)
  for (std::size_t i = 0; i < w.written().size(); ++i) CHECK(plain["tokens"][i]["id"] == w.written()[i]);
  const Json nucleus = m.run(base + " --top-p 0.3 --top-k 0");
  CHECK(nucleus["text"].get<std::string>().rfind("The ", 0) == 0);
  check_refused(run_cli(m.dir, base + " --top-p 0"), "--top-p");
  check_refused(run_cli(m.dir, base + " --top-p 1.5"), "--top-p");
  check_refused(run_cli(m.dir, base + " --cache maybe"), "--cache");
}

TEST_CASE("lm next: four stages, each keeping no more than the one before, and the seed's draw") {
  SavedModel m;
  const Json next = m.run("lm next --model " + m.path +
                          " --prompt 'The cat' --temperature 0.7 --top-k 6 --top-p 0.8 --seed 9 --top 400");
  REQUIRE(next["stages"].size() == 4);
  const char* names[] = {"model", "temperature", "top_k", "top_p"};
  for (int i = 0; i < 4; ++i) CHECK(next["stages"][i]["stage"] == names[i]);
  CHECK(next["stages"][0]["kept"].get<int>() == m.model.config.vocab_size);
  CHECK(next["stages"][2]["kept"].get<int>() == 6);
  CHECK(next["stages"][3]["kept"].get<int>() <= 6);
  CHECK(next["healed"] == false);
  for (const Json& stage : next["stages"]) {
    double previous = 2.0, sum = 0.0;
    for (const Json& t : stage["top"]) {
      CHECK(t["p"].get<double>() <= previous);  // most likely first
      previous = t["p"].get<double>();
      sum += previous;
    }
    if (stage["stage"] != "model" && stage["stage"] != "temperature") CHECK(sum == doctest::Approx(1.0).epsilon(1e-4));
  }
  // the drawn token is one the last stage kept, and the first token `lm generate` writes
  bool kept = false;
  for (const Json& t : next["stages"][3]["top"]) kept = kept || t["id"] == next["drawn"]["id"];
  CHECK(kept);
  const Json gen = m.run("lm generate --model " + m.path +
                         " --prompt 'The cat' --temperature 0.7 --top-k 6 --top-p 0.8 --seed 9 --tokens 1");
  if (next["drawn"]["id"] != kDocumentToken) CHECK(gen["tokens"][0]["id"] == next["drawn"]["id"]);
  // the prompt's tokens, as tokenize gives them
  CHECK(next["prompt_tokens"].size() == m.model.tokenizer.encode("The cat").size());
  check_refused(run_cli(m.dir, "lm next --model " + m.path), "--prompt");
  check_refused(run_cli(m.dir, "lm next --model " + m.path + " --prompt x --top 0"), "--top");
}

TEST_CASE("lm cache: the memory formula for the model's shapes, grouped heads, and the timed race") {
  SavedModel m;
  const LmConfig& c = m.model.config;  // 2 layers, 4 heads of 16
  const Json j = m.run("lm cache --model " + m.path);
  CHECK(j["layers"] == c.layers);
  CHECK(j["heads"] == c.heads);
  CHECK(j["head_dim"] == c.head_dim());
  CHECK(j["tokens"] == c.context);
  CHECK(j["per_head_per_token"] == 2 * c.head_dim() * 4);
  CHECK(j["per_token"] == 2 * c.layers * c.heads * c.head_dim() * 4);
  CHECK(j["total"] == kv_memory(c, c.context).total);
  REQUIRE(j["grouped"].size() == 3);  // G = 4, 2, 1
  CHECK(j["grouped"][2]["kv_heads"] == 1);
  CHECK(j["grouped"][2]["total"].get<long long>() * 4 == j["total"].get<long long>());
  const Json half = m.run("lm cache --model " + m.path + " --tokens 1000 --kv-heads 2 --bytes 2");
  CHECK(half["total"] == kv_memory(c, 1000, 2, 2).total);
  const Json timed = m.run("lm cache --model " + m.path + " --time 1 --prompt 'The'");
  REQUIRE(timed.contains("time"));
  CHECK(timed["time"]["same_tokens"] == true);
  CHECK(timed["time"]["positions"].get<int>() + timed["time"]["prompt_tokens"].get<int>() == c.context);
  CHECK(timed["time"]["cached_per_position_s"].size() == timed["time"]["positions"].get<std::size_t>());
  CHECK(timed["time"]["cached_s"].get<double>() > 0.0);
  CHECK(timed["time"]["full_s"].get<double>() > 0.0);
  check_refused(run_cli(m.dir, "lm cache --model " + m.path + " --kv-heads 3"), "divide");
  check_refused(run_cli(m.dir, "lm cache --model " + m.path + " --bytes 3"), "bytes");
  check_refused(run_cli(m.dir, "lm cache --model " + m.path + " --prompt x"), "--time");
}
