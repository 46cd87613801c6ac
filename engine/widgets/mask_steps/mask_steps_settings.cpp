// mask_steps_settings.cpp: a ```mask-steps block's keys -> MaskStepsSettings, and the stage
// names. Part of the widget library; reads its keys with the
// lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/mask_steps/mask_steps_model.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"

namespace neuralpath::widgets {

const char* mask_stage_name(MaskStage stage) {
  switch (stage) {
    case MaskStage::Raw: return "raw";
    case MaskStage::Scaled: return "scaled";
    case MaskStage::Masked: return "masked";
    case MaskStage::Softmax: return "softmax";
  }
  return "";
}

std::optional<MaskStage> parse_mask_stage(std::string_view name) {
  for (MaskStage s : all_mask_stages())
    if (name == mask_stage_name(s)) return s;
  return std::nullopt;
}

const std::vector<MaskStage>& all_mask_stages() {
  static const std::vector<MaskStage> all = {MaskStage::Raw, MaskStage::Scaled, MaskStage::Masked, MaskStage::Softmax};
  return all;
}

using lesson::SettingsNode;

void MaskStepsSettings::read(lesson::detail::WidgetFields& w) {
  sentence = w.sentence(MaskStepsModel::kMaxTokens);
  causal = w.causal_mask();
  if (const SettingsNode* list = w.fields.list("stages", false)) {
    stages.clear();
    for (const auto& item : list->items) {
      auto stage = item.kind == SettingsNode::Kind::Text ? widgets::parse_mask_stage(item.text.text()) : std::nullopt;
      if (!stage) {
        w.ctx.error(item.origin, "a stage is raw, scaled, masked or softmax");
        continue;
      }
      stages.push_back(*stage);
    }
    if (stages.empty()) stages = widgets::all_mask_stages();  // errors above say why
  }
}

}  // namespace neuralpath::widgets
