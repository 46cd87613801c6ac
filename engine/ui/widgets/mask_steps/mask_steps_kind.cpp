// mask_steps_kind.cpp: the mask steps' registry entry (registry.h): its model and view, and
// what the text version offers before the first frame (the stages as buttons, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/mask_steps/mask_steps_view.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"

namespace neuralpath::ui {

using nlohmann::json;
using MaskStepsWidget = ModelViewWidget<MaskStepsModel, MaskStepsView>;

const WidgetKind& mask_steps_widget_kind() {
  static const WidgetKind kind = {
      MaskStepsModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson&, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        return std::make_unique<MaskStepsWidget>(MaskStepsModel(std::get<lesson::MaskSteps>(block.content), spec));
      },
      [](const lesson::Block& block, json& out) {
        const auto& w = std::get<lesson::MaskSteps>(block.content);
        out["sentence"] = w.sentence;
        out["causal"] = w.causal;
        json stages = json::array(), items = json::array();
        for (lesson::MaskStage stage : w.stages) {
          const std::string name = lesson::mask_stage_name(stage);
          stages.push_back(name);
          items.push_back({{"label", tr("widgets.stage." + name)},
                           {"command", {{"type", "stage"}, {"stage", name}}},
                           {"when", {{"stage", name}}}});
        }
        out["stages"] = std::move(stages);
        out["takes_sentence"] = true;
        out["choices"] = {{"label", tr("widgets.stage")}, {"items", items}};
      }};
  return kind;
}

}  // namespace neuralpath::ui
