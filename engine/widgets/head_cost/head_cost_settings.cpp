// head_cost_settings.cpp: a ```head-cost block's keys -> HeadCostSettings, read with the lesson
// parser's Fields (parse_context.h) and checked with the engine's cost arithmetic.
#include "engine/core/multi_head_cost.h"
#include "engine/lesson/parse_context.h"
#include "engine/widgets/head_cost/head_cost_settings.h"

namespace neuralpath::widgets {

void HeadCostSettings::read(lesson::detail::WidgetFields& w) {
  d_model = w.fields.integer("d-model", 512, 1, kMaxCostDModel).value_or(512);
  const bool heads_given = w.fields.has("heads");
  const std::size_t heads_at = w.fields.key_origin("heads");
  heads = w.fields.integer("heads", 8, 1, kMaxCostDModel).value_or(8);
  tokens = w.fields.integer("tokens", 1000, 1, kMaxCostTokens).value_or(1000);
  if (!heads_divide(d_model, heads)) {
    if (heads_given) w.ctx.error(heads_at, "heads must divide d-model (" + std::to_string(d_model) + ")");
    heads = nearest_head_count(d_model, heads);
  }
}

}  // namespace neuralpath::widgets
