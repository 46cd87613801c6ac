// model_panel.h: what a widget that runs a shipped language model draws until the model is
// here (language_models.h): why it needs it and a Load button, the download's bar, or why the
// download failed and a Retry button. Returns true when the model is ready and the widget may
// draw its own body; a press of Load or Retry sets `load`.
#pragma once
#include "engine/ui/widget.h"
#include "engine/widgets/language_models.h"

namespace neuralpath::ui {

bool draw_model_panel(const UiContext& ui, const ModelHandle& model, bool waiting, float width, bool& load);

// A token's label on a chip: a leading space shows as "·", a line break as "¶", a tab as "→".
std::string chip_label(const std::string& label);

}  // namespace neuralpath::ui
