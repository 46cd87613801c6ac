// lesson_claims_test.cpp: the figures the "Writing text" lesson quotes from the shipped models
// (lessons/writing-text.md, lessons/es/writing-text.md), recomputed with the commands a reader
// would run (`lm models`, `lm next`). The lesson promises that every number on it comes from the
// model; when a model is retrained, this names each sentence that no longer says what the model
// does, and what it must say now. Skipped when the build has not trained the models.
#include "cli_runner.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

using neuralpath::test::run_cli;
using neuralpath::test::slurp;
using neuralpath::test::TempDir;
using Json = nlohmann::json;

namespace {

const std::string kModels = NEURALPATH_LM_MODELS_DIR;

// The lesson's text with every run of spaces and line breaks made one space, so a sentence is
// found wherever the Markdown wraps it.
std::string lesson_text(const std::string& relative) {
  const std::string raw = slurp(std::filesystem::path(NEURALPATH_SOURCE_DIR) / "lessons" / relative);
  std::string out;
  for (char c : raw) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

// Numbers as each language writes them: English 19.1 and 2,048; Spanish 19,1 and 2.048.
struct Style {
  char decimal, thousands;
};
const std::map<std::string, Style> kStyles{{"en", {'.', ','}}, {"es", {',', '.'}}};

std::string one_decimal(double value, const Style& s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  std::string text = buffer;
  for (char& c : text)
    if (c == '.') c = s.decimal;
  return text;
}

std::string whole(long long value, const Style& s) {
  std::string digits = std::to_string(value), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += s.thousands;
    out += digits[i];
  }
  return out;
}

Json next(const TempDir& dir, const std::string& model, const std::string& prompt, const std::string& settings) {
  const auto run = run_cli(dir, "lm next --model " + model + " --prompt '" + prompt + "' " + settings);
  REQUIRE_MESSAGE(run.code == 0, run.err);
  return Json::parse(run.out);
}

// Every {name} in the template replaced by its figure.
std::string fill(std::string text, const std::map<std::string, std::string>& figures) {
  for (const auto& [name, value] : figures)
    for (std::size_t at; (at = text.find("{" + name + "}")) != std::string::npos;)
      text.replace(at, name.size() + 2, value);
  return text;
}

// The figures one shipped model gives for the lesson's prompt, formatted for its language.
std::map<std::string, std::string> figures(const std::string& lang, const std::string& prompt) {
  const Style& s = kStyles.at(lang);
  const TempDir dir;
  const std::string model = kModels + "/lm-" + lang + ".nplm";
  const auto pct = [&](const Json& token) { return one_decimal(100.0 * token["p"].get<double>(), s); };

  const Json plain = next(dir, model, prompt, "--temperature 1 --top-k 0");
  const Json warm = next(dir, model, prompt, "--temperature 1.5 --top-k 0");
  const Json filtered = next(dir, model, prompt, "--temperature 0.8 --top-k 40 --top-p 0.9");
  const Json half = next(dir, model, prompt, "--temperature 0.8 --top-k 40 --top-p 0.5");
  const Json& model_stage = plain["stages"][0];
  const Json& cooled = filtered["stages"][1];
  const Json& top_k = filtered["stages"][2];
  const int vocab = model_stage["kept"].get<int>();
  const double favourite = 100.0 * model_stage["top"][0]["p"].get<double>();
  std::map<std::string, std::string> out{
      {"vocab", whole(vocab, s)},
      {"merges", whole(vocab - 257, s)},  // 256 bytes and the start-of-text token are not learned
      {"size_mb", one_decimal(static_cast<double>(std::filesystem::file_size(model)) / 1e6, s)},
      {"favourite", model_stage["top"][0]["text"].get<std::string>()},
      {"p_model", one_decimal(favourite, s)},
      {"in_100", std::to_string(std::lround(favourite))},
      {"not_in_100", std::to_string(100 - std::lround(favourite))},
      {"p_cooled", pct(cooled["top"][0])},
      {"p_warm", pct(warm["stages"][1]["top"][0])},
      {"p_top_k", pct(top_k["top"][0])},
      {"kept_top_p", std::to_string(filtered["stages"][3]["kept"].get<int>())},
      {"kept_half", std::to_string(half["stages"][3]["kept"].get<int>())},
  };
  // After temperature 0.8 and top-k 40, the five most likely tokens (token_1 .. token_5), each
  // one's share (share_k) and the running sum of the shares (sum_k): what top-p adds up.
  double sum = 0.0;
  for (int k = 0; k < 5; ++k) {
    const Json& token = top_k["top"][k];
    sum += 100.0 * token["p"].get<double>();
    const std::string n = std::to_string(k + 1);
    out["token_" + n] = token["text"].get<std::string>();
    out["share_" + n] = pct(token);
    out["sum_" + n] = one_decimal(sum, s);
  }
  return out;
}

void check_claims(const std::string& file, const std::map<std::string, std::string>& figures,
                  std::initializer_list<const char*> claims) {
  std::string all;  // what the model gives now, for whoever rewrites the sentences
  for (const auto& [name, value] : figures) all += " " + name + "=\"" + value + "\"";
  MESSAGE(file << ":" << all);
  const std::string text = lesson_text(file);
  for (const char* claim : claims) {
    const std::string sentence = fill(claim, figures);
    CHECK_MESSAGE(text.find(sentence) != std::string::npos, file << " should say, as the model does now: " << sentence);
  }
}

bool built() {
  return std::filesystem::exists(kModels + "/lm-en.nplm") && std::filesystem::exists(kModels + "/lm-es.nplm");
}

}  // namespace

