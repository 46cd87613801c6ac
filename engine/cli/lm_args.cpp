// lm_args.cpp: what the `lm` and `tokenize` commands share (lm_args.h).
#include "lm_args.h"

#include "engine/core/error.h"
#include "engine/core/lm/file_header.h"
#include "engine/core/lm/model_file.h"

#include <cmath>
#include <filesystem>

namespace neuralpath::cli {

using namespace neuralpath::lm;

// --flag value pairs, each flag at most once, only those `allowed`.
std::map<std::string, std::string> parse_flags(const std::vector<std::string>& args,
                                               const std::set<std::string>& allowed, const std::string& command) {
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
  const std::optional<long long> v = lm::whole_number(it->second, lo, hi);  // the files' rule (file_header.h)
  if (!v)
    throw InputError(flag + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     " (got '" + it->second + "')");
  return *v;
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
        throw InputError("the shipped model '" + s.name +
                         "' is not built yet (cmake --build --preset native --target lm_models)");
      return load_model(local_file(s));
    }
  return load_model(value);
}

namespace {

// Whether `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    unsigned lo = 0x80, hi = 0xbf;
    if (c < 0x80)
      extra = 0;
    else if (c >= 0xc2 && c <= 0xdf)
      extra = 1;
    else if (c == 0xe0)
      extra = 2, lo = 0xa0;
    else if (c == 0xed)
      extra = 2, hi = 0x9f;
    else if (c >= 0xe1 && c <= 0xef)
      extra = 2;
    else if (c == 0xf0)
      extra = 3, lo = 0x90;
    else if (c == 0xf4)
      extra = 3, hi = 0x8f;
    else if (c >= 0xf1 && c <= 0xf3)
      extra = 3;
    else
      return false;
    if (i + static_cast<std::size_t>(extra) >= s.size() && extra > 0) return false;  // cut short
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xbf)) return false;
    }
    i += 1 + static_cast<std::size_t>(extra);
  }
  return true;
}

}  // namespace

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

}  // namespace neuralpath::cli
