// heatmap_view.h: draws a const HeatmapModel with Dear ImGui — the BERT switch, head choice,
// the weights grid (masked cells hatched, row sums beside it) and the details of the hovered
// or selected cell. Clicks come back as the model's commands; the hovered cell and the open
// explanation are the view's own.
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/heatmap/heatmap_model.h"
#include "engine/ui/widgets/kit.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace neuralpath::ui {

class HeatmapView : public LaidOutView<HeatmapModel> {
 public:
  void draw(const UiContext& ui, const HeatmapModel& model, std::vector<HeatmapModel::Command>& asked);
  // layout(): where the grid was drawn (CSS px from the canvas's top left, last frame) and whether it is
  // wider than the card and scrolls sideways, and where the details (or the hint) sit:
  // {grid: [x, y, w, h], card_width, scrolls, details: [x, y, w, h]}.

 private:
  std::optional<Cell> hovered_;
  kit::KeptHeight details_;  // a cell's details, hovered or not: one height (#34: hover added 180 px)
};

}  // namespace neuralpath::ui
