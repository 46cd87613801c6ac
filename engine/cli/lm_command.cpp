// lm_command.cpp: `neuralpath-cli lm ...` and `neuralpath-cli tokenize`, the language model
// (engine/core/lm; the contract is in the README, "The language model", and docs/language-model.md).
//
//   lm train --corpus FILE --config NAME [--steps N] [--seed S] [--threads N] [--lang CODE]
//       [--kernels avx512|avx2|sse2] --out FILE
//       one JSON line per logged step {"step", "loss", "val_loss", "tokens_per_s"} (and the best
//       head's "previous_token" and "induction" scores); the line where a head's induction score
//       first reaches 0.5 also carries "induction_crossed": {"layer", "head"}; the first line
//       (step 0) says which kernels ran: "kernels": {"products", "attention"}. --kernels caps the
//       instruction set (the same weights on every CPU that has it; the shipped models use avx2)
//   lm eval --model FILE --corpus FILE        {"val_loss", "perplexity", "bigram_val_loss",
//                                             "val_bits_per_byte", "val_tokens"}
//   lm generate --model FILE --prompt TEXT [--tokens N] [--temperature T] [--top-k K] [--top-p P] [--seed S]
//       [--no-cache]                          {"text", "tokens"}
//   lm next --model FILE --prompt TEXT [...]  the next token's distribution after each filter
//   lm cache --model FILE [...]               the KV cache's memory, and its time measured
//       (generate, next and cache: lm_write_command.cpp)
//   lm heads --model FILE                     {"heads": [{layer, head, previous_token, induction,
//                                             first_token}], "first_copy_loss", "second_copy_loss"}
//   lm models                                 {"models": [{name, lang, config, file}]}
//   tokenize --model FILE --text TEXT         {"tokens": [{"text", "id"}]}
// Wherever --model is taken, a shipped model's name ("en", "es") works as well as a file.
#include "commands.h"
#include "json_io.h"
#include "lm_args.h"
#include "lm_write_command.h"

#include "engine/core/error.h"
#include "engine/core/simd_attention.h"
#include "engine/core/lm/gemm.h"
#include "engine/core/lm/model_file.h"
#include "engine/core/lm/trainer.h"

#include <chrono>
#include <iostream>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

