// lm_train_view.h: draws a const LmTrainModel with Dear ImGui: Train/Pause and Start again, the
// download's progress bar, the step; the loss and validation curves with the bigram model's
// line and the steps where a previous-token head and an induction head formed (the phase
// change) marked on them; every head's two scores (a tap picks the head shown); that head's
// attention on the learner's text and on a random sequence shown twice; the latest sample; a
// field for the learner's text. layout() reports {train, reset, chart, heads[{layer, head,
// rect}], text_matrix, probe_matrix} (CSS px from the canvas's top left, last frame).
#pragma once
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/lm_train/lm_train_model.h"

#include <nlohmann/json.hpp>

#include <string>

namespace neuralpath::ui {

class LmTrainView : public LaidOutView<LmTrainModel> {
 public:
  void draw(const UiContext& ui, const LmTrainModel& model, Asked& asked);

 private:
  kit::FollowingField<2048> input_;
};

}  // namespace neuralpath::ui
