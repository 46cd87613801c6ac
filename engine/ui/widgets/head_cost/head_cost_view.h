// head_cost_view.h: draws a const HeadCostModel with Dear ImGui — three sliders (d_model, H, T),
// each with its value printed above it (never under the grab) and − / + buttons for keys and
// fingers, the note when H had to move, the figures (each explains itself when tapped), the
// split of multiplications between projections and scores/blend, and one bar per head count
// that divides d_model (d_head falling) under the flat line of the layer's multiplications.
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/head_cost/head_cost_model.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace neuralpath::ui {

class HeadCostView : public LaidOutView<HeadCostModel> {
 public:
  void draw(const UiContext& ui, const HeadCostModel& model, Asked& asked);
  // layout(): where the last frame drew its controls, [x, y, w, h] in CSS pixels from the canvas's top
  // left (state()'s "layout"): per slider its value's label, track and − / + buttons; the bars.
};

}  // namespace neuralpath::ui
