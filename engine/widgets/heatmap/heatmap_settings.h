// heatmap_settings.h: what a ```heatmap block sets up (no ImGui; the lesson parser builds it
// with parse_heatmap_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```heatmap
//   sentence: The cat sat down
//   mask: causal                     causal (GPT, the default) or none
//   bert: yes                        offer a switch that removes the mask (default no)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <string>

namespace neuralpath::widgets {

struct HeatmapSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (heatmap_settings.cpp)
  std::string sentence;
  bool causal = true;        // mask on (GPT) or off
  bool bert_switch = false;  // the learner may switch the mask off (BERT) and on again
};

}  // namespace neuralpath::widgets
