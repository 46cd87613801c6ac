// widgets_models_test.cpp: each widget kind's model on its own — no ImGui context, no frame:
// typed commands and their results, state, snapshot/restore, and the text version's summary
// and table, checked against numbers worked out here from the lesson and the engine.
#include "engine/core/attention.h"
#include "engine/core/catalogue.h"
#include "engine/core/format.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/ui/drawable.h"
#include "engine/ui/widgets/cost_explorer/cost_explorer_model.h"
#include "engine/ui/widgets/heatmap/heatmap_model.h"
#include "engine/ui/widgets/mask_steps/mask_steps_model.h"
#include "engine/ui/widgets/spotlight/spotlight_model.h"

#include <doctest/doctest.h>

#include <imgui.h>

using namespace neuralpath;
using namespace neuralpath::ui;
using nlohmann::json;
using Outcome = CommandResult::Outcome;

namespace {

const lesson::Lesson& launch_lesson() {
  static const lesson::Lesson lesson = [] {
    lesson::LoadResult r = lesson::load_lesson_file("lessons/self-attention.md");
    REQUIRE(r.ok());
    return std::move(*r.lesson);
  }();
  return lesson;
}

const ModelSpec& launch_spec() {
  static const ModelSpec spec = lesson::model_spec_for(launch_lesson());
  return spec;
}

// The settings of a block of the launch lesson (a folder widget kind, widget_kinds.h).
template <class T>
const T& settings(const char* id) {
  const lesson::Block* b = lesson::find_block(launch_lesson(), id);
  REQUIRE(b != nullptr);
  const T* s = lesson::widget_settings<T>(*b);
  REQUIRE(s != nullptr);
  return *s;
}

template <class Model>
CommandResult send(Model& model, const json& message) {
  auto parsed = Model::parse(message);
  if (auto* reply = std::get_if<CommandResult>(&parsed)) return *reply;
  return model.apply(std::get<typename Model::Command>(parsed));
}

}  // namespace

