// file_header.h: what the language model's two file formats share (.nplm weights, model_file.h;
// .nptok page data, page/page_data.h). Both are laid out the same way:
//
//   MAGIC                      "NPLM1\n" or "NPTOK1\n"
//   "key value\n" ... "end\n"  the header: each key once, every key one the format knows
//   data                       16-bit little-endian numbers (put_u16 / get_u16)
//   checksum                   FNV-1a 64 of everything before it, 8 bytes little-endian
//
//   append_checksum(out)                 the writer's last step
//   FileHeader(in, magic, known, ...)    the reader's first: magic, checksum, header lines
//   header.number(key, lo, hi)           a whole number within [lo, hi], or the file is refused
//   header.text(key) / header.named(key) a value as written ("" when absent) / "-" read as ""
//   whole_number(text, lo, hi)           the digits rule numbers share with the command line
//   header.tokenizer(in, merges, numbers, at)   the data's tokenizer, its size checked first
#pragma once

#include "engine/core/lm/bpe.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace neuralpath::lm {

// `text` as a whole number written in full (no trailing characters) within [lo, hi], or nullopt.
std::optional<long long> whole_number(const std::string& text, long long lo, long long hi);

std::uint64_t fnv1a64(const char* data, std::size_t n);
void append_checksum(std::string& out);  // FNV-1a 64 of `out`, appended little-endian

inline void put_u16(std::string& out, int v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
inline int get_u16(std::string_view in, std::size_t at) {
  return static_cast<unsigned char>(in[at]) | (static_cast<unsigned char>(in[at + 1]) << 8);
}

class FileHeader {
 public:
  // Reads the start of `in`: `magic`, then header lines of at most `max_line` bytes up to "end"
  // (at most 32 keys), each key among `known`; checks the checksum at its end. Anything wrong
  // throws InputError("not a valid <what>: <why>").
  FileHeader(std::string_view in, std::string_view magic, std::initializer_list<const char*> known,
             std::size_t max_line, std::string what);

  long long number(const char* key, long long lo, long long hi) const;  // a missing key is refused too
  bool has(const char* key) const { return keys_.count(key) > 0; }
  std::string text(const char* key) const;          // as written; "" when absent
  std::string named(const char* key) const;         // as text(), with "-" (written for "none") read as ""
  std::size_t data_at() const { return data_at_; }  // where the data begins, just after "end\n"

  // The data both formats begin with: the tokenizer's `merges` pairs (two numbers each), then
  // `numbers` numbers of the format's own. Refuses a file whose data is not exactly that long,
  // or whose merges do not make a tokenizer; `at` moves past the merges.
  BpeTokenizer tokenizer(std::string_view in, std::size_t merges, std::size_t numbers, std::size_t& at) const;

  [[noreturn]] void bad(const std::string& why) const;  // InputError("not a valid <what>: <why>")

 private:
  std::map<std::string, std::string> keys_;
  std::size_t data_at_ = 0;
  std::string what_;
};

}  // namespace neuralpath::lm
