// heatmap_kind.cpp: the heatmap's registry entry (registry.h): its model and view, and what the
// text version offers before the first frame (the BERT switch, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/heatmap/heatmap_view.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"

namespace neuralpath::ui {

using nlohmann::json;
using HeatmapWidget = ModelViewWidget<HeatmapModel, HeatmapView>;

const WidgetKind& heatmap_widget_kind() {
  static const WidgetKind kind = {
      HeatmapModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson&, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        return std::make_unique<HeatmapWidget>(HeatmapModel(std::get<lesson::Heatmap>(block.content), spec));
      },
      [](const lesson::Block& block, json& out) {
        const auto& w = std::get<lesson::Heatmap>(block.content);
        out["sentence"] = w.sentence;
        out["causal"] = w.causal;
        out["bert_switch"] = w.bert_switch;
        out["takes_sentence"] = true;
        if (w.bert_switch)
          out["choices"] = {{"label", tr("widgets.mask")},
                            {"items", json::array({{{"label", tr("widgets.mask_causal")},
                                                    {"command", {{"type", "setMask"}, {"mask", "causal"}}},
                                                    {"when", {{"mask", "causal"}}}},
                                                   {{"label", tr("widgets.mask_none")},
                                                    {"command", {{"type", "setMask"}, {"mask", "none"}}},
                                                    {"when", {{"mask", "none"}}}}})}};
      }};
  return kind;
}

}  // namespace neuralpath::ui
