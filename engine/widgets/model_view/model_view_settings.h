// model_view_settings.h: what a ```model-view block sets up (no ImGui; the lesson parser builds
// it with parse_model_view_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```model-view
//   sentence: The girl slowly lifted the box.   the words to run (vocabulary words)
//   mask: none                                  none (default) or causal
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <string>

namespace neuralpath::widgets {

struct ModelViewSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (model_view_settings.cpp)
  std::string sentence;
  bool causal = false;
};

}  // namespace neuralpath::widgets
