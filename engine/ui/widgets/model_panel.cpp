// model_panel.cpp: the model's loading panel and token chips (model_panel.h).
#include "engine/ui/widgets/model_panel.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"

#include <imgui.h>

#include <algorithm>

namespace neuralpath::ui {

bool draw_model_panel(const UiContext& ui, const ModelHandle& model, bool waiting, float width, bool& load) {
  const Palette& c = ui.colors();
  const ModelStatus s = model.status();
  if (s.state == ModelState::ready) return true;
  const std::string language = tr("lm-model.name." + model.name());
  if (s.state == ModelState::loading) {
    const float done =
        s.total > 0 ? std::clamp(static_cast<float>(s.received) / static_cast<float>(s.total), 0.0f, 1.0f) : 0.0f;
    kit::wrapped(ui, tr("lm-model.loading", {{"model", language}}));
    const std::string overlay =
        s.total > 0 ? tr("lm-model.progress", {{"received", format_bytes(static_cast<double>(s.received))},
                                               {"total", format_bytes(static_cast<double>(s.total))}})
                    : format_bytes(static_cast<double>(s.received));
    kit::push_field_style(ui);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, c.accent);
    ImGui::ProgressBar(done, ImVec2(std::min(width, ui.px(480)), ui.px(22)), overlay.c_str());
    ImGui::PopStyleColor();
    kit::pop_field_style();
    return false;
  }
  if (s.state == ModelState::failed) {
    kit::wrapped(ui, s.error, c.bad);
    load = kit::button(ui, tr("lm-model.retry").c_str(), true);
    return false;
  }
  kit::wrapped(ui, tr(waiting ? "lm-model.asked" : "lm-model.needed", {{"model", language}}), c.muted);
  load = kit::button(ui, tr("lm-model.load", {{"model", language}}).c_str(), true);
  return false;
}

std::string chip_label(const std::string& label) {
  std::string out;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if (label[i] == '\n')
      out += "\xC2\xB6";  // ¶
    else if (label[i] == '\t')
      out += "\xE2\x86\x92";  // →
    else if (label[i] == ' ' && i == 0)
      out += "\xC2\xB7";  // ·
    else
      out += label[i];
  }
  return out;
}

}  // namespace neuralpath::ui
