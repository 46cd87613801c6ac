// cli_test.cpp: `neuralpath-cli lm ...` and `tokenize` as a user runs them: JSON out, the same
// output for the same seed, and bad input refused with exit 2, one line on stderr, nothing on stdout.
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

using neuralpath::test::CliRun;
using neuralpath::test::run_cli;
using neuralpath::test::slurp;
using neuralpath::test::TempDir;
using Json = nlohmann::json;
using neuralpath::test::json_lines;

namespace {

std::string corpus_text() {
  const char* s[] = {"The cat sat on the mat.", "A dog ran in the park.", "The sun is warm.", "We read at night."};
  std::string text;
  for (int doc = 0; doc < 30; ++doc) {
    for (int k = 0; k < 5; ++k) (text += s[(doc + k * 3) % 4]) += ' ';
    text += "\n%\n";
  }
  return text;
}

void refused(const CliRun& r) {
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(!r.err.empty());
  CHECK(r.err.find('\n') == r.err.size() - 1);  // one line
}

}  // namespace

TEST_CASE("lm train logs JSON lines and writes the same model bit for bit for the same seed and threads") {
  const TempDir dir;
  const std::string corpus = dir.file("corpus.txt", corpus_text());
  const std::string a = (dir.path / "a.nplm").string(), b = (dir.path / "b.nplm").string();
  const CliRun first =
      run_cli(dir, "lm train --corpus " + corpus + " --config tiny --steps 30 --seed 7 --threads 2 --out " + a);
  REQUIRE(first.code == 0);
  const CliRun second =
      run_cli(dir, "lm train --corpus " + corpus + " --config tiny --steps 30 --seed 7 --threads 2 --out " + b);
  REQUIRE(second.code == 0);
  CHECK(slurp(a) == slurp(b));
  const auto lines = json_lines(first.out), again = json_lines(second.out);
  REQUIRE(lines.size() >= 2);
  CHECK(lines.front()["step"] == 0);
  CHECK(lines.back()["step"] == 30);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (const char* key : {"step", "loss", "val_loss", "tokens_per_s"}) CHECK(lines[i].contains(key));
    CHECK(lines[i]["val_loss"] == again[i]["val_loss"]);
    CHECK(lines[i]["loss"] == again[i]["loss"]);
  }
  CHECK(lines.back()["val_loss"].get<double>() < lines.front()["val_loss"].get<double>());
  CHECK(lines.back()["tokens_per_s"].get<double>() > 0.0);
}

// The shipped models are trained with --kernels avx2 (cmake/LanguageModels.cmake) so that every
// machine with AVX2 writes the same weights: the default, the widest set, sums in another order.
TEST_CASE("lm train --kernels caps the instruction set: the first line names the kernels that ran") {
  const TempDir dir;
  const std::string corpus = dir.file("corpus.txt", corpus_text());
  auto train = [&](const std::string& kernels, const std::string& out) {
    const CliRun r = run_cli(dir, "lm train --corpus " + corpus + " --config tiny --steps 10 --kernels " + kernels +
                                      " --out " + (dir.path / out).string());
    REQUIRE(r.code == 0);
    return json_lines(r.out).front()["kernels"];
  };
  const Json baseline = train("sse2", "sse2.nplm");
#if defined(__x86_64__)
  CHECK(baseline == Json{{"products", "sse2"}, {"attention", "sse2"}});
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    CHECK(train("avx2", "avx2.nplm") == Json{{"products", "avx2"}, {"attention", "avx2"}});
    // FMA and wider sums: the cap changes the arithmetic, not only the name in the log
    CHECK(slurp((dir.path / "sse2.nplm").string()) != slurp((dir.path / "avx2.nplm").string()));
  }
#else
  CHECK(baseline["products"] == baseline["attention"]);  // one set elsewhere, whatever the cap
#endif
  const std::string out = (dir.path / "x.nplm").string();
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --kernels avx3 --out " + out));
}

