// head_view_settings.h: what a ```head-view block sets up (no ImGui; the lesson parser builds it
// with parse_head_view_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```head-view
//   sentence: The girl slowly lifted the box.   the words to run (vocabulary words)
//   query: lifted                               optional: the word whose lines show first
//                                               (absent: every word's lines)
//   mask: none                                  none (default) or causal
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <string>

namespace neuralpath::widgets {

struct HeadViewSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (head_view_settings.cpp)
  std::string sentence;
  std::string query;  // a token key ("lifted"), or "" for every word
  bool causal = false;
};

}  // namespace neuralpath::widgets
