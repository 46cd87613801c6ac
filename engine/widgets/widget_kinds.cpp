// widget_kinds.cpp: the list of widget kinds (widget_kinds.h): one entry per folder of
// engine/widgets/, named by CMake in widget_kind_list.inc as X(folder).
#include "engine/widgets/widget_kinds.h"

#include "engine/text/catalogue.h"

namespace neuralpath::ui {

// Each folder's entry, defined at the end of its <kind>_model.cpp.
#define NEURALPATH_DECLARE_WIDGET_KIND(folder) const WidgetKind& folder##_widget_kind();
#include "widget_kind_list.inc"
#undef NEURALPATH_DECLARE_WIDGET_KIND

const std::vector<const WidgetKind*>& widget_kinds() {
  static const std::vector<const WidgetKind*> kinds = {
#define NEURALPATH_DECLARE_WIDGET_KIND(folder) &folder##_widget_kind(),
#include "widget_kind_list.inc"
#undef NEURALPATH_DECLARE_WIDGET_KIND
  };
  return kinds;
}

const WidgetKind* find_widget_kind(std::string_view name) {
  for (const WidgetKind* kind : widget_kinds())
    if (name == kind->block.name) return kind;
  return nullptr;
}

lesson::WidgetBlockParsers block_parsers() {
  static const std::vector<lesson::WidgetBlockParser> parsers = [] {
    std::vector<lesson::WidgetBlockParser> out;
    for (const WidgetKind* kind : widget_kinds()) out.push_back(kind->block);
    return out;
  }();
  return parsers;
}

lesson::LoadOptions with_widgets(lesson::LoadOptions base) {
  base.widgets = block_parsers();
  return base;
}

CommandResult CommandResult::not_taken(const std::string& type) {
  CommandResult r(tr("widgets.not_taken", {{"type", type}}));
  r.outcome_ = Outcome::not_taken;
  return r;
}

}  // namespace neuralpath::ui
