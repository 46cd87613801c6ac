// bpe_test.cpp: the byte-level BPE tokenizer: training is deterministic, decoding an encoding
// gives back the input for any bytes, and merges never cross a chunk's edge.
#include "engine/core/error.h"
#include "engine/core/lm/bpe.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace neuralpath::lm;

namespace {

const std::string kText =
    "The cat sat on the mat. The cat ate the rat. The mat was flat, and the cat sat flat.\n"
    "El gato se sentó en la alfombra; la niña comió piña y el niño, ñoquis.\n"
    "1999 and 2024: numbers too. The the the cat cat.\n";

}  // namespace

TEST_CASE("training learns the requested number of merges, the same ones every time") {
  const BpeTokenizer a = BpeTokenizer::train(kText, 300);
  const BpeTokenizer b = BpeTokenizer::train(kText, 300);
  CHECK(a.vocab_size() <= 300);
  CHECK(a.vocab_size() > 270);  // this text has that many pairs that occur twice or more
  CHECK(a.merges() == b.merges());
  // the most frequent pair in this text is learned first: "t" then "h"... as the first merge
  // some pair of letters; and a frequent word becomes one token
  const std::vector<int> ids = a.encode(" cat");
  CHECK(ids.size() == 1);
}

TEST_CASE("decode(encode(x)) == x for any bytes: invalid UTF-8, NULs, control bytes, every byte value") {
  const BpeTokenizer t = BpeTokenizer::train(kText, 320);
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  const std::string cases[] = {"",
                               "a",
                               " ",
                               "\n\n",
                               all,
                               std::string("nul\0inside", 10),
                               "\xff\xfe\xc3",
                               "\xc3(",                                      // broken UTF-8
                               "ni\xc3\xb1o \xe2\x82\xac \xf0\x9f\x98\x80",  // ñ, €, an emoji
                               "The cat sat.",
                               "   leading and trailing   ",
                               "...---!!!",
                               "tab\tand\rcarriage"};
  for (const std::string& x : cases) {
    CAPTURE(x.size());
    CHECK(t.decode(t.encode(x)) == x);
  }
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int round = 0; round < 200; ++round) {
    std::string x(static_cast<std::size_t>(byte(rng) % 64), '\0');
    for (char& c : x) c = static_cast<char>(byte(rng));
    CHECK(t.decode(t.encode(x)) == x);
  }
}

TEST_CASE("a huge input round-trips and encodes in linear time (4 MB of text)") {
  const BpeTokenizer t = BpeTokenizer::train(kText, 320);
  std::string big;
  while (big.size() < (4u << 20)) big += kText;
  const std::vector<int> ids = t.encode(big);
  MESSAGE(ids.size() << " tokens for " << big.size() << " bytes");
  CHECK(ids.size() < big.size() * 6 / 10);  // merges do their job (63 merges of this short text)
  CHECK(t.decode(ids) == big);
  // one 1 MB "word" with no spaces: one chunk, still merged and round-tripped
  const std::string word(1u << 20, 'a');
  CHECK(t.decode(t.encode(word)) == word);
}

TEST_CASE("chunks: a word keeps one space before it, and merges never cross into the next word") {
  const auto c = BpeTokenizer::chunks("The cat  sat, 42 ñu...\n");
  const std::vector<std::string_view> expected{"The", " cat", " ", " sat", ",", " 42", " ñu", "...", "\n"};
  CHECK(c == expected);
  const BpeTokenizer t = BpeTokenizer::train(kText, 320);
  for (int id : t.encode("the cat sat on the mat")) {
    const std::string& bytes = t.token_bytes(id);
    CHECK(bytes.find(' ', 1) == std::string::npos);  // a space only ever leads a token
  }
}

TEST_CASE("the document token decodes to nothing, and ids out of range or merges out of order are refused") {
  const BpeTokenizer t = BpeTokenizer::train(kText, 300);
  CHECK(t.decode({kDocumentToken, 'a', kDocumentToken}) == "a");
  CHECK(t.encode("x").front() != kDocumentToken);
  CHECK_THROWS_AS(t.decode({t.vocab_size()}), neuralpath::InputError);
  CHECK_THROWS_AS(t.decode({-1}), neuralpath::InputError);
  CHECK_THROWS_AS(BpeTokenizer::from_merges({{'a', 258}}), neuralpath::InputError);  // 258 not made yet
  CHECK_THROWS_AS(BpeTokenizer::from_merges({{'a', kDocumentToken}}), neuralpath::InputError);
  CHECK_THROWS_AS(BpeTokenizer::train(kText, 100), neuralpath::InputError);
  CHECK(BpeTokenizer::from_merges(t.merges()).encode(kText) == t.encode(kText));  // merges are all it needs
}

TEST_CASE("a token is never longer than kMaxTokenBytes: merges that double a token are refused, training skips them") {
  // merge i joins the previous merge with itself: token 257 + i has 2^(i+1) bytes, so a list of
  // 40 such merges (160 bytes in a model file) once asked for 2^41 bytes of token text
  std::vector<std::pair<int, int>> doubling{{'a', 'a'}};
  for (int i = 1; i < 40; ++i) doubling.emplace_back(kFirstMerge + i - 1, kFirstMerge + i - 1);
  const std::vector<std::pair<int, int>> longest_allowed(doubling.begin(), doubling.begin() + 8);  // 256 bytes
  CHECK(BpeTokenizer::from_merges(longest_allowed).token_bytes(kFirstMerge + 7).size() == kMaxTokenBytes);
  CHECK_THROWS_WITH_AS(BpeTokenizer::from_merges(doubling), doctest::Contains("512 bytes"), neuralpath::InputError);
  // a corpus with long runs of one letter: training would learn 512-, 1,024-, ... byte tokens
  const std::string run(5000, 'a');
  const std::string text = run + " " + run + " b" + run + "\n" + run;
  const BpeTokenizer t = BpeTokenizer::train(text, 300);
  CHECK(t.vocab_size() > kFirstMerge + 7);
  std::size_t longest = 0;
  for (int id = 0; id < t.vocab_size(); ++id) longest = std::max(longest, t.token_bytes(id).size());
  CHECK(longest == kMaxTokenBytes);
  CHECK(t.decode(t.encode(text)) == text);
  CHECK(BpeTokenizer::from_merges(t.merges()).encode(text) == t.encode(text));
}
