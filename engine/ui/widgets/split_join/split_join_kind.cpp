// split_join_kind.cpp: the step-through's registry entry (folder_kind.h), and what the text
// version offers before the first frame (the eight stages as buttons, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/split_join/split_join_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_split_join(const SplitJoinSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  json stages = json::array(), items = json::array();
  for (SplitStage stage : all_split_stages()) {
    const std::string name = split_stage_name(stage);
    stages.push_back(name);
    items.push_back({{"label", tr("split-join.stage." + name)},
                     {"command", {{"type", "stage"}, {"stage", name}}},
                     {"when", {{"stage", name}}}});
  }
  out["stages"] = std::move(stages);
  out["takes_sentence"] = true;
  out["choices"] = {{"label", tr("widgets.stage")}, {"items", items}};
}

}  // namespace

const WidgetKind& split_join_widget_kind() {
  return folder_widget_kind<SplitJoinSettings, SplitJoinModel, SplitJoinView, describe_split_join>();
}

}  // namespace neuralpath::ui
