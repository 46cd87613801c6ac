// generate_view.h: draws a const GenerateModel with Dear ImGui: the model's loading panel until
// it is here; the prompt field; the text so far as token chips (the last one drawn in the accent
// colour); Step, Write / Stop and Restart; the block's sliders (temperature, top-k, top-p, seed);
// and the next token's candidates at each stage that changes anything, as bars with their
// probabilities, with how many tokens each stage keeps; last, which token the draw picked, and u.
// layout() reports where it drew: {load: [x, y, w, h] (until the model is here), step: [x, y, w, h],
// write: [...], stages: [[x, y, w, h]...]}
// (CSS px from the canvas's top left, last frame).
#pragma once
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/generate/generate_model.h"

#include <nlohmann/json.hpp>

#include <string>

namespace neuralpath::ui {

class GenerateView : public LaidOutView<GenerateModel> {
 public:
  void draw(const UiContext& ui, const GenerateModel& model, Asked& asked);

 private:
  kit::FollowingField<512> prompt_;
};

}  // namespace neuralpath::ui
