// head_cost_kind.cpp: the cost readout's registry entry (folder_kind.h), and what the text
// version offers before the first frame (every head count that divides the block's d_model).
#include "engine/core/catalogue.h"
#include "engine/core/format.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/head_cost/head_cost_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_head_cost(const HeadCostSettings& c, json& out) {
  out["d_model"] = c.d_model;
  out["heads"] = c.heads;
  out["T"] = c.tokens;
  json items = json::array();
  for (std::int64_t h : head_counts(c.d_model))
    items.push_back({{"label", tr_n("head-cost.choice_heads", static_cast<int>(h),
                                    {{"n", format_count(static_cast<std::uint64_t>(h))}})},
                     {"command", {{"type", "setHeads"}, {"heads", h}}},
                     {"when", {{"heads", h}}}});
  out["choices"] = {{"label", tr("head-cost.choices")}, {"items", items}};
}

}  // namespace

const WidgetKind& head_cost_widget_kind() {
  return folder_widget_kind<HeadCostSettings, HeadCostModel, HeadCostView, describe_head_cost>();
}

}  // namespace neuralpath::ui