namespace neuralpath::cli {

namespace {

using namespace neuralpath::lm;

// [SECTION] Commands ---------------------------------------------------------------------------

int lm_train(const std::vector<std::string>& args) {
  const auto f = parse_flags(
      args, {"--corpus", "--config", "--steps", "--seed", "--threads", "--out", "--lang", "--kernels"}, "lm train");
  // Before any kernel runs: the dispatch keeps its first choice.
  if (f.count("--kernels") && !simd::limit_instruction_set(f.at("--kernels").c_str()))
    throw InputError(
        "lm train: --kernels must be avx512, avx2 or sse2 (the widest instruction set the kernels "
        "may use), not '" +
        f.at("--kernels") + "'");
  const std::string& corpus_path = required(f, "--corpus", "lm train");
  const std::string& config_name = required(f, "--config", "lm train");
  const std::string& out_path = required(f, "--out", "lm train");
  const LmConfig* config = find_config(config_name);
  if (!config) {
    std::string names;
    for (const std::string& n : config_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError("lm train: unknown config '" + config_name + "' (configs: " + names + ")");
  }
  TrainerOptions options;
  options.steps = static_cast<int>(whole_number(f, "--steps", config->steps, 1, 1000000));
  options.seed = static_cast<std::uint64_t>(whole_number(f, "--seed", 1, 0, 1LL << 53));
  options.threads = static_cast<int>(whole_number(f, "--threads", 1, 1, 64));
  const std::string lang = f.count("--lang") ? f.at("--lang") : "";
  if (lang.size() > 16 || lang.find_first_of(" \n\r\t") != std::string::npos)
    throw InputError("--lang must be a short code such as en");

  const Corpus corpus = read_corpus(corpus_path);
  {  // refuse an --out that cannot be written now, not after minutes of training
    const bool existed = std::filesystem::exists(out_path);
    if (existed && !std::filesystem::is_regular_file(out_path))
      throw InputError("lm train: --out '" + out_path + "' is not a regular file");
    if (!std::ofstream(out_path, std::ios::binary | std::ios::app))
      throw InputError("lm train: cannot write the model to '" + out_path + "'");
    if (!existed) std::filesystem::remove(out_path);
  }
  BpeTokenizer tokenizer = BpeTokenizer::train(corpus.training_text(), config->vocab_size);
  // A small corpus may run out of pairs worth merging before the config's vocabulary is full:
  // the model then has the vocabulary the text gave (its file says which).
  LmConfig shapes = *config;
  shapes.vocab_size = tokenizer.vocab_size();
  TokenStreams streams = tokenize_corpus(corpus, tokenizer);
  LmModel model = initial_model(shapes, std::move(tokenizer), options.seed);
  model.lang = lang;
  model.corpus_hash = corpus.hash;
  model.threads = options.threads;
  LmTrainer trainer(std::move(model), std::move(streams), options);

  const int every = std::max(1, config->log_every);
  double seconds = 0.0, tokens = 0.0;  // since the last logged line
  float last_loss = 0.0f;
  bool crossed = false;
  auto log = [&] {
    const HeadReport heads = trainer.head_scores();
    const HeadScore& best = heads.best_induction();
    Json line{{"step", trainer.steps_done()},
              {"loss", number_json(last_loss)},
              {"val_loss", number_json(trainer.validation_loss())},
              {"tokens_per_s", seconds > 0.0 ? Json(std::round(tokens / seconds)) : Json(nullptr)},
              {"previous_token", number_json(heads.best_previous_token().previous_token)},
              {"induction", number_json(best.induction)}};
    if (trainer.steps_done() == 0)
      line["kernels"] = {{"products", gemm_kernels().name}, {"attention", simd::default_variant().name}};
    if (!crossed && best.induction >= 0.5f) {
      crossed = true;
      line["induction_crossed"] = {{"layer", best.layer}, {"head", best.head}};
    }
    // Each line as it is logged (training takes minutes); everything that can be refused was
    // checked before the first one.
    std::cout << line.dump() << std::endl;
    seconds = tokens = 0.0;
  };
  log();  // step 0: before training
  while (trainer.steps_done() < trainer.total_steps()) {
    const auto start = std::chrono::steady_clock::now();
    last_loss = trainer.step();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tokens += trainer.tokens_per_step();
    if (trainer.steps_done() % every == 0 || trainer.steps_done() == trainer.total_steps()) log();
  }
  save_model(trainer.model(), out_path);
  return 0;
}

int lm_eval(const std::vector<std::string>& args, std::string& out) {
  const auto f = parse_flags(args, {"--model", "--corpus"}, "lm eval");
  const LmModel model = model_arg(required(f, "--model", "lm eval"));
  const Corpus corpus = read_corpus(required(f, "--corpus", "lm eval"));
  const TokenStreams streams = tokenize_corpus(corpus, model.tokenizer);
  // Every position of the validation stream, in consecutive windows of the context.
  const std::vector<int>& val = streams.validation;
  if (val.size() < 2) throw InputError("lm eval: the corpus's validation documents hold no tokens to predict");
  const LmConfig& c = model.config;
  const ParameterLayout layout = parameter_layout(c);
  Activations acts;
  double sum = 0.0;
  std::size_t rows = 0;
  for (std::size_t start = 0; start + 1 < val.size(); start += static_cast<std::size_t>(c.context)) {
    const int T = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(c.context), val.size() - 1 - start));
    const std::vector<int> in(val.begin() + static_cast<std::ptrdiff_t>(start),
                              val.begin() + static_cast<std::ptrdiff_t>(start) + T);
    const std::vector<int> tg(val.begin() + static_cast<std::ptrdiff_t>(start) + 1,
                              val.begin() + static_cast<std::ptrdiff_t>(start) + T + 1);
    sum += static_cast<double>(model_forward(c, layout, model.weights.data(), acts, in.data(), tg.data(), 1, T)) * T;
    rows += static_cast<std::size_t>(T);
  }
  const double val_loss = sum / static_cast<double>(rows);
  // Bits per byte: the same loss in a unit that does not depend on the tokenizer (a larger
  // vocabulary makes each token carry more bytes), so models with different vocabularies
  // compare. The predicted tokens are val[1..rows]; a document token stands for the one byte
  // that separates two documents in the file.
  double predicted_bytes = 0.0;
  for (std::size_t i = 1; i <= rows; ++i) {
    const std::size_t n = model.tokenizer.token_bytes(val[i]).size();
    predicted_bytes += static_cast<double>(n == 0 ? 1 : n);
  }
  const double bits_per_byte = sum / std::log(2.0) / predicted_bytes;
  const BigramModel bigram(streams.train, c.vocab_size);
  out = Json{{"val_loss", number_json(static_cast<float>(val_loss))},
             {"perplexity", number_json(static_cast<float>(std::exp(val_loss)))},
             {"bigram_val_loss", number_json(static_cast<float>(bigram.mean_loss(val)))},
             {"val_bits_per_byte", number_json(static_cast<float>(bits_per_byte))},
             {"val_tokens", rows}}
            .dump() +
        "\n";
  return 0;
}

int lm_heads(const std::vector<std::string>& args, std::string& out) {
  const auto f = parse_flags(args, {"--model"}, "lm heads");
  const LmModel model = model_arg(required(f, "--model", "lm heads"));
  const HeadReport r = score_heads(model);
  Json heads = Json::array();
  for (const HeadScore& h : r.heads)
    heads.push_back({{"layer", h.layer},
                     {"head", h.head},
                     {"previous_token", number_json(h.previous_token)},
                     {"induction", number_json(h.induction)},
                     {"first_token", number_json(h.first_token)}});
  out = Json{{"heads", heads},
             {"first_copy_loss", number_json(r.first_copy_loss)},
             {"second_copy_loss", number_json(r.second_copy_loss)},
             {"repeat_length", r.repeat_length}}
            .dump() +
        "\n";
  return 0;
}

int lm_models(const std::vector<std::string>& args, std::string& out) {
  if (!args.empty()) throw InputError("lm models: takes no arguments");
  Json models = Json::array();
  for (const Shipped& s : shipped_models())
    models.push_back({{"name", s.name},
                      {"lang", s.lang},
                      {"config", s.config},
                      {"file", site_file(s)},
                      {"built", std::filesystem::exists(local_file(s))}});
  out = Json{{"models", models}}.dump() + "\n";
  return 0;
}

}  // namespace

