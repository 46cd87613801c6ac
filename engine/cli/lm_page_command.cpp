// lm_page_command.cpp: the language model a lesson page trains, from the command line
// (docs/lm-worker.md; the page's own numbers come from the same code).
//
//   lm pack --corpus FILE --config NAME [--max-train-tokens N] [--max-validation-tokens N] [--lang CODE]
//           [--source TEXT] [--repeat-fraction F] --out FILE
//       the page's training data (page_data.h): learns the config's tokenizer from the corpus's
//       training documents, encodes both splits, writes the .nptok file; prints
//       {"file", "bytes", "vocab_size", "train_tokens", "validation_tokens", "train_documents",
//        "validation_documents", "train_bytes", "repeat_fraction"}; --repeat-fraction (0 to 0.9)
//       packs the share of training windows that repeat a stretch for this text (page_data.h),
//       null in the output when the config's applies
//   lm page --data FILE [--config NAME] [--seed S] [--steps N] [--until N] [--text TEXT]
//           [--prompt TEXT] [--attention]
//       runs the page's trainer worker (trainer_worker.h) natively and prints every message it
//       would post to the page, one JSON line each (protocol.h): ready, then a snapshot at step 0,
//       at every measured step and at the end. Without --attention the snapshots leave out the
//       attention grids (text, probe), which are most of their bytes.
#include "commands.h"
#include "lm_args.h"

#include "engine/core/error.h"
#include "engine/core/lm/page/page_data.h"
#include "engine/lm_worker/trainer_worker.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace neuralpath::cli {

namespace {

using Json = nlohmann::json;

// --flag value pairs and bare switches, each at most once, only those named.
struct Flags {
  std::map<std::string, std::string> values;
  std::set<std::string> switches;
};

Flags read_flags(const std::vector<std::string>& args, const std::set<std::string>& with_value,
                 const std::set<std::string>& bare, const std::string& command) {
  Flags f;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (bare.count(flag)) {
      if (!f.switches.insert(flag).second) throw InputError(command + ": " + flag + " is given twice");
      continue;
    }
    if (!with_value.count(flag)) {
      std::string list;
      for (const std::string& a : with_value) list += (list.empty() ? "" : ", ") + a;
      for (const std::string& a : bare) list += ", " + a;
      throw InputError(command + ": unknown argument '" + flag + "' (it takes " + list + ")");
    }
    if (i + 1 >= args.size()) throw InputError(command + ": " + flag + " needs a value");
    if (f.values.count(flag)) throw InputError(command + ": " + flag + " is given twice");
    f.values[flag] = args[++i];
  }
  return f;
}

