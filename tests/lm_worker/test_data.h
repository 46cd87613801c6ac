// test_data.h: a small corpus packed as page data, and a test config that trains on it in a
// fraction of a second (shared by the lm_worker suites).
#pragma once

#include "engine/core/lm/config.h"
#include "engine/core/lm/page/page_data.h"

#include <string>
#include "../lm/sentences_corpus.h"

namespace neuralpath::test {

// 60 documents in the fortune format, each five sentences of a small vocabulary.
inline std::string small_corpus() { return testdata::sentences_corpus(60, 5); }

inline lm::PageData small_page_data(std::size_t max_train = 0, std::size_t max_validation = 0) {
  return lm::pack_page_data(lm::split_corpus(small_corpus()), 300, max_train, max_validation, "en", "test sentences");
}

// The language-model suites' quick config (sentences_corpus.h): 40 steps, 2 validation batches.
inline lm::LmConfig quick_config() {
  lm::LmConfig c = testdata::quick_config(40);
  c.val_batches = 2;
  return c;
}

}  // namespace neuralpath::test
