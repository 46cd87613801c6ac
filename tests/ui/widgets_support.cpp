#include "widgets_support.h"

#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/widgets/heatmap/heatmap_settings.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"
#include "engine/widgets/spotlight/spotlight_settings.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

#include <map>

namespace widgets_test {

using namespace neuralpath;

const lesson::Lesson& lesson(const std::string& id) {
  static std::map<std::string, lesson::Lesson> loaded;
  if (auto it = loaded.find(id); it != loaded.end()) return it->second;
  lesson::LoadResult result = lesson::load_lesson_file("lessons/" + id + ".md", neuralpath::widgets::with_widgets());
  std::string problems;
  for (const auto& d : result.diagnostics) problems += d.to_string() + "\n";
  INFO(problems);
  REQUIRE(result.ok());
  return loaded.emplace(id, std::move(*result.lesson)).first->second;
}

const ModelSpec& spec(const std::string& id) {
  static std::map<std::string, ModelSpec> specs;
  if (auto it = specs.find(id); it != specs.end()) return it->second;
  return specs.emplace(id, lesson::model_spec_for(lesson(id))).first->second;
}

std::unique_ptr<ui::Widget> widget(const std::string& block_id, const std::string& lesson_id) {
  const lesson::Block* b = lesson::find_block(lesson(lesson_id), block_id);
  REQUIRE(b != nullptr);
  auto w = ui::make_widget(*b, lesson(lesson_id), spec(lesson_id));
  REQUIRE(w != nullptr);
  return w;
}

template <class T>
const T& settings(const std::string& block_id, const std::string& lesson_id) {
  const lesson::Block* b = lesson::find_block(lesson(lesson_id), block_id);
  REQUIRE(b != nullptr);
  const T* s = lesson::widget_settings<T>(*b);
  REQUIRE(s != nullptr);
  return *s;
}
template const widgets::SpotlightSettings& settings<widgets::SpotlightSettings>(const std::string&, const std::string&);
template const widgets::HeatmapSettings& settings<widgets::HeatmapSettings>(const std::string&, const std::string&);
template const widgets::MaskStepsSettings& settings<widgets::MaskStepsSettings>(const std::string&, const std::string&);

const lesson::Inline& caption(const std::string& block_id, const std::string& lesson_id) {
  const lesson::Block* b = lesson::find_block(lesson(lesson_id), block_id);
  REQUIRE(b != nullptr);
  const lesson::Inline* c = lesson::widget_caption(b->content);
  REQUIRE(c != nullptr);
  return *c;
}

bool draw_frames(Headless& page, ui::Widget& widget, int frames, float dt) {
  bool balanced = true;
  for (int i = 0; i < frames; ++i) {
    widget.update(dt);
    balanced = page.frame([&](const ui::UiContext& ui) { widget.draw(ui); }, dt) && balanced;
  }
  return balanced;
}

float rightmost_vertex() {
  const ImDrawData* data = ImGui::GetDrawData();
  REQUIRE(data != nullptr);
  float right = 0;
  for (int l = 0; l < data->CmdListsCount; ++l)
    for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer) right = std::max(right, v.pos.x);
  return right;
}

int drawn_glyphs(unsigned int c) {
  const ImDrawData* data = ImGui::GetDrawData();
  REQUIRE(data != nullptr);
  std::vector<ImVec2> corners;
  for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
    if (const ImFontGlyph* glyph = font->FindGlyphNoFallback(static_cast<ImWchar>(c)))
      corners.emplace_back(glyph->U0, glyph->V0);
  int count = 0;
  for (int l = 0; l < data->CmdListsCount; ++l)
    for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
      for (const ImVec2& corner : corners)
        if (v.uv.x == corner.x && v.uv.y == corner.y) ++count;
  return count;
}

std::string send(ui::Widget& widget, const nlohmann::json& message) { return widget.command(message).reason(); }

}  // namespace widgets_test
