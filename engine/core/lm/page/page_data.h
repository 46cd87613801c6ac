// page_data.h: the training text a page trains on, tokenized ahead of time (".nptok").
//
// The in-page language model (config "page", docs/language-model.md) trains in the learner's
// browser. Shipping the corpus as text would make the page learn the tokenizer and encode
// megabytes before its first step; instead the site's build (`neuralpath-cli lm pack`) does it
// once, from the pinned corpus, and the page downloads the result when the learner presses
// Train: the tokenizer's merges and the training and validation token streams (corpus.h's
// split and document tokens).
//
//   "NPTOK1\n"                       magic and format version
//   "key value\n" lines, "end\n"     a readable header: lang, corpus_hash, source, vocab_size,
//                                    train_tokens, validation_tokens, train_documents,
//                                    validation_documents, train_bytes, and optionally
//                                    repeat_per_mille (0 to 900: the repeat fraction; absent:
//                                    the config's)
//   merges       (vocab_size − 257) × 2 × uint16 LE (bpe.h)
//   train        train_tokens × uint16 LE
//   validation   validation_tokens × uint16 LE
//   checksum     uint64 LE: FNV-1a 64 of every byte before it
//
// Caps on the tokens (`lm pack --max-train-tokens`, `--max-validation-tokens`) keep the download
// small: whole documents are kept, evenly spread over the corpus (every k-th), so the text keeps
// the corpus's mix of topics and no document is half in.
// Reading refuses anything that is not exactly this format (InputError).
#pragma once

#include "engine/core/lm/bpe.h"
#include "engine/core/lm/corpus.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace neuralpath::lm {

inline constexpr std::size_t kMaxPageDataBytes = 64u << 20;

struct PageData {
  std::string lang;         // "en", "es" ("" when unknown)
  std::string corpus_hash;  // FNV-1a 64 of the corpus file (corpus.h), 16 hex digits
  std::string source;       // what the text is, for the lesson to name (one line)
  BpeTokenizer tokenizer;
  TokenStreams streams;
  int train_documents = 0, validation_documents = 0;
  std::size_t train_bytes = 0;  // bytes of the training documents kept
  // The share of training windows that repeat a stretch of their own text (corpus.h's
  // sample_batch), when this text needs another than the config's: with Spanish sayings at the
  // config's 0.5, seed 1 grew no induction head in 3,000 steps (seeds 2-4: late or none); at
  // 0.75 seeds 1-4 grew one by step 1,125-1,300. Packed with the text because it is a fact of
  // what the model is given, which the lesson in that language states. NaN: the config's.
  float repeat_fraction = NAN;
};

inline constexpr float kMaxRepeatFraction = 0.9f;  // some windows must stay plain text

// Learns a tokenizer of vocab_size from ALL the corpus's training documents (as `lm train` does),
// encodes both splits, and keeps documents of each, evenly spread, while their tokens fit in
// max_train_tokens / max_validation_tokens (0: all of them).
PageData pack_page_data(const Corpus& corpus, int vocab_size, std::size_t max_train_tokens,
                        std::size_t max_validation_tokens, std::string lang, std::string source,
                        float repeat_fraction = NAN);

std::string page_data_bytes(const PageData& data);
PageData page_data_from_bytes(std::string_view bytes);  // InputError on anything malformed

}  // namespace neuralpath::lm
