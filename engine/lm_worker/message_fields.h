// message_fields.h: reading and writing the JSON messages between a lesson page and a trainer
// in a Web Worker, strictly. Both workers' protocols use it: the language model's
// (engine/lm_worker/protocol.cpp) and the attention trainer's (engine/widgets/train/
// train_protocol.cpp).
//
//   Fields f(message, "train");   each field read once: integer, text, flag, real, array...
//   f.done();                     anything left unread is refused, so a misspelt field is never
//                                 silently ignored; every refusal throws Refused{one line}
//   number(x)                     a float as the shortest decimal that reads back as the same
//                                 float32 (null for NaN and infinities)
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <variant>

namespace neuralpath::worker_messages {

using Json = nlohmann::json;

struct Refused {
  std::string why;
};

// The fields of one message object: each read once; anything left unread is refused, so a
// misspelt field never goes unnoticed.
class Fields {
 public:
  Fields(const Json& message, std::string type) : message_(message), type_(std::move(type)) {}

  const Json* find(const char* name) {
    seen_.insert(name);
    const auto it = message_.find(name);
    return it == message_.end() ? nullptr : &*it;
  }
  const Json& need(const char* name) {
    const Json* v = find(name);
    if (!v) fail(std::string("needs '") + name + "'");
    return *v;
  }
  long long integer(const char* name, long long lo, long long hi, std::optional<long long> fallback = std::nullopt) {
    const Json* v = fallback ? find(name) : &need(name);
    if (!v) return *fallback;
    if (!v->is_number_integer()) fail(std::string("'") + name + "' must be a whole number");
    const long long n = v->get<long long>();
    if (n < lo || n > hi)
      fail(std::string("'") + name + "' must be from " + std::to_string(lo) + " to " + std::to_string(hi));
    return n;
  }
  std::optional<long long> optional_integer(const char* name, long long lo, long long hi) {
    if (!find(name)) return std::nullopt;
    return integer(name, lo, hi);
  }
  std::string text(const char* name, std::size_t limit, std::optional<std::string> fallback = std::nullopt) {
    const Json* v = fallback ? find(name) : &need(name);
    if (!v) return *fallback;
    if (!v->is_string()) fail(std::string("'") + name + "' must be a string");
    std::string s = v->get<std::string>();
    if (s.size() > limit) fail(std::string("'") + name + "' is longer than " + std::to_string(limit) + " bytes");
    return s;
  }
  bool flag(const char* name) {
    const Json& v = need(name);
    if (!v.is_boolean()) fail(std::string("'") + name + "' must be true or false");
    return v.get<bool>();
  }
  // A number, or null for "not measured" (NaN).
  float real(const char* name, bool required = true) {
    const Json* v = required ? &need(name) : find(name);
    if (!v || v->is_null()) return NAN;
    if (!v->is_number()) fail(std::string("'") + name + "' must be a number or null");
    return v->get<float>();
  }
  double count(const char* name) {
    const Json& v = need(name);
    if (!v.is_number() || v.get<double>() < 0) fail(std::string("'") + name + "' must be a number of at least 0");
    return v.get<double>();
  }
  const Json& array(const char* name) {
    const Json& v = need(name);
    if (!v.is_array()) fail(std::string("'") + name + "' must be an array");
    return v;
  }
  void done() {
    for (const auto& [key, value] : message_.items())
      if (key != "type" && !seen_.count(key)) fail("has an unknown field '" + key + "'");
  }
  [[noreturn]] void fail(const std::string& what) const { throw Refused{type_ + " " + what}; }

 private:
  const Json& message_;
  std::string type_;
  std::set<std::string> seen_;
};

inline Json number(float v) {
  if (!std::isfinite(v)) return nullptr;
  // The shortest decimal that reads back as the same float32 (std::to_chars for floats is missing
  // from Emscripten 3.1's libc++): at most 9 significant digits always do.
  char buffer[32];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, static_cast<double>(v));
    if (std::strtof(buffer, nullptr) == v) break;
  }
  return std::strtod(buffer, nullptr);
}

// A message of type Message read by read(type, fields), or the one-line reason it is not one.
template <class Message, class Read>
std::variant<Message, std::string> decode_with(const Json& message, Read read) {
  if (!message.is_object()) return std::string("a trainer message must be a JSON object");
  const auto type = message.find("type");
  if (type == message.end() || !type->is_string()) return std::string("a trainer message needs a \"type\" string");
  try {
    Fields f(message, type->get<std::string>());
    Message out = read(type->get<std::string>(), f);
    f.done();
    return out;
  } catch (const Refused& r) {
    return r.why;
  } catch (const nlohmann::json::exception& e) {  // a number too large for its type
    return type->get<std::string>() + ": " + e.what();
  }
}

}  // namespace neuralpath::worker_messages
