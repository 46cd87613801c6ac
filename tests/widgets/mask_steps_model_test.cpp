// mask_steps_model_test.cpp: the mask steps' model alone: stages by name or index, the three
// mistakes made by the engine's core.
#include "model_support.h"

#include "engine/widgets/mask_steps/mask_steps_model.h"

#include <doctest/doctest.h>

using namespace model_test::launch;

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
