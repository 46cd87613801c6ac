// widgets.h: the lesson widgets this folder provides, one file each. make_widget()
// (factory.cpp) picks one for a widget block; tests may build them directly.
//
//   spotlight.cpp      where one word's attention goes, as beams; A/B sentences; your sentence
//   heatmap.cpp        the T×T weights, causal or BERT, each cell explained
//   mask_steps.cpp     raw -> scaled -> masked -> softmax, and three common mistakes made live
//   cost_explorer.cpp  T² growth, and the naive and tiled kernels run side by side
//
// Each widget runs the engine once per change (sentence, mask, length) and draws only what
// that run returned; explain.h makes every drawn number explain itself.
#pragma once
#include "engine/ui/widget.h"

#include <memory>
#include <optional>

namespace neuralpath::ui {

// An integer field of a command ({"head": 1}), or nothing when absent or not an integer.
inline std::optional<int> int_field(const nlohmann::json& message, const char* name) {
  if (!message.contains(name) || !message[name].is_number_integer()) return std::nullopt;
  return message[name].get<int>();
}

std::unique_ptr<Widget> make_spotlight_widget(const lesson::Spotlight& block, const ModelSpec& spec);
std::unique_ptr<Widget> make_heatmap_widget(const lesson::Heatmap& block, const ModelSpec& spec);
std::unique_ptr<Widget> make_mask_steps_widget(const lesson::MaskSteps& block, const ModelSpec& spec);
std::unique_ptr<Widget> make_cost_explorer_widget(const lesson::CostExplorer& block);

}  // namespace neuralpath::ui
