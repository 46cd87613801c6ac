// registry.cpp: make_widget() over the views a build holds (view_kinds(), view_kind_list.cpp).
#include "engine/ui/widgets/registry.h"

#include <vector>

namespace neuralpath::ui {

const ViewKind* find_view_kind(std::string_view name) {
  for (const ViewKind* kind : view_kinds())
    if (name == kind->name) return kind;
  return nullptr;
}

std::unique_ptr<Widget> make_widget(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) {
  const ViewKind* kind = find_view_kind(lesson::widget_kind_name(block.content));
  return kind ? kind->make(block, lesson, spec) : nullptr;  // prose, checks...: the page draws those
}

}  // namespace neuralpath::ui
