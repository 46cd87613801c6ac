// tokenizer_settings.cpp: a ```tokenizer block's keys -> TokenizerSettings, read with the lesson
// parser's Fields (parse_context.h).
#include "engine/widgets/tokenizer/tokenizer_settings.h"

#include "engine/lesson/parse_context.h"

namespace neuralpath::widgets {

using lesson::SettingsNode;

void TokenizerSettings::read(lesson::detail::WidgetFields& w) {
  text = w.fields.text("text", true).value_or("");
  if (const SettingsNode* list = w.fields.list("learn", true)) {
    for (const auto& item : list->items) {
      if (item.kind != SettingsNode::Kind::Text || item.text.text().empty()) {
        w.ctx.error(item.origin, "each line to learn from is one line of text");
        continue;
      }
      learn.push_back(item.text.text());
    }
  }
  merges = static_cast<int>(w.fields.integer("merges", 40, 1, 2000).value_or(40));
}

}  // namespace neuralpath::widgets
