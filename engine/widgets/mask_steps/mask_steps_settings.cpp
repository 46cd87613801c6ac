// mask_steps_settings.cpp: a ```mask-steps block's keys -> MaskStepsSettings, and the stage
// names. Compiled into the lesson library (engine/lesson/CMakeLists.txt), so it may use the
// lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/mask_steps/mask_steps_settings.h"

namespace neuralpath::ui {

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

}  // namespace neuralpath::ui

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_mask_steps_settings(WidgetFields& w) {
  auto m = std::make_shared<ui::MaskStepsSettings>();
  m->sentence = w.sentence();
  m->causal = w.causal_mask();
  if (const SettingsNode* stages = w.fields.list("stages", false)) {
    m->stages.clear();
    for (const auto& item : stages->items) {
      auto stage = item.kind == SettingsNode::Kind::Text ? ui::parse_mask_stage(item.text.text()) : std::nullopt;
      if (!stage) {
        w.ctx.error(item.origin, "a stage is raw, scaled, masked or softmax");
        continue;
      }
      m->stages.push_back(*stage);
    }
    if (m->stages.empty()) m->stages = ui::all_mask_stages();  // errors above say why
  }
  return m;
}

}  // namespace neuralpath::lesson::detail
