// model_view_view.h: draws a const ModelViewModel with Dear ImGui — every layer × head as a
// thumbnail heatmap (one row of thumbnails per layer, wrapping inside the card on a phone), and
// under them the open head's full heatmap, whose cells open their derivation in the
// explain-any-number panel (explain.h). Taps and Enter come back as the model's commands.
// layout() reports where the thumbnails and the open grid's cells were drawn (CSS pixels).
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/model_view/model_view_model.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace neuralpath::ui {

class ModelViewView : public LaidOutView<ModelViewModel> {
 public:
  void draw(const UiContext& ui, const ModelViewModel& model, Asked& asked);

  // layout(): {"thumbs": [{layer, head, rect}], "body_end": y, and with a head open "cells": {origin [x, y],
  //  size [w, h], clip [x, y, w, h]}}; rects are [x, y, w, h] from the canvas's top left.

 private:
  std::optional<Cell> hovered_;
};

}  // namespace neuralpath::ui
