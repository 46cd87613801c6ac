// sentences_corpus.h: the small corpus the language-model suites train on (tests/lm,
// tests/lm_decode, tests/lm_worker): eight short English sentences mixed into documents in the
// fortune format ("%" lines between them), so a tokenizer and a model learn something in a
// fraction of a second; and the config that does.
#pragma once

#include "engine/core/lm/config.h"

#include <string>

namespace neuralpath::testdata {

// `documents` documents of `per_document` sentences each; the mix differs from one to the next.
inline std::string sentences_corpus(int documents = 40, int per_document = 6) {
  const char* sentences[] = {"The cat sat on the mat.",    "A dog ran in the park.",   "The sun is warm today.",
                             "We read a book at night.",   "The bird sang a song.",    "She likes green tea.",
                             "He walked to the old town.", "They played by the river."};
  std::string text;
  for (int doc = 0; doc < documents; ++doc) {
    for (int k = 0; k < per_document; ++k) (text += sentences[(doc * 3 + k * 5) % 8]) += ' ';
    text += "\n%\n";
  }
  return text;
}

// "tiny" made smaller to learn this corpus in `steps` steps: 300 tokens, 16 of context, batches
// of 4, a learning rate well above tiny's.
inline lm::LmConfig quick_config(int steps) {
  lm::LmConfig c = *lm::find_config("tiny");
  c.vocab_size = 300;
  c.context = 16;
  c.batch = 4;
  c.steps = steps;
  c.warmup_steps = 5;
  c.learning_rate = 1e-2f;
  return c;
}

}  // namespace neuralpath::testdata
