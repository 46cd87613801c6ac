// cost_explorer_kind.cpp: the cost explorer's registry entry (registry.h): its model and view,
// and what the text version offers before the first frame (the lesson's lengths as buttons).
#include "engine/core/catalogue.h"
#include "engine/core/format.h"
#include "engine/ui/widgets/cost_explorer/cost_explorer_view.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"

namespace neuralpath::ui {

using nlohmann::json;
using CostExplorerWidget = ModelViewWidget<CostExplorerModel, CostExplorerView>;

const WidgetKind& cost_explorer_widget_kind() {
  static const WidgetKind kind = {
      CostExplorerModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson&, const ModelSpec&) -> std::unique_ptr<Widget> {
        const auto* settings = lesson::widget_settings<CostExplorerSettings>(block);
        if (!settings) return nullptr;
        return std::make_unique<CostExplorerWidget>(
            CostExplorerModel(*settings, std::get<lesson::WidgetBlock>(block.content).caption));
      },
      [](const lesson::Block& block, json& out) {
        const auto* c = lesson::widget_settings<CostExplorerSettings>(block);
        if (!c) return;
        out["lengths"] = c->lengths;
        out["heads"] = c->heads;
        out["bytes_per_score"] = c->bytes_per_score;
        out["tile"] = c->tile;
        json items = json::array();
        for (std::int64_t t : c->lengths)
          items.push_back({{"label", tr("widgets.length", {{"T", format_count(static_cast<std::uint64_t>(t))}})},
                           {"command", {{"type", "setLength"}, {"T", t}}},
                           {"when", {{"T", t}}}});
        if (!c->lengths.empty()) out["choices"] = {{"label", tr("widgets.lengths")}, {"items", items}};
      }};
  return kind;
}

}  // namespace neuralpath::ui
