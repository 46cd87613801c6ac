// factory.cpp: make_widget(), the one place a widget block becomes its view (widget.h).
#include "engine/ui/playback/playback_widget.h"
#include "engine/ui/widgets/widgets.h"

#include <type_traits>

namespace neuralpath::ui {

std::unique_ptr<Widget> make_widget(const lesson::Block& block, const lesson::Lesson& lesson,
                                    const ModelSpec& spec) {
  return std::visit(
      [&](const auto& content) -> std::unique_ptr<Widget> {
        using T = std::decay_t<decltype(content)>;
        if constexpr (std::is_same_v<T, lesson::Spotlight>) return make_spotlight_widget(content, spec);
        else if constexpr (std::is_same_v<T, lesson::Heatmap>) return make_heatmap_widget(content, spec);
        else if constexpr (std::is_same_v<T, lesson::MaskSteps>) return make_mask_steps_widget(content, spec);
        else if constexpr (std::is_same_v<T, lesson::CostExplorer>) return make_cost_explorer_widget(content);
        else if constexpr (std::is_same_v<T, lesson::Playback>) return make_playback_widget(content, lesson, spec);
        else return nullptr;  // prose, checks, callouts...: the page draws those itself
      },
      block.content);
}

}  // namespace neuralpath::ui
