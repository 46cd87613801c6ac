// mask_steps_view.h: draws a const MaskStepsModel with Dear ImGui — the stage and head
// choices with Back/Next under them, the stage's grid, its narration, and the three mistakes (a grid of
// rows that no longer sum to 1, the d_k slider with two bar charts, the transpose's shapes and
// error). Clicks come back as the model's commands; the hovered cell and the open
// explanation are the view's own.
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/mask_steps/mask_steps_model.h"
#include "engine/ui/widgets/kit.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace neuralpath::ui {

class MaskStepsView : public WidgetView<MaskStepsModel> {
 public:
  void draw(const UiContext& ui, const MaskStepsModel& model, Asked& asked);
  // Where the last frame drew Next, [x, y, w, h] in CSS px (null on the last stage): state()'s "layout".
  nlohmann::json layout() const { return {{"next", nav_next_}}; }

 private:
  void draw_stages(const UiContext& ui, const MaskStepsModel& model, float width, Asked& asked);
  void draw_after_softmax(const UiContext& ui, const MaskStepsModel& model, float width);
  void draw_no_scale(const UiContext& ui, const MaskStepsModel& model, float width, Asked& asked);
  void draw_transpose(const UiContext& ui, const MaskStepsModel& model);
  void draw_bars(const UiContext& ui, const MaskStepsModel& model, const char* id, const Vector& weights, float width,
                 bool scaled);

  std::optional<Cell> hovered_;
  kit::KeptHeight said_;  // the stage's sentence, or the hovered cell's
  nlohmann::json nav_next_;
};

}  // namespace neuralpath::ui
