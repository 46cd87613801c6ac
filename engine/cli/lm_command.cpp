// lm_command.cpp: `neuralpath-cli lm ...` and `neuralpath-cli tokenize`, the language model
// (engine/core/lm; the contract is in the README, "The language model", and docs/language-model.md).
//
//   lm train --corpus FILE --config NAME [--steps N] [--seed S] [--threads N] [--lang CODE] --out FILE
//       one JSON line per logged step {"step", "loss", "val_loss", "tokens_per_s"} (and the best
//       head's "previous_token" and "induction" scores); the line where a head's induction score
//       first reaches 0.5 also carries "induction_crossed": {"layer", "head"}
//   lm eval --model FILE --corpus FILE        {"val_loss", "perplexity", "bigram_val_loss"}
//   lm generate --model FILE --prompt TEXT [--tokens N] [--temperature T] [--top-k K] [--seed S]
//   lm heads --model FILE                     {"heads": [{layer, head, previous_token, induction,
//                                             first_token}], "first_copy_loss", "second_copy_loss"}
//   lm models                                 {"models": [{name, lang, config, file}]}
//   tokenize --model FILE --text TEXT         {"tokens": [{"text", "id"}]}
// Wherever --model is taken, a shipped model's name ("en", "es") works as well as a file.
#include "commands.h"
#include "json_io.h"

#include "engine/core/error.h"
#include "engine/core/lm/model_file.h"
#include "engine/core/lm/sampling.h"
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

// --flag value pairs, each flag at most once, only those `allowed`.
std::map<std::string, std::string> parse_flags(const std::vector<std::string>& args, const std::set<std::string>& allowed,
                                               const std::string& command) {
    std::map<std::string, std::string> flags;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& flag = args[i];
        if (!allowed.count(flag)) {
            std::string list;
            for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
            throw InputError(command + ": unknown argument '" + flag + "' (it takes " + list + ")");
        }
        if (i + 1 >= args.size()) throw InputError(command + ": " + flag + " needs a value");
        if (flags.count(flag)) throw InputError(command + ": " + flag + " is given twice");
        flags[flag] = args[++i];
    }
    return flags;
}

const std::string& required(const std::map<std::string, std::string>& flags, const std::string& flag,
                            const std::string& command) {
    const auto it = flags.find(flag);
    if (it == flags.end()) throw InputError(command + ": " + flag + " is required");
    return it->second;
}

long long whole_number(const std::map<std::string, std::string>& flags, const std::string& flag, long long fallback,
                       long long lo, long long hi) {
    const auto it = flags.find(flag);
    if (it == flags.end()) return fallback;
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(it->second, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != it->second.size() || v < lo || v > hi)
        throw InputError(flag + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                         " (got '" + it->second + "')");
    return v;
}

float real_number(const std::map<std::string, std::string>& flags, const std::string& flag, float fallback, float lo,
                  float hi) {
    const auto it = flags.find(flag);
    if (it == flags.end()) return fallback;
    std::size_t used = 0;
    float v = 0.0f;
    try {
        v = std::stof(it->second, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != it->second.size() || !std::isfinite(v) || v < lo || v > hi)
        throw InputError(flag + " must be a number from " + number_json(lo).dump() + " to " + number_json(hi).dump() +
                         " (got '" + it->second + "')");
    return v;
}

// [SECTION] Shipped models ---------------------------------------------------------------------

struct Shipped {
    std::string name, lang, config;
};

// NEURALPATH_LM_SHIPPED: "name:lang:config,..." and NEURALPATH_LM_MODELS_DIR, from the build
// (cmake/LanguageModels.cmake, the one list of what the site ships).
std::vector<Shipped> shipped_models() {
    std::vector<Shipped> out;
    const std::string list = NEURALPATH_LM_SHIPPED;
    std::size_t at = 0;
    while (at < list.size()) {
        std::size_t end = list.find(',', at);
        if (end == std::string::npos) end = list.size();
        const std::string item = list.substr(at, end - at);
        const std::size_t a = item.find(':'), b = item.find(':', a + 1);
        if (a != std::string::npos && b != std::string::npos)
            out.push_back({item.substr(0, a), item.substr(a + 1, b - a - 1), item.substr(b + 1)});
        at = end + 1;
    }
    return out;
}

std::string site_file(const Shipped& s) { return "models/lm-" + s.name + ".nplm"; }
std::string local_file(const Shipped& s) { return std::string(NEURALPATH_LM_MODELS_DIR) + "/lm-" + s.name + ".nplm"; }

LmModel model_arg(const std::string& value) {
    for (const Shipped& s : shipped_models())
        if (value == s.name && !std::filesystem::exists(value)) {
            if (!std::filesystem::exists(local_file(s)))
                throw InputError("the shipped model '" + s.name + "' is not built yet (cmake --build --preset native --target lm_models)");
            return load_model(local_file(s));
        }
    return load_model(value);
}

// Whether `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int extra = 0;
        unsigned lo = 0x80, hi = 0xbf;
        if (c < 0x80) extra = 0;
        else if (c >= 0xc2 && c <= 0xdf) extra = 1;
        else if (c == 0xe0) extra = 2, lo = 0xa0;
        else if (c == 0xed) extra = 2, hi = 0x9f;
        else if (c >= 0xe1 && c <= 0xef) extra = 2;
        else if (c == 0xf0) extra = 3, lo = 0x90;
        else if (c == 0xf4) extra = 3, hi = 0x8f;
        else if (c >= 0xf1 && c <= 0xf3) extra = 3;
        else return false;
        if (i + static_cast<std::size_t>(extra) >= s.size() && extra > 0) return false;  // cut short
        for (int k = 1; k <= extra; ++k) {
            const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xbf)) return false;
        }
        i += 1 + static_cast<std::size_t>(extra);
    }
    return true;
}

