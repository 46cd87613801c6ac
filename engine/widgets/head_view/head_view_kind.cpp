// head_view_kind.cpp: the head view's registry entry (folder_kind.h), and what the text version
// offers before the first frame (every word's lines, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/head_view/head_view_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_head_view(const HeadViewSettings& s, json& out) {
  out["sentence"] = s.sentence;
  out["query"] = s.query;
  out["takes_sentence"] = true;
  json items = json::array();
  items.push_back({{"label", tr("multihead.every_word")},
                   {"command", {{"type", "focus"}, {"token", -1}}},
                   {"when", {{"focus", -1}}}});
  out["choices"] = {{"label", tr("multihead.focus_label")}, {"items", items}};
}

}  // namespace

const WidgetKind& head_view_widget_kind() {
  return folder_widget_kind<HeadViewSettings, HeadViewModel, HeadViewView, describe_head_view>();
}

}  // namespace neuralpath::ui
