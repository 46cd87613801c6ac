// spotlight_view.h: draws a const SpotlightModel with Dear ImGui — sentence and head choices,
// token chips with beams whose thickness is the engine's weight (swinging to new weights over a
// few frames), the blend written as a weighted sum, and "Try your own sentence". Clicks and the
// text field come back as the model's commands; the beams on screen, the text being typed and
// the open explanation are the view's own. layout() reports where the chips, their
// percentages and the beams were drawn (CSS pixels from the canvas's top left, last frame):
//   {chips: [[x, y, w, h]...], labels: [[x, y, w, h]...],
//    beams: [{from, to, width, points: [[x, y]...], dot: [x, y, r]}...]}
#pragma once
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/spotlight/spotlight_model.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neuralpath::ui {

class SpotlightView : public LaidOutView<SpotlightModel> {
 public:
  void draw(const UiContext& ui, const SpotlightModel& model, Asked& asked);
  void update(const SpotlightModel& model, float dt);  // the beams swing toward the model's weights

 private:
  std::vector<float> shown_;  // beam weights on screen, swinging toward the model's
  bool reduced_motion_ = false;
  kit::FollowingField<512> input_;  // the learner's sentence
};

}  // namespace neuralpath::ui
