// split_join_view.h: draws a const SplitJoinModel with Dear ImGui — the eight stages as a row of
// choices, Q/K/V or the head (chips in the heads' colours), the stage's rule with √d_head
// written out, its matrix as a grid (columns in the colour of the head that owns them; any cell
// explains itself when tapped), the stage's one-sentence narration; Back/Next under the stage
// buttons, where they stay from stage to stage. Clicks and
// keys come back as the model's commands; the hovered cell and the popup are the view's own.
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/split_join/split_join_model.h"
#include "engine/ui/widgets/kit.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace neuralpath::ui {

class SplitJoinView : public LaidOutView<SplitJoinModel> {
 public:
  void draw(const UiContext& ui, const SplitJoinModel& model, Asked& asked);
  // layout(): where the last frame drew its parts, [x, y, w, h] in CSS pixels from the canvas's top left
  // (state()'s "layout"): back, next, the head chips, the grid, its cells {origin, size, clip}
  // and the narration.
  // How much of its head's colour a cell takes (0..1) for a number at `level` (|v| over the
  // grid's largest |v|): lit columns (the stage's head) 0.30..0.85, the others 0.10..0.22,
  // readable but clearly behind.
  static float column_tint(bool lit, float level);

 private:
  std::optional<Cell> hovered_;
  kit::KeptHeight said_;  // the narration and the hovered cell's sentence
};

}  // namespace neuralpath::ui
