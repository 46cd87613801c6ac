// playback_settings.cpp: a ```playback block's keys -> PlaybackSettings, and what the checker
// asks of it. Compiled into the lesson library (engine/lesson/CMakeLists.txt), so it may use the
// lesson's parser and engine/core only.
#include "engine/ui/playback/playback_settings.h"

#include "engine/core/error.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/parse_context.h"

namespace neuralpath::ui {

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

}  // namespace neuralpath::ui

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_playback_settings(WidgetFields& w) {
  auto p = std::make_shared<ui::PlaybackSettings>();
  p->sentence = w.sentence();
  p->heads = static_cast<int>(w.fields.integer("heads", 0, 0, 64).value_or(0));
  p->causal = w.causal_mask();
  if (const SettingsNode* steps = w.fields.list("steps", false)) {
    for (const auto& item : steps->items) {
      if (item.kind != SettingsNode::Kind::Text || !is_playback_step(item.text.text())) {
        w.ctx.error(item.origin, "unknown playback step '" + item.text.text() + "'");
        continue;
      }
      p->steps.push_back(item.text.text());
    }
  }
  p->code = w.code_ref("code");
  return p;
}

}  // namespace neuralpath::lesson::detail
