// page_data.cpp: packing, writing and reading the page's training tokens (page_data.h).
#include "engine/core/lm/page/page_data.h"

#include "engine/core/error.h"
#include "engine/core/lm/file_header.h"

#include <cmath>
#include <sstream>

namespace neuralpath::lm {

namespace {

constexpr const char* kMagic = "NPTOK1\n";

[[noreturn]] void bad(const std::string& what) { throw InputError("not a valid page data file: " + what); }

// A header value on one line of printable text (the source names a package and a licence).
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text.empty() ? "-" : text;
}

}  // namespace

namespace {

// Each document's tokens after its document token; then, under a cap, documents evenly spread
// over the list (every k-th, k = total / cap) while they fit, appended to `stream`. Returns how
// many were kept and adds their bytes to `bytes`.
int keep_spread(const BpeTokenizer& tokenizer, const std::vector<std::string>& documents, std::size_t cap,
                std::vector<int>& stream, std::size_t& bytes) {
  std::vector<std::vector<int>> docs;
  std::size_t total = 0;
  for (const std::string& text : documents) {
    std::vector<int> ids{kDocumentToken};
    const std::vector<int> encoded = tokenizer.encode(text);
    ids.insert(ids.end(), encoded.begin(), encoded.end());
    total += ids.size();
    docs.push_back(std::move(ids));
  }
  const double keep = (cap == 0 || total <= cap) ? 1.0 : static_cast<double>(cap) / static_cast<double>(total);
  int kept = 0;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const bool chosen = static_cast<std::size_t>(static_cast<double>(i + 1) * keep) >
                        static_cast<std::size_t>(static_cast<double>(i) * keep);
    if (!chosen || (cap > 0 && stream.size() + docs[i].size() > cap)) continue;
    stream.insert(stream.end(), docs[i].begin(), docs[i].end());
    bytes += documents[i].size();
    ++kept;
  }
  return kept;
}

}  // namespace

PageData pack_page_data(const Corpus& corpus, int vocab_size, std::size_t max_train_tokens,
                        std::size_t max_validation_tokens, std::string lang, std::string source,
                        float repeat_fraction) {
  if (!std::isnan(repeat_fraction) && !(repeat_fraction >= 0.0f && repeat_fraction <= kMaxRepeatFraction))
    throw InputError("lm pack: the repeat fraction must be from 0 to 0.9");
  PageData d;
  d.repeat_fraction = repeat_fraction;
  d.lang = std::move(lang);
  d.source = std::move(source);
  d.corpus_hash = corpus.hash;
  d.tokenizer = BpeTokenizer::train(corpus.training_text(), vocab_size);  // as `lm train` learns it
  d.train_documents = keep_spread(d.tokenizer, corpus.train, max_train_tokens, d.streams.train, d.train_bytes);
  std::size_t validation_bytes = 0;
  d.validation_documents =
      keep_spread(d.tokenizer, corpus.validation, max_validation_tokens, d.streams.validation, validation_bytes);
  if (d.streams.train.empty()) throw InputError("lm pack: no training document fits in the token cap");
  return d;
}

std::string page_data_bytes(const PageData& d) {
  std::ostringstream h;
  h << kMagic << "lang " << (d.lang.empty() ? "-" : one_line(d.lang)) << "\n"
    << "corpus_hash " << (d.corpus_hash.empty() ? "-" : d.corpus_hash) << "\n"
    << "source " << one_line(d.source) << "\n"
    << "vocab_size " << d.tokenizer.vocab_size() << "\ntrain_tokens " << d.streams.train.size()
    << "\nvalidation_tokens " << d.streams.validation.size() << "\ntrain_documents " << d.train_documents
    << "\nvalidation_documents " << d.validation_documents << "\ntrain_bytes " << d.train_bytes << "\n";
  // Per mille, a whole number: the file reads the same on every platform (no float printing).
  if (!std::isnan(d.repeat_fraction)) h << "repeat_per_mille " << std::lround(d.repeat_fraction * 1000.0f) << "\n";
  h << "end\n";
  std::string out = h.str();
  for (const auto& [a, b] : d.tokenizer.merges()) {
    put_u16(out, a);
    put_u16(out, b);
  }
  for (int id : d.streams.train) put_u16(out, id);
  for (int id : d.streams.validation) put_u16(out, id);
  append_checksum(out);
  return out;
}

PageData page_data_from_bytes(std::string_view in) {
  if (in.size() > kMaxPageDataBytes) bad("it is larger than 64 MB");
  const FileHeader header(in, kMagic,
                          {"lang", "corpus_hash", "source", "vocab_size", "train_tokens", "validation_tokens",
                           "train_documents", "validation_documents", "train_bytes", "repeat_per_mille"},
                          400, "page data file");
  PageData d;
  const int vocab = static_cast<int>(header.number("vocab_size", kFirstMerge, 65536));
  const auto train = static_cast<std::size_t>(header.number("train_tokens", 1, 1LL << 30));
  const auto validation = static_cast<std::size_t>(header.number("validation_tokens", 0, 1LL << 30));
  d.train_documents = static_cast<int>(header.number("train_documents", 1, 1LL << 30));
  d.validation_documents = static_cast<int>(header.number("validation_documents", 0, 1LL << 30));
  d.train_bytes = static_cast<std::size_t>(header.number("train_bytes", 0, 1LL << 40));
  d.lang = header.named("lang");
  d.corpus_hash = header.named("corpus_hash");
  d.source = header.named("source");
  if (header.has("repeat_per_mille"))
    d.repeat_fraction =
        static_cast<float>(header.number("repeat_per_mille", 0, std::lround(kMaxRepeatFraction * 1000.0f))) / 1000.0f;
  std::size_t at = header.data_at();
  const std::size_t merges = static_cast<std::size_t>(vocab - kFirstMerge);
  d.tokenizer = header.tokenizer(in, merges, train + validation, at);
  auto read_stream = [&](std::vector<int>& stream, std::size_t n) {
    stream.resize(n);
    for (std::size_t i = 0; i < n; ++i, at += 2) {
      stream[i] = get_u16(in, at);
      if (stream[i] >= vocab) bad("token " + std::to_string(stream[i]) + " is outside the vocabulary");
    }
  };
  read_stream(d.streams.train, train);
  read_stream(d.streams.validation, validation);
  return d;
}

}  // namespace neuralpath::lm
