// mask_steps_settings.h: what a ```mask-steps block sets up (no ImGui; the lesson parser builds
// it with parse_mask_steps_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
//
//   ```mask-steps
//   sentence: The cat sat down
//   mask: causal                     causal (the default) or none
//   stages: [raw, scaled, masked, softmax]   in order; default all four
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

// One score matrix on its way to weights: raw -> scaled -> masked -> softmax.
enum class MaskStage { Raw, Scaled, Masked, Softmax };
inline constexpr EnumNames<MaskStage, 4> kMaskStages{{{{MaskStage::Raw, "raw"},
                                                       {MaskStage::Scaled, "scaled"},
                                                       {MaskStage::Masked, "masked"},
                                                       {MaskStage::Softmax, "softmax"}}}};

struct MaskStepsSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (mask_steps_settings.cpp)
  std::string sentence;
  bool causal = true;
  std::vector<MaskStage> stages = kMaskStages.all();  // never empty
};

}  // namespace neuralpath::widgets
