// head_cost_settings.h: what a ```head-cost block sets up (no ImGui; the lesson parser builds it
// with parse_head_cost_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```head-cost
//   d-model: 512        the layer's width to start with, 1 .. 65536 (default 512)
//   heads: 8            must divide d-model (default 8)
//   tokens: 1000        T to start with, 1 .. 1000000 (default 1000)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <cstdint>

namespace neuralpath::widgets {

struct HeadCostSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (head_cost_settings.cpp)
  std::int64_t d_model = 512;
  std::int64_t heads = 8;
  std::int64_t tokens = 1000;
};

}  // namespace neuralpath::widgets
