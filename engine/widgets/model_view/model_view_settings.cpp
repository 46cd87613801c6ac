// model_view_settings.cpp: a ```model-view block's keys -> ModelViewSettings. Part of the widget
// library; reads the block with the lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/model_view/model_view_model.h"
#include "engine/widgets/model_view/model_view_settings.h"

namespace neuralpath::widgets {

void ModelViewSettings::read(lesson::detail::WidgetFields& w) {
  sentence = w.sentence(ModelViewModel::kMaxTokens);  // the checker runs it through the lesson's model
  causal = w.causal_mask(/*otherwise=*/false);
}

}  // namespace neuralpath::widgets