// Each token's text and id. A token whose bytes are not UTF-8 on their own (half of a character,
// or bytes that are not text) shows U+FFFD in "text" and carries its exact "bytes" as numbers,
// so the ids (or the bytes) always give the input back.
Json token_list(const BpeTokenizer& tokenizer, const std::vector<int>& ids) {
    Json tokens = Json::array();
    for (int id : ids) {
        const std::string& bytes = tokenizer.token_bytes(id);
        Json token{{"text", bytes}, {"id", id}};
        if (!valid_utf8(bytes)) {
            Json raw = Json::array();
            for (unsigned char c : bytes) raw.push_back(static_cast<int>(c));
            token["bytes"] = raw;
        }
        tokens.push_back(std::move(token));
    }
    return tokens;
}

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

// [SECTION] Commands ---------------------------------------------------------------------------

int lm_train(const std::vector<std::string>& args) {
    const auto f = parse_flags(args, {"--corpus", "--config", "--steps", "--seed", "--threads", "--out", "--lang"}, "lm train");
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
    if (lang.size() > 16 || lang.find_first_of(" \n\r\t") != std::string::npos) throw InputError("--lang must be a short code such as en");

    const Corpus corpus = read_corpus(corpus_path);
    {   // refuse an --out that cannot be written now, not after minutes of training
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
        const std::vector<int> in(val.begin() + static_cast<std::ptrdiff_t>(start), val.begin() + static_cast<std::ptrdiff_t>(start) + T);
        const std::vector<int> tg(val.begin() + static_cast<std::ptrdiff_t>(start) + 1, val.begin() + static_cast<std::ptrdiff_t>(start) + T + 1);
        sum += static_cast<double>(model_forward(c, layout, model.weights.data(), acts, in.data(), tg.data(), 1, T)) * T;
        rows += static_cast<std::size_t>(T);
    }
    const double val_loss = sum / static_cast<double>(rows);
    const BigramModel bigram(streams.train, c.vocab_size);
    out = Json{{"val_loss", number_json(static_cast<float>(val_loss))},
               {"perplexity", number_json(static_cast<float>(std::exp(val_loss)))},
               {"bigram_val_loss", number_json(static_cast<float>(bigram.mean_loss(val)))},
               {"val_tokens", rows}}
              .dump() + "\n";
    return 0;
}

int lm_generate(const std::vector<std::string>& args, std::string& out) {
    const auto f = parse_flags(args, {"--model", "--prompt", "--tokens", "--temperature", "--top-k", "--seed"}, "lm generate");
    const LmModel model = model_arg(required(f, "--model", "lm generate"));
    const std::string& prompt = required(f, "--prompt", "lm generate");
    if (prompt.size() > 65536) throw InputError("lm generate: --prompt is longer than 65536 bytes");
    SampleOptions o;
    o.tokens = static_cast<int>(whole_number(f, "--tokens", o.tokens, 0, 4096));
    o.temperature = real_number(f, "--temperature", o.temperature, 0.0f, 100.0f);
    o.top_k = static_cast<int>(whole_number(f, "--top-k", o.top_k, 0, 65536));
    o.seed = static_cast<std::uint64_t>(whole_number(f, "--seed", 1, 0, 1LL << 53));
    const Generation g = generate(model, prompt, o);
    out = dump(Json{{"text", g.text}, {"tokens", token_list(model.tokenizer, g.tokens)}}) + "\n";
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
              .dump() + "\n";
    return 0;
}

int lm_models(const std::vector<std::string>& args, std::string& out) {
    if (!args.empty()) throw InputError("lm models: takes no arguments");
    Json models = Json::array();
    for (const Shipped& s : shipped_models())
        models.push_back({{"name", s.name}, {"lang", s.lang}, {"config", s.config}, {"file", site_file(s)},
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
    if (sub == "generate") return lm_generate(rest, stdout_text);
    if (sub == "heads") return lm_heads(rest, stdout_text);
    if (sub == "models") return lm_models(rest, stdout_text);
    throw InputError(sub.empty() ? "lm: name a subcommand (train, eval, generate, heads, models)"
                                 : "lm: unknown subcommand '" + sub + "' (train, eval, generate, heads, models)");
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
