// head_view_view.h: draws a const HeadViewModel with Dear ImGui, the way BertViz's head view
// does: the sentence twice, asking words on the left and looked-at words on the right, and a
// line for each weight, one colour per head, as opaque as the weight is large. Head chips above
// toggle heads; tapping a word on the left shows only its lines; the focus word's heaviest key
// per head is listed below, and tapping one opens its derivation.
#pragma once
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/head_view/head_view_model.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace neuralpath::ui {

class HeadViewView : public LaidOutView<HeadViewModel> {
 public:
  void draw(const UiContext& ui, const HeadViewModel& model, Asked& asked);

  // One colour per head (cycled past eight), the same in both themes.
  static ImU32 head_color(int head);
  // layout(): where the last frame drew the head chips, [x, y, w, h] in CSS pixels from the canvas's top
  // left (state()'s "layout": {"heads": [...]}).
};

}  // namespace neuralpath::ui
