// spotlight_kind.cpp: the spotlight's registry entry (registry.h): its model and view, and what
// the text version offers before the first frame (the block's sentences as buttons, a form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/spotlight/spotlight_view.h"

namespace neuralpath::ui {

using nlohmann::json;
using SpotlightWidget = ModelViewWidget<SpotlightModel, SpotlightView>;

const WidgetKind& spotlight_widget_kind() {
  static const WidgetKind kind = {
      SpotlightModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson&, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        return std::make_unique<SpotlightWidget>(SpotlightModel(std::get<lesson::Spotlight>(block.content), spec));
      },
      [](const lesson::Block& block, json& out) {
        const auto& w = std::get<lesson::Spotlight>(block.content);
        out["sentence"] = w.sentence;
        out["query"] = w.query;
        out["alternatives"] = w.alternatives;
        out["takes_sentence"] = true;
        if (w.alternatives.empty()) return;
        std::vector<std::string> sentences = {w.sentence};
        sentences.insert(sentences.end(), w.alternatives.begin(), w.alternatives.end());
        json items = json::array();
        for (std::size_t i = 0; i < sentences.size(); ++i)
          items.push_back({{"label", tr("widgets.quoted_sentence", {{"sentence", sentences[i]}})},
                           {"command", {{"type", "setSentence"}, {"text", sentences[i]}}},
                           {"when", {{"sentence_choice", i}}}});
        out["choices"] = {{"label", tr("widgets.sentences")}, {"items", items}};
      }};
  return kind;
}

}  // namespace neuralpath::ui
