// models_words_test.cpp: what every model says: a sentence the fonts cannot draw is refused with
// a message (the widget keeps its own), and every catalogue key the models look up exists.
#include "model_support.h"

#include "engine/widgets/drawable.h"
#include "engine/widgets/cost_explorer/cost_explorer_model.h"
#include "engine/widgets/heatmap/heatmap_model.h"
#include "engine/widgets/mask_steps/mask_steps_model.h"
#include "engine/widgets/spotlight/spotlight_model.h"

#include <doctest/doctest.h>

using namespace model_test::launch;

TEST_CASE(
    "a sentence with emoji is refused with a message and the widget keeps its own (#15: drawn as a replacement mark)") {
  CHECK(undrawable("the cat 🙂 sat 🙂 ü ∑") == "🙂");
  CHECK(undrawable("a \xEF\xBF\xBD b") == "\xEF\xBF\xBD");  // U+FFFD: a character the keyboard lost
  CHECK(undrawable("Él dijo «hola» — ¿sí?\tvale") == "");
  const std::string refusal = tr("widgets.cannot_draw");
  HeatmapModel heatmap(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  const json before = heatmap.state();
  const CommandResult r = send(heatmap, {{"type", "setSentence"}, {"text", "the cat 🙂 sat"}});
  CHECK(r.outcome() == Outcome::refused);
  CHECK(r.reason() == refusal);
  CHECK(heatmap.state() == before);
  SpotlightModel spotlight(settings<SpotlightSettings>("it-spotlight"), {}, launch_spec());
  CHECK(send(spotlight, {{"type", "setSentence"}, {"text", "🐈 sat on it"}}).reason() == refusal);
  CHECK(spotlight.input_error() == refusal);
  for (const auto& token : spotlight.trace().labels) CHECK(undrawable(token).empty());
  // A shared link carrying one: the snapshot is refused, so the page says the link was partly read.
  HeatmapModel shared(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  json snapshot = heatmap.snapshot();
  snapshot["s"] = "🙂 cat";
  CHECK(shared.restore(snapshot).outcome() == Outcome::refused);
  CHECK(shared.state() == before);
}

TEST_CASE("drawing words never miss the catalogue: every key the models used exists") {
  take_missing_keys();
  HeatmapModel heatmap(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  MaskStepsModel steps(settings<MaskStepsSettings>("mask-walkthrough"), {}, launch_spec());
  SpotlightModel spotlight(settings<SpotlightSettings>("it-spotlight"), {}, launch_spec());
  CostExplorerModel cost(CostExplorerSettings{}, {});
  (void)heatmap.state();
  (void)steps.state();
  (void)spotlight.state();
  (void)cost.state();
  (void)heatmap.explain_cell({1, 0});
  (void)heatmap.explain_row_sum(1);
  (void)spotlight.explain_weight(0);
  (void)spotlight.explain_others();
  (void)steps.explain_bar(0, 0.5f, true);
  (void)steps.explain_largest(false);
  (void)cost.explain_figure("pairs");
  (void)cost.explain_figure("block");
  CHECK(take_missing_keys() == std::vector<std::string>{});
}
