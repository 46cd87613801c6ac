// heatmap_settings.cpp: a ```heatmap block's keys -> HeatmapSettings. Compiled into the lesson
// library (engine/lesson/CMakeLists.txt), so it may use the lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/heatmap/heatmap_settings.h"

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_heatmap_settings(WidgetFields& w) {
  auto h = std::make_shared<ui::HeatmapSettings>();
  h->sentence = w.sentence();
  h->causal = w.causal_mask();
  h->bert_switch = w.fields.flag("bert", false);
  return h;
}

}  // namespace neuralpath::lesson::detail
