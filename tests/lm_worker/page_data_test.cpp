// page_data_test.cpp: the page's packed training tokens (engine/core/lm/page/page_data.h).
#include "engine/core/error.h"
#include "test_data.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace neuralpath;
using namespace neuralpath::lm;

namespace {

int documents_in(const std::vector<int>& stream) {
  return static_cast<int>(std::count(stream.begin(), stream.end(), kDocumentToken));
}

// `bytes` with its checksum made right again after a change.
std::string resealed(std::string bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i + 8 < bytes.size(); ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ull;
  for (int i = 0; i < 8; ++i)
    bytes[bytes.size() - 8 + static_cast<std::size_t>(i)] = static_cast<char>((h >> (8 * i)) & 0xff);
  return bytes;
}

}  // namespace

TEST_CASE("packed page data reads back as the same tokenizer, streams and header") {
  const PageData d = test::small_page_data();
  REQUIRE(d.streams.train.size() > 100);
  const std::string bytes = page_data_bytes(d);
  REQUIRE(bytes.rfind("NPTOK1\n", 0) == 0);
  const PageData back = page_data_from_bytes(bytes);
  CHECK(back.tokenizer.merges() == d.tokenizer.merges());
  CHECK(back.streams.train == d.streams.train);
  CHECK(back.streams.validation == d.streams.validation);
  CHECK(back.lang == "en");
  CHECK(back.source == "test sentences");
  CHECK(back.train_documents == 54);  // every tenth of the 60 documents is validation
  CHECK(back.validation_documents == 6);
  CHECK(back.train_bytes == d.train_bytes);
  CHECK(page_data_bytes(back) == bytes);
}

TEST_CASE("packing encodes the corpus as lm train does: a document token, then each document's tokens") {
  const Corpus corpus = split_corpus(test::small_corpus());
  const PageData d = test::small_page_data();
  const BpeTokenizer same = BpeTokenizer::train(corpus.training_text(), 300);
  CHECK(d.tokenizer.merges() == same.merges());
  CHECK(d.streams.train == tokenize_corpus(corpus, same).train);
  CHECK(documents_in(d.streams.train) == d.train_documents);
}

TEST_CASE("a token cap keeps whole documents spread over the corpus, within the cap") {
  const PageData all = test::small_page_data();
  const std::size_t cap = all.streams.train.size() / 3;
  const PageData some = test::small_page_data(cap, 0);
  CHECK(some.streams.train.size() <= cap);
  CHECK(some.streams.train.size() > cap / 2);
  CHECK(some.streams.train.front() == kDocumentToken);
  CHECK(documents_in(some.streams.train) == some.train_documents);
  CHECK(some.train_documents < all.train_documents);
  CHECK(some.streams.validation == all.streams.validation);  // validation has its own cap
  // Spread: the last training document of the corpus is reachable, not just the first third.
  const Corpus corpus = split_corpus(test::small_corpus());
  const std::vector<int> last_doc = some.tokenizer.encode(corpus.train.back());
  const auto found =
      std::search(some.streams.train.begin(), some.streams.train.end(), last_doc.begin(), last_doc.end());
  CHECK(found != some.streams.train.end());
  CHECK_THROWS_AS(test::small_page_data(3, 0), InputError);  // no document fits in 3 tokens
}

TEST_CASE("reading refuses anything that is not exactly a page data file") {
  const std::string bytes = page_data_bytes(test::small_page_data());
  CHECK_THROWS_WITH_AS(page_data_from_bytes("NPLM1\nend\n12345678"), doctest::Contains("NPTOK1"), InputError);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  CHECK_THROWS_WITH_AS(page_data_from_bytes(flipped), doctest::Contains("checksum"), InputError);
  CHECK_THROWS_WITH_AS(page_data_from_bytes(bytes.substr(0, bytes.size() - 3)), doctest::Contains("checksum"),
                       InputError);
  std::string extra = bytes;
  extra.insert(extra.find("end\n"), "colour blue\n");
  CHECK_THROWS_WITH_AS(page_data_from_bytes(resealed(extra)), doctest::Contains("unknown header key 'colour'"),
                       InputError);
  std::string shorter = bytes;
  shorter.erase(shorter.size() - 10, 2);  // one token fewer than the header says
  CHECK_THROWS_WITH_AS(page_data_from_bytes(resealed(shorter)), doctest::Contains("bytes of data"), InputError);
  std::string outside = bytes;
  const std::size_t last_token = outside.size() - 10;
  outside[last_token] = static_cast<char>(0xff);
  outside[last_token + 1] = static_cast<char>(0x7f);
  CHECK_THROWS_WITH_AS(page_data_from_bytes(resealed(outside)), doctest::Contains("outside the vocabulary"),
                       InputError);
}

TEST_CASE("a text's own repeat fraction is packed as per mille, read back, and absent means the config's") {
  const PageData plain = test::small_page_data();
  CHECK(std::isnan(plain.repeat_fraction));
  CHECK(page_data_bytes(plain).find("repeat_per_mille") == std::string::npos);  // files without it still read
  CHECK(std::isnan(page_data_from_bytes(page_data_bytes(plain)).repeat_fraction));

  const Corpus corpus = split_corpus(test::small_corpus());
  const PageData packed = pack_page_data(corpus, 300, 0, 0, "es", "test", 0.75f);
  const std::string bytes = page_data_bytes(packed);
  CHECK(bytes.find("\nrepeat_per_mille 750\n") != std::string::npos);
  CHECK(page_data_from_bytes(bytes).repeat_fraction == doctest::Approx(0.75f));

  CHECK_THROWS_AS(pack_page_data(corpus, 300, 0, 0, "es", "test", 0.95f), InputError);  // some windows stay plain
  CHECK_THROWS_AS(pack_page_data(corpus, 300, 0, 0, "es", "test", -0.1f), InputError);
  std::string over = bytes;
  over.replace(over.find("repeat_per_mille 750"), 20, "repeat_per_mille 950");
  CHECK_THROWS_AS(page_data_from_bytes(resealed(over)), InputError);
}
