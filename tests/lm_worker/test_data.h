// test_data.h: a small corpus packed as page data, and a test config that trains on it in a
// fraction of a second (shared by the lm_worker suites).
#pragma once

#include "engine/core/lm/config.h"
#include "engine/core/lm/page/page_data.h"

#include <string>

namespace neuralpath::test {

// 60 documents in the fortune format, each a few sentences of a small vocabulary.
inline std::string small_corpus() {
    const char* sentences[] = {"The cat sat on the mat.", "A dog ran in the park.", "The sun is warm today.",
                               "We read a book at night.", "The bird sang a song.", "She likes green tea.",
                               "He walked to the old town.", "They played by the river."};
    std::string text;
    for (int doc = 0; doc < 60; ++doc) {
        for (int k = 0; k < 5; ++k) (text += sentences[(doc * 3 + k * 5) % 8]) += ' ';
        text += "\n%\n";
    }
    return text;
}

inline lm::PageData small_page_data(std::size_t max_train = 0, std::size_t max_validation = 0) {
    return lm::pack_page_data(lm::split_corpus(small_corpus()), 300, max_train, max_validation, "en", "test sentences");
}

// "tiny" made smaller: 16 tokens of context, batches of 4, 40 steps.
inline lm::LmConfig quick_config() {
    lm::LmConfig c = *lm::find_config("tiny");
    c.vocab_size = 300;
    c.context = 16;
    c.batch = 4;
    c.steps = 40;
    c.warmup_steps = 5;
    c.learning_rate = 1e-2f;
    c.val_batches = 2;
    return c;
}

}  // namespace neuralpath::test
