// spotlight_settings.cpp: a ```spotlight block's keys -> SpotlightSettings. Part of the widget
// library; reads the block with the lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/spotlight/spotlight_model.h"
#include "engine/widgets/spotlight/spotlight_settings.h"

namespace neuralpath::widgets {

using lesson::SettingsNode;

void SpotlightSettings::read(lesson::detail::WidgetFields& w) {
  query = w.fields.text("query", true).value_or("");
  sentence = w.sentence(SpotlightModel::kMaxTokens, query);
  if (const SettingsNode* list = w.fields.list("alternatives", false)) {
    for (const auto& item : list->items) {
      if (item.kind != SettingsNode::Kind::Text) {
        w.ctx.error(item.origin, "each alternative is one sentence");
        continue;
      }
      w.ctx.add_sentence(item.text, w.kind, query, SpotlightModel::kMaxTokens);  // the checker runs each one too
      alternatives.push_back(item.text.text());
    }
  }
}

}  // namespace neuralpath::widgets
