// lm_args.h: what the language-model commands share (lm_command.cpp, lm_write_command.cpp):
// their --flag parsing, the shipped models by name, and tokens as JSON.
#pragma once

#include "json_io.h"

#include "engine/core/lm/model.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace neuralpath::cli {

// --flag value pairs, each flag at most once, only those `allowed` (InputError otherwise).
std::map<std::string, std::string> parse_flags(const std::vector<std::string>& args,
                                               const std::set<std::string>& allowed, const std::string& command);
const std::string& required(const std::map<std::string, std::string>& flags, const std::string& flag,
                            const std::string& command);
// The flag's value in [lo, hi], or `fallback` when absent; InputError naming the range otherwise.
long long whole_number(const std::map<std::string, std::string>& flags, const std::string& flag, long long fallback,
                       long long lo, long long hi);
float real_number(const std::map<std::string, std::string>& flags, const std::string& flag, float fallback, float lo,
                  float hi);

// The models the site ships (NEURALPATH_LM_SHIPPED, cmake/LanguageModels.cmake).
struct Shipped {
  std::string name, lang, config;
};
std::vector<Shipped> shipped_models();
std::string site_file(const Shipped& s);   // models/lm-NAME.nplm (the site's path)
std::string local_file(const Shipped& s);  // the native build's copy
// A shipped model's name or a file.
lm::LmModel model_arg(const std::string& value);

// Each token's text and id; a token that is not UTF-8 on its own also carries its "bytes".
Json token_list(const lm::BpeTokenizer& tokenizer, const std::vector<int>& ids);
std::string dump(const Json& j);  // invalid UTF-8 replaced, never thrown

}  // namespace neuralpath::cli
