// spotlight_settings.cpp: a ```spotlight block's keys -> SpotlightSettings. Compiled into the
// lesson library (engine/lesson/CMakeLists.txt), so it may use the lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/spotlight/spotlight_settings.h"

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_spotlight_settings(WidgetFields& w) {
  auto s = std::make_shared<ui::SpotlightSettings>();
  s->query = w.fields.text("query", true).value_or("");
  s->sentence = w.sentence(s->query);
  if (const SettingsNode* alternatives = w.fields.list("alternatives", false)) {
    for (const auto& item : alternatives->items) {
      if (item.kind != SettingsNode::Kind::Text) {
        w.ctx.error(item.origin, "each alternative is one sentence");
        continue;
      }
      w.ctx.add_sentence(item.text, w.kind, s->query);  // the checker runs each one too
      s->alternatives.push_back(item.text.text());
    }
  }
  return s;
}

}  // namespace neuralpath::lesson::detail
