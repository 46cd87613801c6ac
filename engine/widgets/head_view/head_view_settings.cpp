// head_view_settings.cpp: a ```head-view block's keys -> HeadViewSettings. Part of the widget
// library; reads the block with the lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/head_view/head_view_model.h"
#include "engine/widgets/head_view/head_view_settings.h"

#include <cctype>

namespace neuralpath::widgets {

void HeadViewSettings::read(lesson::detail::WidgetFields& w) {
  query = w.fields.text("query", false).value_or("");
  for (char& c : query) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  sentence = w.sentence(HeadViewModel::kMaxTokens, query);  // the checker runs it, and finds the query word in it
  causal = w.causal_mask(/*otherwise=*/false);
}

}  // namespace neuralpath::widgets
