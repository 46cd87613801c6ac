// corpus.cpp: documents, the split, token streams and batches (corpus.h).
#include "engine/core/lm/corpus.h"

#include "engine/core/error.h"

#include <sys/stat.h>

#include <cstdio>
#include <memory>

namespace neuralpath::lm {

std::string Corpus::training_text() const {
  std::string text;
  for (const std::string& doc : train) (text += doc) += '\n';
  return text;
}

std::string fnv1a64_hex(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

Corpus split_corpus(std::string_view text) {
  Corpus c;
  c.hash = fnv1a64_hex(text);
  c.bytes = text.size();
  std::vector<std::string> docs;
  std::string current;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find('\n', i);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    const std::string_view line = text.substr(i, end - i);
    if (line == "%" || line == "%\r") {  // a document ends
      if (!current.empty()) docs.push_back(std::move(current));
      current.clear();
    } else {
      current.append(line);
      if (!last) current += '\n';
    }
    i = last ? end : end + 1;
  }
  if (!current.empty()) docs.push_back(std::move(current));
  if (docs.empty()) throw InputError("the corpus holds no text");
  if (docs.size() == 1) {  // one document: 90% / 10%
    const std::string& d = docs.front();
    std::size_t cut = d.rfind('\n', d.size() * 9 / 10);
    if (cut == std::string::npos || cut == 0) cut = d.size() * 9 / 10;
    if (cut == 0 || cut >= d.size())
      throw InputError("the corpus is too short to split into training and validation text");
    c.train.push_back(d.substr(0, cut));
    c.validation.push_back(d.substr(cut));
    return c;
  }
  for (std::size_t k = 0; k < docs.size(); ++k) (k % 10 == 9 ? c.validation : c.train).push_back(std::move(docs[k]));
  if (c.validation.empty()) {  // 2..9 documents: the last one
    c.validation.push_back(std::move(c.train.back()));
    c.train.pop_back();
  }
  return c;
}

std::string read_file_limited(const std::string& path, std::size_t limit, const char* what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(std::string(what) + " '" + path + "' cannot be read (no such file?)");
  if (!S_ISREG(st.st_mode)) throw InputError(std::string(what) + " '" + path + "' is not a regular file");
  if (static_cast<std::size_t>(st.st_size) > limit)
    throw InputError(std::string(what) + " '" + path + "' is larger than " + std::to_string(limit >> 20) +
                     " MB; the limit keeps memory bounded");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw InputError(std::string(what) + " '" + path + "' cannot be opened");
  std::string text;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0) {
    text.append(buffer, n);
    if (text.size() > limit)  // it grew while we read
      throw InputError(std::string(what) + " '" + path + "' is larger than " + std::to_string(limit >> 20) + " MB");
  }
  return text;
}

Corpus read_corpus(const std::string& path) { return split_corpus(read_file_limited(path, kMaxCorpusBytes, "corpus")); }

TokenStreams tokenize_corpus(const Corpus& corpus, const BpeTokenizer& tokenizer) {
  TokenStreams s;
  auto add = [&](std::vector<int>& stream, const std::vector<std::string>& docs) {
    for (const std::string& doc : docs) {
      stream.push_back(kDocumentToken);  // <doc> before each document
      const std::vector<int> ids = tokenizer.encode(doc);
      stream.insert(stream.end(), ids.begin(), ids.end());
    }
  };
  add(s.train, corpus.train);
  add(s.validation, corpus.validation);
  return s;
}

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void sample_batch(const std::vector<int>& stream, int B, int T, float repeat_fraction, SplitMix64& rng, int* inputs,
                  int* targets) {
  const std::size_t len = static_cast<std::size_t>(T) + 1;
  if (stream.size() < len) throw InputError("the training text has fewer tokens than one sequence needs");
  std::vector<int> seq(len);
  for (int b = 0; b < B; ++b) {
    const std::size_t start = rng.below(stream.size() - len + 1);
    // the coin is drawn for every sequence, so the order of draws never depends on it
    const bool repeat = static_cast<double>(rng.next() >> 11) * 0x1.0p-53 < repeat_fraction;
    const std::size_t span = static_cast<std::size_t>(T / 4) + rng.below(static_cast<std::uint64_t>(T / 4 + 1));
    for (std::size_t i = 0; i < len; ++i)
      seq[i] = (repeat && i >= span && span > 0) ? seq[i - span] : stream[start + i];  // seq[i] = seq[i − S]
    for (int t = 0; t < T; ++t) {
      inputs[b * T + t] = seq[static_cast<std::size_t>(t)];
      targets[b * T + t] = seq[static_cast<std::size_t>(t) + 1];
    }
  }
}

}  // namespace neuralpath::lm
