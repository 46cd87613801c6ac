// neuralpath-cli: the lesson engine's maths from the command line (contract: README.md, "The
// command-line tool"; tests/cli checks it).
//
//   neuralpath-cli attend < input.json        attention on raw Q, K, V
//   neuralpath-cli trace --sentence TEXT ...  the whole block, step by step, with narration
//   neuralpath-cli check [--kinds] FILE...    validate lesson files (and list their widget kinds)
//   neuralpath-cli train --lesson FILE ...    train the lesson's model on one of its tasks
//   neuralpath-cli heads --lesson FILE ...    how its heads divide a task's relations
//   neuralpath-cli lm train|eval|generate|heads|models ...   the language model (lm_command.cpp)
//   neuralpath-cli lm pack|page ...          the model a lesson page trains (lm_page_command.cpp)
//   neuralpath-cli tokenize --model FILE --text TEXT         its BPE tokens
//
// Exit codes: 0 success; 1 `check` found problems; 2 bad input or usage (one line on stderr,
// nothing on stdout); 3 an unexpected internal error.
#include "attend_limits.h"
#include "commands.h"

#include "engine/core/error.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: neuralpath-cli attend < {\"q\": [[..]], \"k\": [[..]], \"v\": [[..]], \"mask\": \"causal\"|\"none\", "
    "\"kernel\": \"naive\"|\"tiled\"}\n"
    "       neuralpath-cli trace [--sentence TEXT] [--lesson FILE] [--mask causal|none] [--lang CODE] [--focus N] "
    "[--terms] [--pretty]\n"
    "       neuralpath-cli check [--kinds] FILE...\n"
    "       neuralpath-cli train --lesson FILE [--task NAME] [--steps N] [--seed S] [--out FILE] [--lang CODE]\n"
    "       neuralpath-cli heads --lesson FILE [--task NAME]\n"
    "       neuralpath-cli lm train --corpus FILE --config tiny|page|small|small-8k [--steps N] [--seed S] "
    "[--threads N] [--lang CODE] --out FILE\n"
    "       neuralpath-cli lm eval --model FILE|NAME --corpus FILE\n"
    "       neuralpath-cli lm generate --model FILE|NAME --prompt TEXT [--tokens N] [--temperature T] [--top-k K] "
    "[--seed S]\n"
    "       neuralpath-cli lm heads --model FILE|NAME\n"
    "       neuralpath-cli lm models\n"
    "       neuralpath-cli lm pack --corpus FILE --config NAME [--max-train-tokens N] [--max-validation-tokens N] "
    "[--lang CODE] [--source TEXT] --out FILE\n"
    "       neuralpath-cli lm page --data FILE [--config NAME] [--seed S] [--steps N] [--until N] [--text TEXT] "
    "[--prompt TEXT] [--attention]\n"
    "       neuralpath-cli tokenize --model FILE|NAME --text TEXT\n";

// One line, whatever the message holds, so scripts can read it with `read`.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// All of `file`, refusing more than `limit` bytes (stdin may be /dev/zero or a huge pipe).
std::string read_all(std::FILE* file, std::size_t limit, const char* what) {
  std::string text;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, n);
    if (text.size() > limit)
      throw neuralpath::InputError(std::string(what) + " is larger than " + std::to_string(limit >> 20) +
                                   " MB; the limit keeps memory bounded");
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string out, err;
  int code = 0;
  try {
    const std::string command = args.empty() ? "" : args.front();
    const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
    if (command == "attend") {
      if (!rest.empty()) throw neuralpath::InputError("attend: takes no arguments (JSON comes on stdin)");
      const std::string input = read_all(stdin, neuralpath::cli::kMaxAttendInputBytes, "stdin");
      code = neuralpath::cli::run_attend(input, out);
    } else if (command == "trace") {
      code = neuralpath::cli::run_trace(rest, out);
    } else if (command == "train") {
      code = neuralpath::cli::run_train(rest, out);
    } else if (command == "heads") {
      code = neuralpath::cli::run_heads(rest, out);
    } else if (command == "lm" && !rest.empty() && neuralpath::cli::is_lm_page_command(rest.front())) {
      code = neuralpath::cli::run_lm_page(rest, out);  // pack, page: lm_page_command.cpp
    } else if (command == "lm") {
      code = neuralpath::cli::run_lm(rest, out);
    } else if (command == "tokenize") {
      code = neuralpath::cli::run_tokenize(rest, out);
    } else if (command == "check") {
      code = neuralpath::cli::run_check(rest, out, err);
    } else if (command == "help" || command == "--help" || command == "-h") {
      out = kUsage;
    } else {
      throw neuralpath::InputError(command.empty() ? "no command (try: neuralpath-cli help)"
                                                   : "unknown command '" + command + "' (try: neuralpath-cli help)");
    }
  } catch (const neuralpath::InputError& e) {
    std::cerr << "neuralpath-cli: " << one_line(e.what()) << '\n';
    return 2;  // nothing was written to stdout
  } catch (const std::exception& e) {
    std::cerr << "neuralpath-cli: internal error: " << one_line(e.what()) << '\n';
    return 3;
  }
  std::cout << out << std::flush;
  std::cerr << err << std::flush;
  return code;
}
