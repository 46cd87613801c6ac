// heatmap_model_test.cpp: the heatmap's model alone (no ImGui): the causal mask in its weights
// and table, its commands and refusals, a snapshot into a fresh model.
#include "model_support.h"

#include "engine/widgets/heatmap/heatmap_model.h"

#include <doctest/doctest.h>

using namespace model_test::launch;

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