TEST_CASE("models need no ImGui: no context exists while they run") {
  CHECK(ImGui::GetCurrentContext() == nullptr);
  HeatmapModel heatmap(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  CHECK(heatmap.has_trace());
  CHECK(ImGui::GetCurrentContext() == nullptr);
}

TEST_CASE("the heatmap model hides exactly the future while causal and reports it in its table") {
  HeatmapModel model(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  REQUIRE(model.has_trace());
  const int t = static_cast<int>(model.trace().tokens.size());
  REQUIRE(t == 4);  // "The cat sat down"
  const TextTable table = model.table();
  REQUIRE(table.rows.size() == 4);
  CHECK(table.columns == std::vector<std::string>{"", "The", "cat", "sat", "down"});
  for (int i = 0; i < t; ++i)
    for (int j = 0; j < t; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK((table.rows[i].cells[j] == "masked") == (j > i));
      if (j > i) CHECK(model.weights()(i, j) == 0.0f);
    }
  CHECK(table.rows[0].cells[0] == "100.0%");  // the first word sees only itself
  CHECK(model.summary().rfind("“The cat sat down”, 4 words. Causal mask", 0) == 0);
}

TEST_CASE("heatmap commands: typed results, refusals change nothing, unknown commands are not taken") {
  HeatmapModel model(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  const json before = model.state();
  CHECK(send(model, {{"type", "fly"}}).outcome() == Outcome::not_taken);
  const CommandResult head = send(model, {{"type", "setHead"}, {"head", 7}});
  CHECK(head.outcome() == Outcome::refused);
  CHECK(head.reason() == "\"head\" must be 0.." + std::to_string(model.trace().heads - 1));
  CHECK(send(model, {{"type", "selectCell"}, {"row", 4}, {"col", 0}}).outcome() == Outcome::refused);
  CHECK(send(model, {{"type", "setSentence"}, {"text", ""}}).outcome() == Outcome::refused);
  CHECK(model.state() == before);
  CHECK(send(model, {{"type", "selectCell"}, {"row", 2}, {"col", 1}}).done());
  REQUIRE(model.selected());
  CHECK(model.selected()->row == 2);
  CHECK_FALSE(model.take_explanation());  // selecting opens nothing
  CHECK(send(model, {{"type", "explain"}, {"row", 2}, {"col", 1}}).done());
  const auto explanation = model.take_explanation();
  REQUIRE(explanation);
  CHECK(explanation->title.rfind("'sat' → 'cat': ", 0) == 0);
}

TEST_CASE("a heatmap snapshot restores into a fresh model: sentence, mask, selection") {
  HeatmapModel first(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  REQUIRE(send(first, {{"type", "setSentence"}, {"text", "the dog sat"}}).done());
  REQUIRE(send(first, {{"type", "setMask"}, {"mask", "none"}}).done());
  REQUIRE(send(first, {{"type", "selectCell"}, {"row", 1}, {"col", 2}}).done());
  const json snapshot = first.snapshot();
  CHECK(snapshot.dump().size() < 80);  // compact enough for a shared URL
  HeatmapModel second(settings<HeatmapSettings>("causal-grid"), {}, launch_spec());
  REQUIRE(second.restore(snapshot).done());
  CHECK(second.state()["sentence"] == "the dog sat");
  CHECK(second.state()["causal"] == false);
  CHECK(second.state()["selected"] == json{{"row", 1}, {"col", 2}});
  CHECK(second.restore(json{{"nothing", 1}}).outcome() == Outcome::refused);
}

TEST_CASE("the mask steps model: stages by name or index, the mistakes from the engine's core") {
  MaskStepsModel model(settings<MaskStepsSettings>("mask-walkthrough"), {}, launch_spec());
  REQUIRE(model.has_trace());
  CHECK(model.stage() == MaskStage::Raw);
  CHECK(send(model, {{"type", "stage"}, {"stage", "softmax"}}).done());
  CHECK(model.stage_index() == 3);
  CHECK(send(model, {{"type", "stage"}, {"stage", 9}}).outcome() == Outcome::refused);
  CHECK(model.stage_index() == 3);
  // Mask after softmax: the last word sees every key, so its row still sums to 1; every
  // earlier row lost the future's share.
  const Vector& sums = model.after_softmax().row_sums;
  const Index last = sums.size() - 1;
  CHECK(sums[last] == doctest::Approx(1.0f));
  for (Index r = 0; r < last; ++r) CHECK(sums[r] < 0.999f);
  CHECK(model.row_sum_whole(last));
  CHECK_FALSE(model.row_sum_whole(0));
  // d_k for the "no scaling" demo: powers of two from 2 to 1024.
  CHECK(send(model, {{"type", "mistake"}, {"mistake", "no-scale"}, {"d", 256}}).done());
  CHECK(model.scale_demo_now().d == 256);
  CHECK(send(model, {{"type", "mistake"}, {"mistake", "no-scale"}, {"d", 3}}).outcome() == Outcome::refused);
  CHECK(model.scale_demo_now().d == 256);
  CHECK(model.mistake() == Mistake::no_scale);
  // The summary names the stage in words.
  CHECK(model.summary() == "Stage 4 of 4: weights after the softmax for “The cat sat down”.");
}

TEST_CASE("the cost explorer model counts T² and refuses the naive kernel past the tab's budget") {
  CostExplorerSettings settings;
  settings.lengths = {1000, 10000};
  settings.heads = 12;
  CostExplorerModel model(settings, {});
  CHECK(model.t() == 1000);
  CHECK(model.figures().pairs == 1000000u);
  CHECK(model.figures().bytes_fp32 == 4.0e6);
  CHECK(model.figures().bytes_all_heads == 12 * 2 * 1.0e6);
  // 4 float matrices of T×T: 16·T² bytes; 256 MiB is exactly T = 4096.
  REQUIRE(send(model, {{"type", "setLength"}, {"T", 4096}}).done());
  CHECK(model.figures().naive_fits);
  REQUIRE(send(model, {{"type", "setLength"}, {"T", 4097}}).done());
  CHECK_FALSE(model.figures().naive_fits);
  CHECK(send(model, {{"type", "setLength"}, {"T", 5}}).reason() == "\"T\" must be from 10 to 100000");
  CHECK(model.summary() ==
        "For T = 4,097 words: 16,785,409 pairs of words. The full score matrix takes 32.02 MiB per head (384.19 MiB "
        "for 12 heads); the tiled kernel keeps only " + format_bytes(static_cast<double>(model.figures().tiled_bytes)) +
        " at a time.");
}

TEST_CASE("a cost explorer run goes on over updates, reports once, and refuses changes while running") {
  CostExplorerSettings settings;
  CostExplorerModel model(settings, {});
  REQUIRE(send(model, {{"type", "run"}, {"T", 200}}).done());
  CHECK(model.running());
  CHECK(send(model, {{"type", "setLength"}, {"T", 300}}).reason() == "a run is in progress; stop it first");
  CHECK(send(model, {{"type", "run"}}).reason() == "a run is in progress");
  for (int frame = 0; frame < 10000 && model.running(); ++frame) model.update(1.0f / 60);
  REQUIRE_FALSE(model.running());
  const auto events = model.take_events();
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "costRun");
  CHECK(events[0]["naive"]["status"] == "done");
  CHECK(events[0]["tiled"]["status"] == "done");
  CHECK(events[0]["max_difference"].get<float>() < 1e-5f);
  CHECK(model.take_events().empty());
  CHECK(send(model, {{"type", "stop"}}).reason() == "no run is in progress");
}

TEST_CASE("the spotlight model: the query's weights share one whole, the query moves by word or index") {
  SpotlightModel model(settings<SpotlightSettings>("it-spotlight"), {}, launch_spec());
  REQUIRE(model.has_trace());
  CHECK(model.trace().labels[static_cast<std::size_t>(model.query())] == "it");
  CHECK(model.weights().sum() == doctest::Approx(1.0f));
  CHECK(model.top() != model.query());
  float blended = 0;
  for (const auto& term : model.blend()) blended += term.weight;
  CHECK(blended == doctest::Approx(1.0f));  // the blend's terms and "others" add up to every weight
  REQUIRE(send(model, {{"type", "setQuery"}, {"query", "animal"}}).done());
  CHECK(model.trace().labels[static_cast<std::size_t>(model.query())] == "animal");
  REQUIRE(send(model, {{"type", "setQuery"}, {"query", 0}}).done());
  CHECK(model.query() == 0);
  CHECK(send(model, {{"type", "setQuery"}, {"query", "zebra"}}).outcome() == Outcome::refused);
  CHECK(model.query() == 0);
  // The learner's own sentence becomes "Yours"; a bad one keeps the old and says why.
  REQUIRE(send(model, {{"type", "setSentence"}, {"text", "the cat saw it"}}).done());
  CHECK(model.custom());
  CHECK(model.labels().back() == "Yours");
  CHECK(send(model, {{"type", "setSentence"}, {"text", "   "}}).outcome() == Outcome::refused);
  CHECK(model.sentence() == "the cat saw it");
  CHECK_FALSE(model.input_error().empty());
  const TextTable table = model.table();
  // The query stays on the same word ("the", chosen above) across sentences.
  CHECK(model.trace().labels[static_cast<std::size_t>(model.query())] == "the");
  CHECK(table.caption == "Where “the” looks");
  CHECK(table.rows.size() == model.trace().tokens.size());
}

TEST_CASE("a sentence with emoji is refused with a message and the widget keeps its own (#15: drawn as a replacement mark)") {
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
