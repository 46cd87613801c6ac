// lm_train_settings.h: what a ```lm-train block sets up (no ImGui): a small language model the
// learner trains in the page, in a Web Worker (engine/lm_worker, web/shell/np-lm-worker.js).
//
//   ```lm-train
//   id: trainer
//   config: page          the model's config (engine/core/lm/config.h): page, or tiny (tests)
//   seed: 1               the first run's seed (the learner may pick another)
//   steps: 3000           the schedule's length (0 or left out: the config's)
//   caption: ...
//   ```
// The training tokens are the page language's corpus (models/train-<lang>.nptok, English when
// the language has none); the learner's text and the samples' prompt start as the catalogue's
// words for that language (lm_train.default_text, lm_train.default_prompt), so a translated
// lesson needs no other block.
#pragma once

#include "engine/lesson/parser.h"

#include <cstdint>
#include <string>

namespace neuralpath::widgets {

struct LmTrainSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (lm_train_settings.cpp)
  std::string config = "page";
  std::int64_t seed = 1;
  int steps = 0;
};

}  // namespace neuralpath::widgets
