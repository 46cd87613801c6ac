// cost_explorer_settings.cpp: a ```cost-explorer block's keys -> CostExplorerSettings. Compiled
// into the lesson library (engine/lesson/CMakeLists.txt), so it may use the lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/cost_explorer/cost_explorer_settings.h"

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_cost_explorer_settings(WidgetFields& w) {
  auto c = std::make_shared<ui::CostExplorerSettings>();
  if (const SettingsNode* lengths = w.fields.list("lengths", true)) {
    for (const auto& item : lengths->items) {
      auto v = item.kind == SettingsNode::Kind::Text ? parse_integer(item.text.text()) : std::nullopt;
      if (!v || *v < 1 || *v > 100'000'000) {
        w.ctx.error(item.origin, "a length is a whole number of tokens from 1 to 100000000");
        continue;
      }
      if (!c->lengths.empty() && *v <= c->lengths.back())
        w.ctx.error(item.origin, "lengths must grow from left to right");
      c->lengths.push_back(*v);
    }
  }
  c->heads = static_cast<int>(w.fields.integer("heads", 1, 1, 1024).value_or(1));
  c->bytes_per_score = static_cast<int>(w.fields.integer("bytes", 2, 1, 8).value_or(2));
  c->tile = static_cast<int>(w.fields.integer("tile", 64, 1, 4096).value_or(64));
  return c;
}

}  // namespace neuralpath::lesson::detail
