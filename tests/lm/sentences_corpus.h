// sentences_corpus.h: the small corpus the language-model suites train on (tests/lm,
// tests/lm_decode, tests/lm_worker): eight short English sentences mixed into documents in the
// fortune format ("%" lines between them), so a tokenizer and a model learn something in a
// fraction of a second.
#pragma once

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

}  // namespace neuralpath::testdata
