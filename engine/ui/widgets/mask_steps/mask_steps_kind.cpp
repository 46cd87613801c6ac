// mask_steps_kind.cpp: the mask steps' registry entry (folder_kind.h), and what the text version
// offers before the first frame (the stages as buttons, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/mask_steps/mask_steps_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_mask_steps(const MaskStepsSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  json stages = json::array(), items = json::array();
  for (MaskStage stage : w.stages) {
    const std::string name = mask_stage_name(stage);
    stages.push_back(name);
    items.push_back({{"label", tr("widgets.stage." + name)},
                     {"command", {{"type", "stage"}, {"stage", name}}},
                     {"when", {{"stage", name}}}});
  }
  out["stages"] = std::move(stages);
  out["takes_sentence"] = true;
  out["choices"] = {{"label", tr("widgets.stage")}, {"items", items}};
}

}  // namespace

const WidgetKind& mask_steps_widget_kind() {
  return folder_widget_kind<MaskStepsSettings, MaskStepsModel, MaskStepsView, describe_mask_steps>();
}

}  // namespace neuralpath::ui
