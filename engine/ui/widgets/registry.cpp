// registry.cpp: the list of widget kinds (registry.h) and make_widget() over it.
#include "engine/ui/widgets/registry.h"

#include "engine/core/catalogue.h"
#include "engine/lesson/widget_kinds.h"

namespace neuralpath::ui {

// The folder kinds' entries (engine/lesson/widget_kinds.h), each defined in its folder.
#define NEURALPATH_DECLARE_WIDGET_KIND(identifier, name) const WidgetKind& identifier##_widget_kind();
NEURALPATH_WIDGET_KINDS(NEURALPATH_DECLARE_WIDGET_KIND)
#undef NEURALPATH_DECLARE_WIDGET_KIND

const std::vector<const WidgetKind*>& widget_kinds() {
  static const std::vector<const WidgetKind*> kinds = {
#define NEURALPATH_LIST_WIDGET_KIND(identifier, name) &identifier##_widget_kind(),
      NEURALPATH_WIDGET_KINDS(NEURALPATH_LIST_WIDGET_KIND)
#undef NEURALPATH_LIST_WIDGET_KIND
  };
  return kinds;
}

const WidgetKind* find_widget_kind(std::string_view name) {
  for (const WidgetKind* kind : widget_kinds())
    if (name == kind->name) return kind;
  return nullptr;
}

std::unique_ptr<Widget> make_widget(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) {
  const WidgetKind* kind = find_widget_kind(lesson::widget_kind_name(block.content));
  return kind ? kind->make(block, lesson, spec) : nullptr;  // prose, checks...: the page draws those
}

CommandResult CommandResult::not_taken(const std::string& type) {
  CommandResult r(tr("widgets.not_taken", {{"type", type}}));
  r.outcome_ = Outcome::not_taken;
  return r;
}

}  // namespace neuralpath::ui
