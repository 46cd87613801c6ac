#include "app.h"

#include "engine/core/softmax.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstdio>

namespace neuralpath::ui {

using nlohmann::json;

App::App() { set_theme(Theme::light); }

void App::set_theme(Theme theme) {
  theme_ = theme;
  apply_imgui_style(theme);
}

void App::load_lesson(std::string_view id, std::string_view markdown) {
  lesson_id_ = id;
  lesson_title_ = std::string(id);
  (void)markdown;  // the lesson view parses it (engine/lesson); this first page shows the id
  events_.push_back(json{{"type", "ready"}, {"lesson", lesson_id_}}.dump());
}

void App::frame(float /*dt*/) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(viewport->Size);
  ImGui::Begin("lesson", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (fonts_.heading) ImGui::PushFont(fonts_.heading);
  ImGui::TextUnformatted(lesson_title_.c_str());
  if (fonts_.heading) ImGui::PopFont();
  if (!font_error_.empty()) ImGui::TextColored(ImVec4(0.8f, 0.2f, 0.1f, 1), "%s", font_error_.c_str());

  // A live readout from the engine: softmax turns scores into weights that sum to 1.
  Vector scores(3);
  scores << 2.0f, 1.0f, 0.1f;
  const Vector weights = softmax(scores);
  ImGui::TextUnformatted("softmax([2.0, 1.0, 0.1]) =");
  for (int i = 0; i < weights.size(); ++i) {
    char label[32];
    std::snprintf(label, sizeof label, "%.1f%%", 100.0 * weights[i]);
    ImGui::ProgressBar(weights[i], ImVec2(ImGui::GetFontSize() * 14, 0), label);
  }
  ImGui::End();
}

std::string App::state_json() const {
  return json{{"lesson", lesson_id_}, {"title", lesson_title_}}.dump();
}

std::string App::command(std::string_view text) {
  const json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string())
    return json{{"ok", false}, {"error", "a command is a JSON object with a string \"type\""}}.dump();
  return json{{"ok", false}, {"error", "unknown command: " + message["type"].get<std::string>()}}.dump();
}

std::vector<std::string> App::take_events() {
  std::vector<std::string> out;
  out.swap(events_);
  return out;
}

}  // namespace neuralpath::ui
