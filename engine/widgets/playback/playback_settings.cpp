// playback_settings.cpp: a ```playback block's keys -> PlaybackSettings, and what the checker
// asks of it (read with the lesson parser's Fields, checked against engine/core's trace).
#include "engine/widgets/playback/playback_model.h"
#include "engine/widgets/playback/playback_settings.h"

#include "engine/core/error.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/parse_context.h"

namespace neuralpath::widgets {

ModelSpec playback_spec(const lesson::Lesson& lesson, const PlaybackSettings& playback) {
  ModelSpec spec = lesson::model_spec_for(lesson);
  if (playback.heads > 0) spec.attention.heads = playback.heads;
  return spec;
}

void PlaybackSettings::check(const lesson::Lesson& lesson, const ModelSpec& resolved, lesson::SourcePos block,
                             const Report& error) const {
  if (heads > 0 && resolved.d_model % heads != 0) {
    error(block, "the playback asks for " + std::to_string(heads) + " heads, which do not divide d_model (" +
                     std::to_string(resolved.d_model) + ")");
    return;
  }
  // Each listed step must exist in this model's trace (no context layers -> no "context" step;
  // feed-forward off -> no "feed-forward" step).
  try {
    TraceOptions options;
    options.mask = causal ? Mask::causal_mask() : Mask::none();
    const Trace trace = run_block(playback_spec(lesson, *this), sentence, options);
    for (const auto& step : steps) {
      bool found = false;
      for (auto kind : lesson::step_kinds(step))
        for (const auto& s : trace.steps) found = found || s.kind == kind;
      if (!found) error(block, "the playback step '" + step + "' has nothing to show: this model has no such step");
    }
  } catch (const InputError&) {
    // The sentence itself is reported with the other widget sentences.
  }
}

using lesson::is_playback_step;
using lesson::SettingsNode;

void PlaybackSettings::read(lesson::detail::WidgetFields& w) {
  sentence = w.sentence(kPlaybackMaxTokens);
  heads = static_cast<int>(w.fields.integer("heads", 0, 0, 64).value_or(0));
  causal = w.causal_mask();
  if (const SettingsNode* list = w.fields.list("steps", false)) {
    for (const auto& item : list->items) {
      if (item.kind != SettingsNode::Kind::Text || !is_playback_step(item.text.text())) {
        w.ctx.error(item.origin, "unknown playback step '" + item.text.text() + "'");
        continue;
      }
      steps.push_back(item.text.text());
    }
  }
  code = w.code_ref("code");
}

}  // namespace neuralpath::widgets
