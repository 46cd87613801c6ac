// commands.h: the neuralpath-cli subcommands (contract: README.md, "The command-line tool").
// Each returns the process exit code; bad input throws neuralpath::InputError, which main()
// turns into exit 2 with one line on stderr and nothing on stdout.
#pragma once

#include <string>
#include <vector>

namespace neuralpath::cli {

// attend: JSON on stdin {"q","k","v","mask","kernel","block"} -> {"output","weights"} on stdout.
// mask defaults to "none", kernel to "naive", block (tiled only) to 64.
int run_attend(const std::string& stdin_text, std::string& stdout_text);

// trace [--sentence TEXT] [--lesson FILE] [--mask causal|none] [--lang CODE] [--focus N] [--terms] [--pretty]
int run_trace(const std::vector<std::string>& args, std::string& stdout_text);

// check [--kinds] FILE...: validates lessons with the lesson library (engine/lesson); --kinds
// also prints each file's widget kinds, one JSON line per file.
int run_check(const std::vector<std::string>& args, std::string& stdout_text, std::string& stderr_text);

// train --lesson FILE [--task NAME] [--steps N] [--seed S] [--out FILE]: JSON lines per logged step.
int run_train(const std::vector<std::string>& args, std::string& stdout_text);

// heads --lesson FILE [--task NAME]: per-head attention mass per relation and the divergence
// between heads, for the lesson's weights and for the untrained start (head_stats.h).
int run_heads(const std::vector<std::string>& args, std::string& stdout_text);

// lm train|eval|generate|heads|models ...: the language model (lm_command.cpp, docs/language-model.md).
int run_lm(const std::vector<std::string>& args, std::string& stdout_text);

// lm pack|page ...: the language model a lesson page trains, its data and its worker's messages
// (lm_page_command.cpp, docs/lm-worker.md). is_lm_page_command says which `lm` subcommands these are.
int run_lm_page(const std::vector<std::string>& args, std::string& stdout_text);
bool is_lm_page_command(const std::string& subcommand);

// tokenize --model FILE|NAME --text TEXT: a language model's BPE tokens {"tokens": [{"text", "id"}]}.
int run_tokenize(const std::vector<std::string>& args, std::string& stdout_text);

}  // namespace neuralpath::cli
