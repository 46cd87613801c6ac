// spotlight_settings.h: what a ```spotlight block sets up (no ImGui; the lesson parser builds
// it with parse_spotlight_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```spotlight
//   sentence: The animal didn't cross the street because it was too tired.
//   query: it                        the word whose attention is shown (must occur)
//   alternatives:                    other sentences the learner can switch to (optional)
//     - The animal didn't cross the street because it was too wide.
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <string>
#include <vector>

namespace neuralpath::widgets {

struct SpotlightSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (spotlight_settings.cpp)
  std::string sentence;
  std::string query;                      // "it"
  std::vector<std::string> alternatives;  // each checked by the lesson checker like the sentence
};

}  // namespace neuralpath::widgets
