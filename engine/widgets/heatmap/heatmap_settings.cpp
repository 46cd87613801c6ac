// heatmap_settings.cpp: a ```heatmap block's keys -> HeatmapSettings, read with the lesson
// parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/heatmap/heatmap_model.h"
#include "engine/widgets/heatmap/heatmap_settings.h"

namespace neuralpath::widgets {

void HeatmapSettings::read(lesson::detail::WidgetFields& w) {
  sentence = w.sentence(HeatmapModel::kMaxTokens);
  causal = w.causal_mask();
  bert_switch = w.fields.flag("bert", false);
}

}  // namespace neuralpath::widgets
