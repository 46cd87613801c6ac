// cost_explorer_kind.cpp: the cost explorer's registry entry (folder_kind.h), and what the text
// version offers before the first frame (the lesson's lengths as buttons).
#include "engine/core/catalogue.h"
#include "engine/core/format.h"
#include "engine/ui/widgets/cost_explorer/cost_explorer_view.h"
#include "engine/ui/widgets/folder_kind.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_cost_explorer(const CostExplorerSettings& c, json& out) {
  out["lengths"] = c.lengths;
  out["heads"] = c.heads;
  out["bytes_per_score"] = c.bytes_per_score;
  out["tile"] = c.tile;
  json items = json::array();
  for (std::int64_t t : c.lengths)
    items.push_back({{"label", tr("widgets.length", {{"T", format_count(static_cast<std::uint64_t>(t))}})},
                     {"command", {{"type", "setLength"}, {"T", t}}},
                     {"when", {{"T", t}}}});
  if (!c.lengths.empty()) out["choices"] = {{"label", tr("widgets.lengths")}, {"items", items}};
}

}  // namespace

const WidgetKind& cost_explorer_widget_kind() {
  return folder_widget_kind<CostExplorerSettings, CostExplorerModel, CostExplorerView, describe_cost_explorer>();
}

}  // namespace neuralpath::ui
