// registry.cpp: every kind's view (registry.h) and make_widget() over them.
#include "engine/ui/widgets/registry.h"

#include <vector>

namespace neuralpath::ui {

// Each folder's view entry, defined at the end of its <kind>_view.cpp.
#define NEURALPATH_DECLARE_WIDGET_KIND(folder) const ViewKind& folder##_view_kind();
#include "widget_kind_list.inc"
#undef NEURALPATH_DECLARE_WIDGET_KIND

const ViewKind* find_view_kind(std::string_view name) {
  static const std::vector<const ViewKind*> kinds = {
#define NEURALPATH_DECLARE_WIDGET_KIND(folder) &folder##_view_kind(),
#include "widget_kind_list.inc"
#undef NEURALPATH_DECLARE_WIDGET_KIND
  };
  for (const ViewKind* kind : kinds)
    if (name == kind->name) return kind;
  return nullptr;
}

std::unique_ptr<Widget> make_widget(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) {
  const ViewKind* kind = find_view_kind(lesson::widget_kind_name(block.content));
  return kind ? kind->make(block, lesson, spec) : nullptr;  // prose, checks...: the page draws those
}

}  // namespace neuralpath::ui
