// model_view_settings.h: what a ```model-view block sets up (no ImGui; the lesson parser builds
// it with parse_model_view_settings, listed in engine/lesson/widget_kinds.h).
//
//   ```model-view
//   sentence: The girl slowly lifted the box.   the words to run (vocabulary words)
//   mask: none                                  none (default) or causal
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/lesson.h"

#include <string>

namespace neuralpath::ui {

struct ModelViewSettings : lesson::WidgetSettings {
  std::string sentence;
  bool causal = false;
};

}  // namespace neuralpath::ui