int run_lm(const std::vector<std::string>& args, std::string& stdout_text) {
  const std::string sub = args.empty() ? "" : args.front();
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "train") return lm_train(rest);
  if (sub == "eval") return lm_eval(rest, stdout_text);
  if (sub == "generate") return lm_generate(rest, stdout_text);  // lm_write_command.cpp, as next and cache
  if (sub == "next") return lm_next(rest, stdout_text);
  if (sub == "cache") return lm_cache(rest, stdout_text);
  if (sub == "heads") return lm_heads(rest, stdout_text);
  if (sub == "models") return lm_models(rest, stdout_text);
  throw InputError(sub.empty()
                       ? "lm: name a subcommand (train, eval, generate, next, cache, heads, models)"
                       : "lm: unknown subcommand '" + sub + "' (train, eval, generate, next, cache, heads, models)");
}

int run_tokenize(const std::vector<std::string>& args, std::string& stdout_text) {
  const auto f = parse_flags(args, {"--model", "--text"}, "tokenize");
  const LmModel model = model_arg(required(f, "--model", "tokenize"));
  const std::string& text = required(f, "--text", "tokenize");
  if (text.size() > (1u << 20)) throw InputError("tokenize: --text is longer than 1 MB");
  const std::vector<int> ids = model.tokenizer.encode(text);
  stdout_text = dump(Json{{"tokens", token_list(model.tokenizer, ids)}}) + "\n";
  return 0;
}

}  // namespace neuralpath::cli
