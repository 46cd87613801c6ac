// model_view_kind.cpp: the model view's registry entry (folder_kind.h), and what the text
// version offers before the first frame: the heads one after another (the number of layers and
// heads is the model's, known only once it runs), back to all of them, and a sentence form.
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/model_view/model_view_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_model_view(const ModelViewSettings& s, json& out) {
  out["sentence"] = s.sentence;
  out["causal"] = s.causal;
  out["takes_sentence"] = true;
  json items = json::array();
  items.push_back({{"label", tr("model-view.previous")}, {"command", {{"type", "step"}, {"by", -1}}}});
  items.push_back({{"label", tr("model-view.next")}, {"command", {{"type", "step"}, {"by", 1}}}});
  items.push_back({{"label", tr("model-view.all_heads")}, {"command", {{"type", "close"}}}, {"when", {{"open", nullptr}}}});
  out["choices"] = {{"label", tr("model-view.choices")}, {"items", items}};
}

}  // namespace

const WidgetKind& model_view_widget_kind() {
  return folder_widget_kind<ModelViewSettings, ModelViewModel, ModelViewView, describe_model_view>();
}

}  // namespace neuralpath::ui
