// mask_steps_kind.cpp: the mask steps' registry entry (folder_kind.h), and what the text version
// offers before the first frame (the stages as buttons, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/mask_steps/mask_steps_view.h"
#include "engine/ui/widgets/step_through.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_mask_steps(const MaskStepsSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  std::vector<std::string> names;
  for (MaskStage stage : w.stages) names.push_back(mask_stage_name(stage));
  step_through::describe_stages(out, names, "widgets.stage.");
}

}  // namespace

const WidgetKind& mask_steps_widget_kind() {
  return folder_widget_kind<MaskStepsSettings, MaskStepsModel, MaskStepsView, describe_mask_steps>();
}

}  // namespace neuralpath::ui
