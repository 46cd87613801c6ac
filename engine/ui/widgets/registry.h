// registry.h: the view of every widget kind. The kinds themselves (name, block parser, model,
// describe) are the widget library's (engine/widgets/widget_kinds.h); the UI adds to each a
// view, in the view's own file, and make_widget() joins a block's model with its view:
//
//   const ViewKind& heatmap_view_kind() { return view_kind<HeatmapModel, HeatmapView>(); }
//
// at the end of engine/ui/widgets/heatmap/heatmap_view.cpp. Every folder of engine/widgets/ must
// have one (the link fails otherwise); nothing else names the kind.
#pragma once
#include "engine/ui/widget.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/widgets/widget_kinds.h"

#include <memory>
#include <string_view>
#include <vector>

namespace neuralpath::ui {

struct ViewKind {
  const char* name;  // the model's kKind
  std::unique_ptr<Widget> (*make)(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec);
};

// The entry of a kind whose Widget is its model drawn by View (model_view_widget.h).
template <WidgetModel Model, class View>
const ViewKind& view_kind() {
  static const ViewKind kind = {
      Model::kKind,
      [](const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        std::optional<Model> model = model_for<Model>(block, lesson, spec);
        if (!model) return nullptr;
        return std::make_unique<ModelViewWidget<Model, View>>(std::move(*model));
      }};
  return kind;
}

// Every kind's view this build holds (view_kind_list.cpp: all of them, unless a lesson engine
// chose fewer), and the one of a name (nullptr when no kind has that name).
const std::vector<const ViewKind*>& view_kinds();
const ViewKind* find_view_kind(std::string_view name);

}  // namespace neuralpath::ui