TEST_CASE("tokenize, eval, generate and heads read the trained model") {
  const TempDir dir;
  const std::string corpus = dir.file("corpus.txt", corpus_text());
  const std::string model = (dir.path / "m.nplm").string();
  REQUIRE(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --steps 20 --out " + model).code == 0);

  const CliRun tok = run_cli(dir, "tokenize --model " + model + " --text 'The cat sat, ñu!'");
  REQUIRE(tok.code == 0);
  const Json tokens = Json::parse(tok.out)["tokens"];
  std::string joined;
  for (const Json& t : tokens) {
    CHECK(t["id"].get<int>() >= 0);
    joined += t.contains("bytes") ? std::string() : t["text"].get<std::string>();
  }
  // ñ may be cut into two tokens of one byte each (not UTF-8 alone): those carry "bytes"
  std::string exact;
  for (const Json& t : tokens) {
    if (t.contains("bytes"))
      for (int c : t["bytes"]) exact += static_cast<char>(c);
    else
      exact += t["text"].get<std::string>();
  }
  CHECK(exact == "The cat sat, ñu!");

  const CliRun eval = run_cli(dir, "lm eval --model " + model + " --corpus " + corpus);
  REQUIRE(eval.code == 0);
  const Json e = Json::parse(eval.out);
  CHECK(e["perplexity"].get<double>() == doctest::Approx(std::exp(e["val_loss"].get<double>())).epsilon(1e-4));
  CHECK(e["bigram_val_loss"].get<double>() > 0.0);
  // Bits per byte is the loss per token spread over the bytes each token stands for: a token is
  // at least one byte, and tiny's 63 merges make many tokens two bytes or more.
  const double bits_per_token = e["val_loss"].get<double>() / std::log(2.0);
  CHECK(e["val_bits_per_byte"].get<double>() < 0.95 * bits_per_token);
  CHECK(e["val_bits_per_byte"].get<double>() > bits_per_token / 8.0);

  const CliRun gen = run_cli(dir, "lm generate --model " + model + " --prompt 'The ' --tokens 12 --seed 3");
  REQUIRE(gen.code == 0);
  const Json g = Json::parse(gen.out);
  CHECK(g["text"].get<std::string>().rfind("The ", 0) == 0);
  CHECK(g["tokens"].size() <= 12);
  CHECK(run_cli(dir, "lm generate --model " + model + " --prompt 'The ' --tokens 12 --seed 3").out == gen.out);

  const CliRun heads = run_cli(dir, "lm heads --model " + model);
  REQUIRE(heads.code == 0);
  const Json h = Json::parse(heads.out);
  REQUIRE(h["heads"].size() == 4);  // tiny: 2 layers of 2 heads
  for (const Json& head : h["heads"])
    for (const char* key : {"previous_token", "induction", "first_token"}) {
      CHECK(head[key].get<double>() >= 0.0);
      CHECK(head[key].get<double>() <= 1.0);
    }
}

TEST_CASE("lm models lists the shipped models: an English and a Spanish one") {
  const TempDir dir;
  const CliRun r = run_cli(dir, "lm models");
  REQUIRE(r.code == 0);
  const Json models = Json::parse(r.out)["models"];
  REQUIRE(models.size() == 2);
  CHECK(models[0]["name"] == "en");
  CHECK(models[0]["lang"] == "en");
  CHECK(models[1]["lang"] == "es");
  CHECK(models[0]["config"] == "small-8k");  // English: an 8,192-token vocabulary (config.cpp says why)
  CHECK(models[1]["config"] == "small");
  for (const Json& m : models) {
    CHECK(m["file"].get<std::string>().find("models/") == 0);
  }
}

TEST_CASE("bad lm and tokenize input exits 2 with one line on stderr and nothing on stdout") {
  const TempDir dir;
  const std::string corpus = dir.file("corpus.txt", corpus_text());
  const std::string junk = dir.file("junk.nplm", "NPLM1\nname tiny\nend\nnot weights at all");
  const std::string out = (dir.path / "o.nplm").string();
  refused(run_cli(dir, "lm"));
  refused(run_cli(dir, "lm fly"));
  refused(run_cli(dir, "lm train --config tiny --out " + out));                          // no corpus
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config huge --out " + out));  // unknown config
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --steps ten --out " + out));
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --threads 0 --out " + out));
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --steps 5 --steps 6 --out " + out));
  refused(run_cli(dir, "lm train --corpus /nonexistent --config tiny --out " + out));
  refused(run_cli(dir, "lm train --corpus /dev/zero --config tiny --out " + out));  // not a regular file
  refused(run_cli(dir, "lm train --corpus " + dir.path.string() + " --config tiny --out " + out));  // a folder
  refused(run_cli(dir, "lm train --corpus " + dir.file("empty.txt", "") + " --config tiny --out " + out));
  refused(run_cli(dir, "lm train --corpus " + dir.file("short.txt", "a\n%\nb\n") + " --config tiny --out " + out));
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --out /nonexistent/folder/m.nplm"));
  refused(run_cli(dir, "lm train --corpus " + corpus + " --config tiny --out " + dir.path.string()));  // a folder
  refused(run_cli(dir, "lm eval --model " + junk + " --corpus " + corpus));
  refused(run_cli(dir, "lm heads --model /nonexistent.nplm"));
  refused(run_cli(dir, "lm generate --model " + junk + " --prompt hi"));
  refused(run_cli(dir, "tokenize --model " + junk + " --text hi"));
  refused(run_cli(dir, "tokenize --text hi"));
  refused(run_cli(dir, "lm models --all"));
  CHECK(!std::filesystem::exists(out));
}
