// widget_kinds.cpp: what the engine asks of the list of widget kinds (widget_kinds.h). The list
// itself, widget_kinds(), is widget_kind_list.cpp's.
#include "engine/widgets/widget_kinds.h"

#include "engine/text/catalogue.h"

namespace neuralpath::widgets {

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

}  // namespace neuralpath::widgets
