// file_header.cpp: the header, checksum and numbers of the lm's file formats (file_header.h).
#include "engine/core/lm/file_header.h"

#include "engine/core/error.h"

#include <exception>
#include <utility>
#include <vector>

namespace neuralpath::lm {

std::optional<long long> whole_number(const std::string& text, long long lo, long long hi) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;  // no digits, or out of long long's range
  }
  if (used == 0 || used != text.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

std::uint64_t fnv1a64(const char* data, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(data[i])) * 0x100000001b3ull;
  return h;
}

void append_checksum(std::string& out) {
  const std::uint64_t sum = fnv1a64(out.data(), out.size());
  for (int i = 0; i < 8; ++i) out += static_cast<char>((sum >> (8 * i)) & 0xff);
}

FileHeader::FileHeader(std::string_view in, std::string_view magic, std::initializer_list<const char*> known,
                       std::size_t max_line, std::string what)
    : what_(std::move(what)) {
  const std::string_view name = magic.substr(0, magic.find('\n'));  // "NPLM1"
  if (in.size() < magic.size() + 8 || in.substr(0, magic.size()) != magic)
    bad("it does not start with " + std::string(name));
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i)
    stored |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[in.size() - 8 + static_cast<std::size_t>(i)]))
              << (8 * i);
  if (stored != fnv1a64(in.data(), in.size() - 8)) bad("its checksum does not match (truncated or changed)");
  std::size_t at = magic.size();
  for (;;) {
    const std::size_t nl = in.find('\n', at);
    if (nl == std::string_view::npos || nl - at > max_line || keys_.size() > 32) bad("its header does not end");
    const std::string line(in.substr(at, nl - at));
    at = nl + 1;
    if (line == "end") break;
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || space == 0) bad("header line '" + line + "'");
    keys_[line.substr(0, space)] = line.substr(space + 1);
  }
  data_at_ = at;
  for (const auto& [key, value] : keys_) {
    bool ok = false;
    for (const char* name : known) ok = ok || key == name;
    if (!ok) bad("unknown header key '" + key + "'");
  }
}

long long FileHeader::number(const char* key, long long lo, long long hi) const {
  const auto it = keys_.find(key);
  if (it == keys_.end()) bad(std::string("no ") + key);
  const std::optional<long long> v = whole_number(it->second, lo, hi);
  if (!v) bad(std::string(key) + " '" + it->second + "'");
  return *v;
}

std::string FileHeader::text(const char* key) const {
  const auto it = keys_.find(key);
  return it == keys_.end() ? std::string() : it->second;
}

std::string FileHeader::named(const char* key) const {
  std::string value = text(key);
  return value == "-" ? std::string() : value;
}

BpeTokenizer FileHeader::tokenizer(std::string_view in, std::size_t merges, std::size_t numbers,
                                   std::size_t& at) const {
  const std::size_t data = in.size() - 8 - at;  // the last 8 bytes are the checksum
  if (data != 4 * merges + 2 * numbers)
    bad("it holds " + std::to_string(data) + " bytes of data; its header says " +
        std::to_string(4 * merges + 2 * numbers));
  std::vector<std::pair<int, int>> list;
  for (std::size_t i = 0; i < merges; ++i, at += 4) list.emplace_back(get_u16(in, at), get_u16(in, at + 2));
  try {
    return BpeTokenizer::from_merges(std::move(list));
  } catch (const InputError& e) {
    bad(e.what());
  }
}

void FileHeader::bad(const std::string& why) const { throw InputError("not a valid " + what_ + ": " + why); }

}  // namespace neuralpath::lm
