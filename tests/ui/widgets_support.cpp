#include "widgets_support.h"

#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"

#include <doctest/doctest.h>

#include <map>

namespace widgets_test {

using namespace neuralpath;

const lesson::Lesson& lesson(const std::string& id) {
  static std::map<std::string, lesson::Lesson> loaded;
  if (auto it = loaded.find(id); it != loaded.end()) return it->second;
  lesson::LoadResult result = lesson::load_lesson_file("lessons/" + id + ".md");
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
const T& block(const std::string& block_id, const std::string& lesson_id) {
  const lesson::Block* b = lesson::find_block(lesson(lesson_id), block_id);
  REQUIRE(b != nullptr);
  REQUIRE(std::holds_alternative<T>(b->content));
  return std::get<T>(b->content);
}
template const lesson::Spotlight& block<lesson::Spotlight>(const std::string&, const std::string&);
template const lesson::Heatmap& block<lesson::Heatmap>(const std::string&, const std::string&);
template const lesson::MaskSteps& block<lesson::MaskSteps>(const std::string&, const std::string&);

bool draw_frames(Headless& page, ui::Widget& widget, int frames, float dt) {
  bool balanced = true;
  for (int i = 0; i < frames; ++i) {
    widget.update(dt);
    balanced = page.frame([&](const ui::UiContext& ui) { widget.draw(ui); }, dt) && balanced;
  }
  return balanced;
}

std::string send(ui::Widget& widget, const nlohmann::json& message) {
  return widget.command(message).reason();
}

}  // namespace widgets_test
