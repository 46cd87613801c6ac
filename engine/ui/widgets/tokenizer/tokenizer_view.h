// tokenizer_view.h: draws a const TokenizerModel with Dear ImGui: the text as token chips, each
// with its id under it (a leading space shows as "·"), a − / + stepper over the merges learned
// (fewer merges: shorter tokens, down to bytes), and a field for the learner's own text. A chip
// opens its explanation (which merge made it, of which two tokens). layout() reports where the
// chips were drawn: {chips: [[x, y, w, h]...]} (CSS px from the canvas's top left, last frame).
#pragma once
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/tokenizer/tokenizer_model.h"

#include <nlohmann/json.hpp>

#include <string>

namespace neuralpath::ui {

class TokenizerView : public LaidOutView<TokenizerModel> {
 public:
  void draw(const UiContext& ui, const TokenizerModel& model, Asked& asked);

 private:
  kit::FollowingField<2048> input_;
};

}  // namespace neuralpath::ui
