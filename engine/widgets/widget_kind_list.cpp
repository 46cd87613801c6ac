// widget_kind_list.cpp: widget_kinds(), the kinds a build holds (widget_kinds.h), one entry per
// line of the generated widget_kind_list.inc, X(folder). Alone in its file because it is the one
// thing a build may choose: the library's copy lists every folder of engine/widgets/ (the CLI and
// the tests use it); a lesson engine that holds fewer kinds (web/CMakeLists.txt) compiles this
// file with its own widget_kind_list.inc, and the linker then never takes the library's copy,
// nor the code of the kinds it leaves out.
#include "engine/widgets/widget_kinds.h"

namespace neuralpath::widgets {

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

}  // namespace neuralpath::widgets
