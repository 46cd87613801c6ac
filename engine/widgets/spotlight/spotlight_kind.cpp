// spotlight_kind.cpp: the spotlight's registry entry (folder_kind.h), and what the text version
// offers before the first frame (the block's sentences as buttons, a form).
#include "engine/core/catalogue.h"
#include "engine/ui/widgets/folder_kind.h"
#include "engine/ui/widgets/spotlight/spotlight_view.h"

namespace neuralpath::ui {

using nlohmann::json;

namespace {

void describe_spotlight(const SpotlightSettings& w, json& out) {
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
}

}  // namespace

const WidgetKind& spotlight_widget_kind() {
  return folder_widget_kind<SpotlightSettings, SpotlightModel, SpotlightView, describe_spotlight>();
}

}  // namespace neuralpath::ui