const lm::LmConfig& config_named(const std::string& name, const std::string& command) {
  const lm::LmConfig* c = lm::find_config(name);
  if (!c) {
    std::string names;
    for (const std::string& n : lm::config_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError(command + ": unknown config '" + name + "' (configs: " + names + ")");
  }
  return *c;
}

int lm_pack(const std::vector<std::string>& args, std::string& out) {
  const Flags f = read_flags(args,
                             {"--corpus", "--config", "--max-train-tokens", "--max-validation-tokens", "--lang",
                              "--source", "--repeat-fraction", "--out"},
                             {}, "lm pack");
  const lm::LmConfig& config = config_named(required(f.values, "--config", "lm pack"), "lm pack");
  const std::string& out_path = required(f.values, "--out", "lm pack");
  const auto cap = static_cast<std::size_t>(whole_number(f.values, "--max-train-tokens", 0, 0, 1LL << 30));
  const auto validation_cap =
      static_cast<std::size_t>(whole_number(f.values, "--max-validation-tokens", 0, 0, 1LL << 30));
  const std::string lang = f.values.count("--lang") ? f.values.at("--lang") : "";
  const std::string source = f.values.count("--source") ? f.values.at("--source") : "";
  if (lang.size() > 16 || lang.find_first_of(" \n\r\t") != std::string::npos)
    throw InputError("--lang must be a short code such as en");
  if (source.size() > 300) throw InputError("--source must be at most 300 bytes");
  if (std::filesystem::exists(out_path) && !std::filesystem::is_regular_file(out_path))
    throw InputError("lm pack: --out '" + out_path + "' is not a regular file");
  const lm::Corpus corpus = lm::read_corpus(required(f.values, "--corpus", "lm pack"));
  const float repeat = f.values.count("--repeat-fraction")
                           ? real_number(f.values, "--repeat-fraction", NAN, 0.0f, lm::kMaxRepeatFraction)
                           : NAN;
  const lm::PageData data = lm::pack_page_data(corpus, config.vocab_size, cap, validation_cap, lang, source, repeat);
  const std::string bytes = lm::page_data_bytes(data);
  {
    std::ofstream file(out_path, std::ios::binary | std::ios::trunc);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file.flush()) throw InputError("lm pack: cannot write '" + out_path + "'");
  }
  out = dump(Json{{"file", out_path},
                  {"bytes", bytes.size()},
                  {"vocab_size", data.tokenizer.vocab_size()},
                  {"train_tokens", data.streams.train.size()},
                  {"validation_tokens", data.streams.validation.size()},
                  {"train_documents", data.train_documents},
                  {"validation_documents", data.validation_documents},
                  {"train_bytes", data.train_bytes},
                  {"repeat_fraction", std::isnan(data.repeat_fraction) ? Json(nullptr) : Json(data.repeat_fraction)}}) +
        "\n";
  return 0;
}

int lm_page(const std::vector<std::string>& args) {
  const Flags f = read_flags(args, {"--data", "--config", "--seed", "--steps", "--until", "--text", "--prompt"},
                             {"--attention"}, "lm page");
  lmworker::Open open;
  open.data = required(f.values, "--data", "lm page");
  open.config = f.values.count("--config") ? f.values.at("--config") : "page";
  (void)config_named(open.config, "lm page");
  open.seed = whole_number(f.values, "--seed", 1, 0, lmworker::kMaxSeed);
  open.steps = static_cast<int>(whole_number(f.values, "--steps", 0, 0, lmworker::kMaxSteps));
  if (f.values.count("--text")) open.text = f.values.at("--text");
  if (f.values.count("--prompt")) open.prompt = f.values.at("--prompt");
  if (open.text.size() > lmworker::kMaxTextBytes || open.prompt.size() > lmworker::kMaxTextBytes)
    throw InputError("lm page: --text and --prompt hold at most " + std::to_string(lmworker::kMaxTextBytes) + " bytes");
  const std::string bytes = lm::read_file_limited(open.data, lm::kMaxPageDataBytes, "page data");
  const bool attention = f.switches.count("--attention") > 0;

  lmworker::TrainerWorker worker;
  auto print = [&](const std::vector<lmworker::Reply>& replies) {
    for (const lmworker::Reply& reply : replies) {
      if (const auto* error = std::get_if<lmworker::Error>(&reply)) throw InputError("lm page: " + error->message);
      Json j = lmworker::encode(reply);
      if (!attention) {
        j.erase("text");
        j.erase("probe");
      }
      std::cout << dump(j) << std::endl;  // as they come: a run takes minutes
    }
  };
  print(worker.open(bytes, open));
  lmworker::Train train{open.run, std::nullopt};
  if (f.values.count("--until"))
    train.until = static_cast<int>(whole_number(f.values, "--until", 0, 1, lmworker::kMaxSteps));
  print(worker.handle(train));
  while (worker.running()) print(worker.work(1, 1e12));
  return 0;
}

}  // namespace

int run_lm_page(const std::vector<std::string>& args, std::string& stdout_text) {
  const std::string sub = args.empty() ? "" : args.front();
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "pack") return lm_pack(rest, stdout_text);
  if (sub == "page") return lm_page(rest);
  throw InputError("lm: unknown subcommand '" + sub + "'");
}

bool is_lm_page_command(const std::string& sub) { return sub == "pack" || sub == "page"; }

}  // namespace neuralpath::cli
