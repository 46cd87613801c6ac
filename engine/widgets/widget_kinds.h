// widget_kinds.h: every widget kind, one entry each, and what the rest of the engine asks of
// the list. A kind is a folder of engine/widgets/ (settings, model, description) plus its view
// in engine/ui/widgets/<kind>/; the folders ARE the list: CMake names each one in the
// generated widget_kind_list.inc, so adding a kind touches no list by hand.
//
//   WidgetKind     name ("heatmap": the block's kind, state()'s "kind"), the block's parser,
//                  describe (Model::describe: what the text version offers before the first frame)
//   block_parsers()     every kind's parser, for the lesson reader (lesson::parse_lesson)
//   model_for<Model>()  the kind's model for one block of a lesson (widget_model.h says what a
//                       model is); the UI joins it with its view
//
// A kind's entry is made at the end of its model's .cpp by folder_widget_kind<Model>() below,
// from the model type alone (its kKind, Settings and describe).
#pragma once
#include "engine/core/model.h"
#include "engine/lesson/lesson.h"
#include "engine/lesson/load.h"
#include "engine/lesson/parser.h"
#include "engine/widgets/widget_model.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace neuralpath::widgets {

struct WidgetKind {
  lesson::WidgetBlockParser block;  // {name, parse}
  void (*describe)(const lesson::Block& block, nlohmann::json& out);
  const char* name() const { return block.name.data(); }
};

const std::vector<const WidgetKind*>& widget_kinds();       // in folder order
const WidgetKind* find_widget_kind(std::string_view name);  // nullptr when no kind has that name

// Every kind's block parser, for parse_lesson/load_lesson_*: the lesson library knows no kind.
lesson::WidgetBlockParsers block_parsers();
// Load options that read every widget kind (`base` for the rest).
lesson::LoadOptions with_widgets(lesson::LoadOptions base = {});

// The kind's model for `block`, or nullopt when the block is another kind's. A model is built
// from its settings, the block's caption and the lesson's model; one that needs the lesson
// itself (a task, a code block) takes the lesson or has a static from_lesson().
template <WidgetModel Model>
std::optional<Model> model_for(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) {
  using Settings = typename Model::Settings;
  const Settings* settings = lesson::widget_settings<Settings>(block);
  if (!settings) return std::nullopt;
  const lesson::Inline& caption = std::get<lesson::WidgetBlock>(block.content).caption;
  if constexpr (requires { Model::from_lesson(*settings, caption, lesson, spec); })
    return Model::from_lesson(*settings, caption, lesson, spec);
  else if constexpr (std::is_constructible_v<Model, const Settings&, const lesson::Inline&, const ModelSpec&>)
    return Model(*settings, caption, spec);
  else if constexpr (std::is_constructible_v<Model, const Settings&, const lesson::Lesson&, const ModelSpec&>)
    return Model(*settings, lesson, spec);  // the playback: its caption and code block are the lesson's
  else
    return Model(*settings, caption);  // a model that runs no lesson sentence (cost explorer)
}

// A block's settings read by their own read(WidgetFields&) (the lesson parser has read the
// block's id and caption, and reports every key read() did not ask for).
template <class Settings>
std::shared_ptr<const lesson::WidgetSettings> parse_settings(lesson::detail::WidgetFields& fields) {
  auto settings = std::make_shared<Settings>();
  settings->read(fields);
  return settings;
}

// The registry entry of a kind: its name is Model::kKind, its block parser reads Model::Settings,
// its describe is Model::describe. Each folder defines its entry at the end of its model's .cpp:
//   const WidgetKind& heatmap_widget_kind() { return folder_widget_kind<HeatmapModel>(); }
template <WidgetModel Model>
const WidgetKind& folder_widget_kind() {
  using Settings = typename Model::Settings;
  static const WidgetKind kind = {{Model::kKind, &parse_settings<Settings>},
                                  [](const lesson::Block& block, nlohmann::json& out) {
                                    if (const Settings* s = lesson::widget_settings<Settings>(block))
                                      Model::describe(*s, out);
                                  }};
  return kind;
}

}  // namespace neuralpath::widgets
