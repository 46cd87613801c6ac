// mask_steps_settings.cpp: a ```mask-steps block's keys -> MaskStepsSettings, and the stage
// names. Part of the widget library; reads its keys with the
// lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/mask_steps/mask_steps_model.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"

namespace neuralpath::widgets {

using lesson::SettingsNode;

void MaskStepsSettings::read(lesson::detail::WidgetFields& w) {
  sentence = w.sentence(MaskStepsModel::kMaxTokens);
  causal = w.causal_mask();
  if (const SettingsNode* list = w.fields.list("stages", false)) {
    stages.clear();
    for (const auto& item : list->items) {
      auto stage = item.kind == SettingsNode::Kind::Text ? kMaskStages.parse(item.text.text()) : std::nullopt;
      if (!stage) {
        w.ctx.error(item.origin, "a stage is raw, scaled, masked or softmax");
        continue;
      }
      stages.push_back(*stage);
    }
    if (stages.empty()) stages = widgets::kMaskStages.all();  // errors above say why
  }
}

}  // namespace neuralpath::widgets
