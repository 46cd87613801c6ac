// train_view.h: draws a const TrainModel with Dear ImGui — Train/Pause, Start again and the seed;
// the step, learning rate and the trained/hand-set switch; the held-out loss and accuracy
// curves; where the query word looks now, as word chips shaded by weight (with several heads, a
// grid of words by heads); and "try your own sentence". Clicks come back as the model's commands; the text fields'
// buffers and the open explanation are the view's own.
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/train/train_model.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neuralpath::ui {

class TrainView : public LaidOutView<TrainModel> {
 public:
  void draw(const UiContext& ui, const TrainModel& model, Asked& asked);
  const char* sentence_box() const { return sentence_; }  // what "try your own sentence" shows
  // layout(): where the last frame drew the main button ("go") and the seed's field with its − and +
  // ("seed"), [x, y, w, h] in CSS px: state()'s "layout".

 private:
  void draw_controls(const UiContext& ui, const TrainModel& model, float width, Asked& asked);
  void draw_curves(const UiContext& ui, const TrainModel& model, float width);
  void draw_spotlight(const UiContext& ui, const SpotlightNow& spot, float width);  // chips, or heads
  void draw_chips(const UiContext& ui, const SpotlightNow& spot, float width);
  void draw_heads(const UiContext& ui, const SpotlightNow& spot, float width);
  void draw_try(const UiContext& ui, const TrainModel& model, float width, Asked& asked);

  int seed_field_ = -1;               // what the seed field shows; follows the model unless edited
  std::uint64_t seed_shown_ = ~0ull;  // the model's seed when the field last followed it
  char sentence_[512] = {};           // "try your own sentence" as typed
  std::uint64_t sentences_seen_ = 0;  // the model's sentences_asked() the box last followed
  bool trainer_asked_ = false;        // prepareTrainer went out: the Train button was on screen
};

}  // namespace neuralpath::ui
