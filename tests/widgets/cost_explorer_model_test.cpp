// cost_explorer_model_test.cpp: the cost explorer's model alone: T² counted, the naive kernel
// refused past the tab's budget, a run over updates reported once.
#include "model_support.h"

#include "engine/widgets/cost_explorer/cost_explorer_model.h"

#include <doctest/doctest.h>

using namespace model_test::launch;

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
        "for 12 heads); the tiled kernel keeps only " +
            format_bytes(static_cast<double>(model.figures().tiled_bytes)) + " at a time.");
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
