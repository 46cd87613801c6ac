// tokenizer_test.cpp: how a sentence becomes the rows a learner sees.
#include "engine/core/error.h"
#include "engine/core/tokenizer.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace neuralpath;

namespace {
std::vector<std::string> texts(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const Token& t : tokens) out.push_back(t.text);
  return out;
}
}  // namespace

TEST_CASE("words and punctuation become separate tokens, with lower-case keys") {
  const auto tokens = tokenize("The cat didn't sit, did it?");
  CHECK(texts(tokens) == std::vector<std::string>{"The", "cat", "didn't", "sit", ",", "did", "it", "?"});
  CHECK(tokens[0].key == "the");
  CHECK(tokens[4].is_punctuation);
  CHECK_FALSE(tokens[2].is_punctuation);
  CHECK(tokens[1].byte_begin == 4);
  CHECK(tokens[1].byte_end == 7);
}

TEST_CASE("apostrophes and hyphens join words only between letters") {
  CHECK(texts(tokenize("'well-known' -x")) == std::vector<std::string>{"'", "well-known", "'", "-", "x"});
}

TEST_CASE("UTF-8 words stay whole and Unicode punctuation is its own token") {
  const auto tokens = tokenize("Café naïve 猫… “Hi” didn’t");
  CHECK(texts(tokens) == std::vector<std::string>{"Café", "naïve", "猫", "…", "“", "Hi", "”", "didn’t"});
  CHECK(tokens[0].key == "café");
  CHECK(tokens.back().key == "didn't");  // ’ looks up like '
}

TEST_CASE("invalid UTF-8 is a clear error, not a crash") {
  CHECK_THROWS_AS(tokenize("bad \xC3 byte"), InputError);
  CHECK_THROWS_AS(tokenize("\xED\xA0\x80"), InputError);  // a UTF-16 surrogate
  CHECK_THROWS_WITH(tokenize("ok \xFF"), doctest::Contains("not valid UTF-8"));
}

TEST_CASE("an empty sentence has no tokens and 513 tokens are over the documented limit") {
  CHECK(tokenize("   ").empty());
  std::string words;
  for (int i = 0; i < kMaxTokens; ++i) words += "a ";
  CHECK(tokenize(words).size() == static_cast<std::size_t>(kMaxTokens));
  CHECK_THROWS_WITH(tokenize(words + "b"), doctest::Contains("513 tokens; the limit is 512"));
}
