// model_panel.h: what a widget that runs a shipped language model draws until the model is
// here (language_models.h): why it needs it and a Load button, the download's bar, or why the
// download failed and a Retry button. Returns true when the model is ready and the widget may
// draw its own body; a press of Load or Retry sets `load`.
#pragma once
#include "engine/ui/widget.h"
#include "engine/ui/widgets/kit.h"
#include "engine/widgets/commands.h"
#include "engine/widgets/language_models.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <vector>

namespace neuralpath::ui {

bool draw_model_panel(const UiContext& ui, const ModelHandle& model, bool waiting, float width, bool& load);

// The panel for a kind's model (its model_handle(), waiting() and the LoadModel command, commands.h): true when
// the model is ready; until then a press asks LoadModel, and layout["load"] says where the
// panel's last item was drawn (its Load or Retry button, or the download's bar).
template <class Model>
bool model_panel_ready(const UiContext& ui, const Model& model, float width,
                       std::vector<typename Model::Command>& asked, nlohmann::json& layout) {
  bool load = false;
  if (draw_model_panel(ui, model.model_handle(), model.waiting(), width, load)) {
    layout.erase("load");
    return true;
  }
  if (load) asked.push_back(LoadModel{});
  layout["load"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  return false;
}

// A token's label on a chip: a leading space shows as "·", a line break as "¶", a tab as "→".
std::string chip_label(const std::string& label);

}  // namespace neuralpath::ui
