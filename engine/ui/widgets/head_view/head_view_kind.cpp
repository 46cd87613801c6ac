// head_view_kind.cpp: the head view's registry entry (registry.h): its model and view, and what
// the text version offers before the first frame (the heads as toggles, a sentence form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/head_view/head_view_view.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"

namespace neuralpath::ui {

using nlohmann::json;
using HeadViewWidget = ModelViewWidget<HeadViewModel, HeadViewView>;

const WidgetKind& head_view_widget_kind() {
  static const WidgetKind kind = {
      HeadViewModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson&, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        const auto* settings = lesson::widget_settings<HeadViewSettings>(block);
        if (!settings) return nullptr;
        return std::make_unique<HeadViewWidget>(
            HeadViewModel(*settings, std::get<lesson::WidgetBlock>(block.content).caption, spec));
      },
      [](const lesson::Block& block, json& out) {
        const auto* s = lesson::widget_settings<HeadViewSettings>(block);
        if (!s) return;
        out["sentence"] = s->sentence;
        out["query"] = s->query;
        out["takes_sentence"] = true;
        json items = json::array();
        items.push_back({{"label", tr("multihead.every_word")},
                         {"command", {{"type", "focus"}, {"token", -1}}},
                         {"when", {{"focus", -1}}}});
        out["choices"] = {{"label", tr("multihead.focus_label")}, {"items", items}};
      }};
  return kind;
}

}  // namespace neuralpath::ui
