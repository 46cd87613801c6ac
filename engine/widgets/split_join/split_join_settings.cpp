// split_join_settings.cpp: a ```split-join block's keys -> SplitJoinSettings, and the stage
// names. Part of the widget library; reads its keys with the
// lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/split_join/split_join_model.h"
#include "engine/widgets/split_join/split_join_settings.h"

namespace neuralpath::widgets {

void SplitJoinSettings::read(lesson::detail::WidgetFields& w) {
  query = w.fields.text("query", false).value_or("");
  sentence = w.sentence(SplitJoinModel::kMaxTokens, query);
  causal = w.causal_mask();
}

}  // namespace neuralpath::widgets
