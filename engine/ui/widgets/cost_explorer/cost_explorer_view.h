// cost_explorer_view.h: draws a const CostExplorerModel with Dear ImGui — the T slider and the
// lesson's lengths, four figures, the growth plot (log T across, log bytes up), and the runs
// with a progress bar while the engine's race goes on. Clicks come back as the model's
// commands; the open explanation is the view's own.
#pragma once
#include "engine/widgets/cost_explorer/cost_explorer_model.h"
#include "engine/ui/widgets/widget_view.h"

#include <vector>

namespace neuralpath::ui {

class CostExplorerView : public WidgetView<CostExplorerModel> {
 public:
  void draw(const UiContext& ui, const CostExplorerModel& model, Asked& asked);
};

}  // namespace neuralpath::ui
