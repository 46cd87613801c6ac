// playback_kind.cpp: the course playback's registry entry (registry.h): its model and view, and
// what the text version offers before the first frame (the transport, a sentence form).
#include "engine/ui/playback/playback_widget.h"
#include "engine/ui/widgets/registry.h"

namespace neuralpath::ui {

using nlohmann::json;

const WidgetKind& playback_widget_kind() {
  static const WidgetKind kind = {
      PlaybackModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        const auto* settings = lesson::widget_settings<PlaybackSettings>(block);
        if (!settings) return nullptr;
        // Not folder_widget_kind(): the model also reads the lesson (the code block it follows).
        return std::make_unique<PlaybackWidget>(PlaybackModel(*settings, lesson, spec));
      },
      [](const lesson::Block& block, json& out) {
        const auto* w = lesson::widget_settings<PlaybackSettings>(block);
        if (!w) return;
        out["sentence"] = w->sentence;
        out["causal"] = w->causal;
        out["steps"] = w->steps;
        out["code"] = w->code;
        out["takes_sentence"] = true;
        out["transport"] = true;
      }};
  return kind;
}

}  // namespace neuralpath::ui
