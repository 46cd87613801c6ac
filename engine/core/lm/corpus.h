// corpus.h: text in, training and validation tokens out, and the batches training draws.
//
// A corpus file is text (any bytes) cut into documents by lines that hold only "%" (the fortune
// format scripts/fetch-corpus.sh writes; a file with no such line is one document). Documents
// are split, not bytes: every tenth document (index 9, 19, ...) is validation, the others
// training, so no document is in both. A single document is split at the last line break
// before 90% of its bytes.
//
// Each document's tokens follow one document token (bpe.h), in file order, making one stream
// for training and one for validation. A training sequence is T + 1 consecutive tokens of the
// stream from a seeded random start (inputs the first T, targets the last T). With
// repeat_fraction > 0, that share of the sequences is text in which a span repeats: the first
// S tokens (S drawn from T/4 .. T/2) are the stream's, and from there on the sequence starts
// over from its own beginning (seq[i] = seq[i − S]). Still next-token prediction on real text;
// only the second copy of the span becomes predictable from the first, which is what an
// induction head exploits (docs/language-model.md says why the page's model is given this).
#pragma once

#include "engine/core/lm/bpe.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lm {

inline constexpr std::size_t kMaxCorpusBytes = 64u << 20;  // 64 MB

struct Corpus {
  std::vector<std::string> train, validation;  // documents
  std::string hash;                            // FNV-1a 64 of the file's bytes, 16 hex digits
  std::size_t bytes = 0;

  std::string training_text() const;  // the training documents joined by "\n"
};

Corpus split_corpus(std::string_view text);
// Reads a regular file of at most kMaxCorpusBytes. Throws InputError naming the problem.
Corpus read_corpus(const std::string& path);
// A regular file of at most `limit` bytes, read whole (InputError otherwise; `what` names it).
std::string read_file_limited(const std::string& path, std::size_t limit, const char* what);

struct TokenStreams {
  std::vector<int> train, validation;
};
TokenStreams tokenize_corpus(const Corpus& corpus, const BpeTokenizer& tokenizer);

std::string fnv1a64_hex(std::string_view bytes);

// A seeded source of uniform integers (splitmix64), whose whole state is one number.
struct SplitMix64 {
  std::uint64_t state = 0;
  std::uint64_t next();
  std::uint64_t below(std::uint64_t n) { return next() % n; }  // [0, n)
};

// Fills inputs and targets [B·T] with B training sequences (see the top of the file).
void sample_batch(const std::vector<int>& stream, int B, int T, float repeat_fraction, SplitMix64& rng, int* inputs,
                  int* targets);

}  // namespace neuralpath::lm
