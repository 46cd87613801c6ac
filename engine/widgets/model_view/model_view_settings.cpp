// model_view_settings.cpp: a ```model-view block's keys -> ModelViewSettings. Compiled into the
// lesson library (engine/lesson/CMakeLists.txt), so it may use the lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/model_view/model_view_settings.h"

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_model_view_settings(WidgetFields& w) {
  auto s = std::make_shared<ui::ModelViewSettings>();
  s->sentence = w.sentence();  // the checker runs it through the lesson's model
  if (auto mask = w.fields.source("mask", false)) {
    if (mask->text() == "causal") s->causal = true;
    else if (mask->text() != "none")
      w.ctx.error(mask->origin(0), "'mask' should be none or causal, not '" + mask->text() + "'");
  }
  return s;
}

}  // namespace neuralpath::lesson::detail
