// view_kind_list.cpp: view_kinds(), the view of every kind a build holds (registry.h), from the
// same generated widget_kind_list.inc as engine/widgets/widget_kind_list.cpp, and chosen the same
// way: the library's copy has every kind's view; a lesson engine with fewer kinds compiles this
// file with its own list (web/CMakeLists.txt), so the views it leaves out are never linked.
#include "engine/ui/widgets/registry.h"

namespace neuralpath::ui {

// Each folder's view entry, defined at the end of its <kind>_view.cpp.
#define NEURALPATH_DECLARE_WIDGET_KIND(folder) const ViewKind& folder##_view_kind();
#include "widget_kind_list.inc"
#undef NEURALPATH_DECLARE_WIDGET_KIND

const std::vector<const ViewKind*>& view_kinds() {
  static const std::vector<const ViewKind*> kinds = {
#define NEURALPATH_DECLARE_WIDGET_KIND(folder) &folder##_view_kind(),
#include "widget_kind_list.inc"
#undef NEURALPATH_DECLARE_WIDGET_KIND
  };
  return kinds;
}

}  // namespace neuralpath::ui
