// split_join_settings.h: what a ```split-join block sets up (no ImGui; the lesson parser builds
// it with parse_split_join_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```split-join
//   sentence: The boy gently pushed the chair.
//   mask: none                       causal (the default) or none
//   query: pushed                    the word the narration follows (default: the last)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"
#include "engine/widgets/enum_names.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::widgets {

// The walk through one multi-head layer, in order: Q (or K, V) cut into column slices, one
// head's slices, its scores, scaled by 1/√d_head, its weights, its output, the heads joined,
// and W_O.
enum class SplitStage { cut, slice, scores, scale, softmax, mix, concat, output };
inline constexpr EnumNames<SplitStage, 8> kSplitStages{{{{SplitStage::cut, "cut"},
                                                         {SplitStage::slice, "slice"},
                                                         {SplitStage::scores, "scores"},
                                                         {SplitStage::scale, "scale"},
                                                         {SplitStage::softmax, "softmax"},
                                                         {SplitStage::mix, "mix"},
                                                         {SplitStage::concat, "concat"},
                                                         {SplitStage::output, "output"}}}};

struct SplitJoinSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (split_join_settings.cpp)
  std::string sentence;
  bool causal = true;
  std::string query;  // "" = the trace's focus token
};

}  // namespace neuralpath::widgets
