// tokenizer_settings.h: what a ```tokenizer block sets up (no ImGui).
//
//   ```tokenizer
//   text: unbelievable, unbreakable and undeniable     the text shown cut into tokens (the
//                                                      learner may type their own)
//   learn:                                             the lines the tokenizer learns its merges
//     - believable breakable deniable able table        from (byte-level BPE, engine/core/lm/bpe.h)
//     - unable undo untie
//   merges: 40                                         how many merges it learns (1..2000)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <string>
#include <vector>

namespace neuralpath::widgets {

struct TokenizerSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (tokenizer_settings.cpp)
  std::string text;                                 // what the widget shows cut into tokens
  std::vector<std::string> learn;                   // the lines its merges are learned from
  int merges = 40;                                  // how many merges it learns (fewer when the lines run out of pairs)
};

}  // namespace neuralpath::widgets
