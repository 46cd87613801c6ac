// tokenizer.h: a sentence -> word tokens, the units every attention view has one row for.
//
// Rules (deliberately simple so a learner can predict them):
//   * a word is a maximal run of letters, digits, apostrophes and joining hyphens, so
//     "didn't" and "well-known" stay one token;
//   * every other visible character (. , ! ? ; : " ( ) ...) is a token of its own;
//   * whitespace separates tokens and is dropped;
//   * an apostrophe or hyphen joins only between two word characters; elsewhere it is
//     punctuation ("'hi'" is three tokens);
//   * text is decoded as UTF-8 and never split mid-character: non-ASCII letters (é, ü, 猫,
//     emoji) are word characters; Unicode punctuation (“ ” « » — … ¿ ¡ and the General
//     Punctuation and CJK punctuation blocks) is punctuation, Unicode spaces separate, and
//     ’ (U+2019) joins like an apostrophe; invalid UTF-8 is an InputError;
//   * `key` is the ASCII-lower-cased text with ’ written as ' (other non-ASCII unchanged),
//     used for vocabulary lookup; `text` is the original spelling shown to the learner.
// A sentence with more than kMaxTokens tokens is an InputError ("... 600 tokens; the limit is
// 512"): the naive kernel's T×T matrices and the trace grow with T², and a lesson sentence
// never needs that many. An empty (or all-whitespace) sentence gives zero tokens.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath {

inline constexpr int kMaxTokens = 512;

struct Token {
  std::string text;        // as written: "The"
  std::string key;         // lookup key: "the"
  std::size_t byte_begin;  // [byte_begin, byte_end) in the sentence
  std::size_t byte_end;
  bool is_punctuation;
};

std::vector<Token> tokenize(std::string_view sentence);  // throws InputError (invalid UTF-8, > kMaxTokens)

}  // namespace neuralpath
