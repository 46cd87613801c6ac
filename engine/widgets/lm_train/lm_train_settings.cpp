// lm_train_settings.cpp: a ```lm-train block's keys -> LmTrainSettings, read with the lesson
// parser's Fields (parse_context.h).
#include "engine/widgets/lm_train/lm_train_settings.h"

#include "engine/core/lm/config.h"
#include "engine/lesson/parse_context.h"
#include "engine/lm_worker/protocol.h"

namespace neuralpath::widgets {

void LmTrainSettings::read(lesson::detail::WidgetFields& w) {
  if (auto name = w.fields.source("config", false)) {
    if (name->text() != "page" && name->text() != "tiny")
      w.ctx.error(name->origin(0), "'config' should be page or tiny, not '" + name->text() + "'");
    else
      config = name->text();
  }
  seed = w.fields.integer("seed", 1, 0, lmworker::kMaxSeed).value_or(1);
  steps = static_cast<int>(w.fields.integer("steps", 0, 0, lmworker::kMaxSteps).value_or(0));
}

}  // namespace neuralpath::widgets
