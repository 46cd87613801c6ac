// cost_explorer_settings.h: what a ```cost-explorer block sets up (no ImGui; the lesson parser
// builds it with parse_cost_explorer_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```cost-explorer
//   lengths: [1000, 10000, 100000]   sequence lengths to mark (growing, 1 .. 100000000)
//   heads: 12                        1 .. 1024 (default 1)
//   bytes: 2                         bytes per score, 1 .. 8 (default 2 = fp16)
//   tile: 64                         the tiled kernel's block, 1 .. 4096 (default 64)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <cstdint>
#include <vector>

namespace neuralpath::widgets {

struct CostExplorerSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (cost_explorer_settings.cpp)
  std::vector<std::int64_t> lengths;                // ascending
  int heads = 1;
  int bytes_per_score = 2;  // 2 = fp16, 4 = fp32
  int tile = 64;
};

}  // namespace neuralpath::widgets
