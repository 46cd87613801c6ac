// split_join_kind.cpp: the step-through's registry entry (folder_kind.h), and what the text
// version offers before the first frame (the eight stages as buttons, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/split_join/split_join_view.h"
#include "engine/ui/widgets/step_through.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_split_join(const SplitJoinSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  std::vector<std::string> names;
  for (SplitStage stage : all_split_stages()) names.push_back(split_stage_name(stage));
  step_through::describe_stages(out, names, "split-join.stage.");
}

}  // namespace

const WidgetKind& split_join_widget_kind() {
  return folder_widget_kind<SplitJoinSettings, SplitJoinModel, SplitJoinView, describe_split_join>();
}

}  // namespace neuralpath::ui
