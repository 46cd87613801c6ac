// heatmap_kind.cpp: the heatmap's registry entry (folder_kind.h), and what the text version
// offers before the first frame (the BERT switch, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/heatmap/heatmap_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

json mask_choice(const char* mask, const char* label) {
  return {{"label", tr(label)}, {"command", {{"type", "setMask"}, {"mask", mask}}}, {"when", {{"mask", mask}}}};
}

void describe_heatmap(const HeatmapSettings& w, json& out) {
  out["sentence"] = w.sentence;
  out["causal"] = w.causal;
  out["bert_switch"] = w.bert_switch;
  out["takes_sentence"] = true;
  if (w.bert_switch)
    out["choices"] = {{"label", tr("widgets.mask")},
                      {"items", json::array({mask_choice("causal", "widgets.mask_causal"),
                                             mask_choice("none", "widgets.mask_none")})}};
}

}  // namespace

const WidgetKind& heatmap_widget_kind() {
  return folder_widget_kind<HeatmapSettings, HeatmapModel, HeatmapView, describe_heatmap>();
}

}  // namespace neuralpath::ui