TEST_CASE("the writing-text lesson quotes what the shipped English model gives" * doctest::skip(!built())) {
  const auto f = figures("en", "The cat");
  check_claims("writing-text.md", f,
               {
                   "The model is about {size_mb} MB",
                   "learned {merges} of them from its whole corpus, so its vocabulary has {vocab} tokens",
                   "it picks one of those {vocab} tokens at each step",
                   "the model gives the token \"{favourite}\" a probability of {p_model}%.",
                   "\"{favourite}\" comes out about {in_100} times in 100, and something else the other {not_in_100} "
                   "times.",
                   "the less likely tokens together win about {not_in_100} times in 100.",
                   "With {vocab} tokens sharing the probability, even the favourite gets only {p_model}%.",
                   "After \"The cat\", the model gives \"{favourite}\" {p_model}%. At $\\tau = 0.8$ it gets "
                   "{p_cooled}%, and at $\\tau = 1.5$ only {p_warm}%.",
                   "top-k with $k = 40$ keeps 40 of the {vocab} tokens and \"{favourite}\" rises to {p_top_k}%; top-p "
                   "with $p = 0.9$ then keeps {kept_top_p} of those 40.",
                   // the top-p question: what top-k leaves, and the sums top-p walks through
                   "After top-k, \"{token_1}\" has {share_1}%, \"{token_2}\" {share_2}%, \"{token_3}\" {share_3}%, an "
                   "apostrophe {share_4}% and \"{token_5}\" {share_5}%.",
                   "\"{token_1}\", \"{token_2}\", \"{token_3}\" and the apostrophe add up to {sum_4}%, still under "
                   "0.5; with \"{token_5}\" they reach {sum_5}%, and top-p stops there.",
                   "half of the {kept_top_p} kept at 0.9",
                   "The same {kept_top_p} as at 0.9",
               });
  CHECK_MESSAGE(f.at("token_4") == "'", "the top-p question calls the fourth token an apostrophe");
  CHECK_MESSAGE(f.at("kept_half") == "5", "the top-p question's answer is five tokens");
}

TEST_CASE("the Spanish writing-text lesson quotes what the shipped Spanish model gives" * doctest::skip(!built())) {
  const auto f = figures("es", "El gato");
  check_claims(
      "es/writing-text.md", f,
      {
          "El modelo ocupa unos {size_mb} MB",
          "aprendió {merges} a partir de todo su corpus, así que su vocabulario tiene {vocab} tokens",
          "elige uno de esos {vocab} tokens en cada paso",
          "el modelo da al token «{favourite}» una probabilidad del {p_model} %.",
          "«{favourite}» sale unas {in_100} veces de cada 100, y otra cosa las {not_in_100} restantes.",
          "Después de «El gato», el modelo da a «{favourite}» un {p_model} %. Con $\\tau = 0{,}8$ sube al "
          "{p_cooled} %, y con $\\tau = 1{,}5$ baja al {p_warm} %.",
          "top-k con $k = 40$ deja 40 de los {vocab} tokens y «{favourite}» sube al {p_top_k} %; top-p con "
          "$p = 0{,}9$ deja después {kept_top_p} de esos 40.",
          // the top-p question: what top-k leaves, and the sums top-p walks through
          "Tras top-k, «{token_1}» tiene un {share_1} %, «{token_2}» un {share_2} % y «{token_3}» un {share_3} %.",
          "«{token_1}» solo tiene un {share_1} %, todavía por debajo de 0,5; con «{token_2}» llegan al {sum_2} %, y "
          "ahí top-p se detiene.",
          "la mitad de los {kept_top_p} que quedaban con 0,9",
          "Los mismos {kept_top_p} que con 0,9",
      });
  CHECK_MESSAGE(f.at("kept_half") == "2", "the top-p question's answer is two tokens");
}
