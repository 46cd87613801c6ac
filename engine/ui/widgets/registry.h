// registry.h: every widget kind the page knows, one entry each. An entry lives in its kind's
// own folder and is the only place that turns a block of that kind into something on screen:
//
//   name       "heatmap": the block's kind, state()'s "kind", the text version's data-widget
//   make       the Widget (the kind's model and its view) for one block
//   describe   what the author set up, added to the block in the text version's document
//              (document_export.h), so the text version can label and offer the widget's
//              choices before the engine's first frame
//
// Adding a kind: its folder (settings, model, view, entry; folder_kind.h makes the entry) plus
// one line in engine/lesson/widget_kinds.h; CMake picks the folder's files up by themselves.
#pragma once
#include "engine/ui/widget.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace neuralpath::ui {

struct WidgetKind {
  const char* name;
  std::unique_ptr<Widget> (*make)(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec);
  void (*describe)(const lesson::Block& block, nlohmann::json& out);
};

const std::vector<const WidgetKind*>& widget_kinds();
const WidgetKind* find_widget_kind(std::string_view name);  // nullptr when no kind has that name

}  // namespace neuralpath::ui
