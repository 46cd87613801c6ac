// head_view_settings.cpp: a ```head-view block's keys -> HeadViewSettings. Compiled into the
// lesson library (engine/lesson/CMakeLists.txt), so it may use the lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/head_view/head_view_settings.h"

#include <cctype>

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_head_view_settings(WidgetFields& w) {
  auto s = std::make_shared<ui::HeadViewSettings>();
  s->query = w.fields.text("query", false).value_or("");
  for (char& c : s->query) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  s->sentence = w.sentence(s->query);  // the checker runs it, and finds the query word in it
  if (auto mask = w.fields.source("mask", false)) {
    if (mask->text() == "causal") s->causal = true;
    else if (mask->text() != "none")
      w.ctx.error(mask->origin(0), "'mask' should be none or causal, not '" + mask->text() + "'");
  }
  return s;
}

}  // namespace neuralpath::lesson::detail
