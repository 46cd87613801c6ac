// folder_kind.h: the registry entry (registry.h) of a kind that lives wholly in its folder, made
// from its settings, model and view, so a <kind>_kind.cpp only says what the text version
// offers before the first frame:
//
//   const WidgetKind& heatmap_widget_kind() {
//     return folder_widget_kind<HeatmapSettings, HeatmapModel, HeatmapView, describe_heatmap>();
//   }
//
//   make       Model(settings, caption, spec) (or Model(settings, caption) for a model that runs
//              no lesson sentence) joined with View in a ModelViewWidget; nullptr for a block
//              of another kind
//   describe   Describe(settings, out): the author's setup and the choices as buttons
#pragma once
#include "engine/lesson/lesson.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <type_traits>
#include <variant>

namespace neuralpath::ui {

template <class Settings, class Model, class View, void (*Describe)(const Settings&, nlohmann::json&)>
const WidgetKind& folder_widget_kind() {
  static const WidgetKind kind = {
      Model::kKind,
      [](const lesson::Block& block, const lesson::Lesson&, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        const Settings* settings = lesson::widget_settings<Settings>(block);
        if (!settings) return nullptr;
        const lesson::Inline& caption = std::get<lesson::WidgetBlock>(block.content).caption;
        if constexpr (std::is_constructible_v<Model, const Settings&, const lesson::Inline&, const ModelSpec&>)
          return std::make_unique<ModelViewWidget<Model, View>>(Model(*settings, caption, spec));
        else
          return std::make_unique<ModelViewWidget<Model, View>>(Model(*settings, caption));
      },
      [](const lesson::Block& block, nlohmann::json& out) {
        if (const Settings* settings = lesson::widget_settings<Settings>(block)) Describe(*settings, out);
      }};
  return kind;
}

}  // namespace neuralpath::ui
