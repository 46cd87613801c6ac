// playback_settings.h: what a ```playback block sets up (no ImGui; the lesson parser builds it
// with parse_playback_settings, its folder is its kind (engine/widgets/widget_kinds.h) like every other kind).
//
//   ```playback
//   sentence: AI Agents Build Future
//   heads: 2                         0 (default) = as the lesson's weights say
//   mask: causal                     causal (the default) or none
//   steps: [tokens, qkv, scores]     playback step names in order; default every step
//   code: block-code                 a ```code block whose lines follow the steps
//   caption: ...
//   ```
#pragma once

#include "engine/core/model.h"
#include "engine/lesson/parser.h"

#include <memory>
#include <string>
#include <vector>

namespace neuralpath::widgets {

struct PlaybackSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (playback_settings.cpp)
  std::string sentence;
  int heads = 0;  // 0 = as the lesson's weights say
  bool causal = true;
  std::vector<std::string> steps;  // playback step names (lesson::playback_steps()), in order;
                                   // empty = every step the engine's trace has
  std::string code;                // id of a CodeBlock whose lines follow the steps; may be empty

  // What only the engine finds: heads that do not divide d_model, a listed step this model's
  // trace does not have (no context layers -> no "context" step).
  void check(const lesson::Lesson& lesson, const ModelSpec& resolved, lesson::SourcePos block,
             const Report& error) const override;
};

// The lesson's model with the block's "heads:" applied (it wins over the weights').
ModelSpec playback_spec(const lesson::Lesson& lesson, const PlaybackSettings& playback);

}  // namespace neuralpath::widgets
