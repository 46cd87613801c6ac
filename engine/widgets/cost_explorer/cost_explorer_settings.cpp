// cost_explorer_settings.cpp: a ```cost-explorer block's keys -> CostExplorerSettings, read with
// the lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/cost_explorer/cost_explorer_settings.h"

namespace neuralpath::widgets {

using namespace lesson::detail;  // Fields, WidgetFields, parse_integer, ...
using lesson::SettingsNode;

void CostExplorerSettings::read(lesson::detail::WidgetFields& w) {
  if (const SettingsNode* list = w.fields.list("lengths", true)) {
    for (const auto& item : list->items) {
      auto v = item.kind == SettingsNode::Kind::Text ? parse_integer(item.text.text()) : std::nullopt;
      if (!v || *v < 1 || *v > 100'000'000) {
        w.ctx.error(item.origin, "a length is a whole number of tokens from 1 to 100000000");
        continue;
      }
      if (!lengths.empty() && *v <= lengths.back()) w.ctx.error(item.origin, "lengths must grow from left to right");
      lengths.push_back(*v);
    }
  }
  heads = static_cast<int>(w.fields.integer("heads", 1, 1, 1024).value_or(1));
  bytes_per_score = static_cast<int>(w.fields.integer("bytes", 2, 1, 8).value_or(2));
  tile = static_cast<int>(w.fields.integer("tile", 64, 1, 4096).value_or(64));
}

}  // namespace neuralpath::widgets
