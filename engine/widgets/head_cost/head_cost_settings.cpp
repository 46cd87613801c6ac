// head_cost_settings.cpp: a ```head-cost block's keys -> HeadCostSettings. Compiled into the
// lesson library (engine/lesson/CMakeLists.txt), so it may use the lesson's parser and the
// engine's cost arithmetic only.
#include "engine/core/multi_head_cost.h"
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/head_cost/head_cost_settings.h"

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_head_cost_settings(WidgetFields& w) {
  auto c = std::make_shared<ui::HeadCostSettings>();
  c->d_model = w.fields.integer("d-model", 512, 1, kMaxCostDModel).value_or(512);
  const bool heads_given = w.fields.has("heads");
  const std::size_t heads_at = w.fields.key_origin("heads");
  c->heads = w.fields.integer("heads", 8, 1, kMaxCostDModel).value_or(8);
  c->tokens = w.fields.integer("tokens", 1000, 1, kMaxCostTokens).value_or(1000);
  if (!heads_divide(c->d_model, c->heads)) {
    if (heads_given)
      w.ctx.error(heads_at, "heads must divide d-model (" + std::to_string(c->d_model) + ")");
    c->heads = nearest_head_count(c->d_model, c->heads);
  }
  return c;
}

}  // namespace neuralpath::lesson::detail
