// train_session_test.cpp: the train widget's model, headless: training in slices within a time
// budget, pause/resume/reset/seed, curves, the spotlight forming, snapshot/restore, the switch.
#include "engine/core/error.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"
#include "engine/widgets/train/train_session.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

#include <memory>

using namespace neuralpath;
using neuralpath::widgets::TrainSession;

namespace {

const char* kProbe = "The dog didn't cross the river because it was too tired.";

// A clock that moves 1 ms each time it is read, so budgets are exact and tests never sleep.
struct FakeClock {
  double now = 0.0;
  std::function<double()> fn() {
    return [this] { return now += 1.0; };
  }
};

std::unique_ptr<TrainSession> pronoun_session(FakeClock& clock) {
  const lesson::LoadResult loaded =
      lesson::load_lesson_file("lessons/self-attention.md", neuralpath::widgets::with_widgets());
  REQUIRE_MESSAGE(loaded.ok(), lesson::format_diagnostics(loaded.diagnostics));
  const lesson::TaskData* task = lesson::find_task(*loaded.lesson, "pronoun");
  REQUIRE(task != nullptr);
  return std::make_unique<TrainSession>(lesson::model_spec_for(*loaded.lesson),
                                        lesson::training_set(*loaded.lesson, *task), lesson::train_options(*task),
                                        kProbe, "it", clock.fn());
}

}  // namespace

TEST_CASE("the session trains only while running, a budget's worth of work per frame") {
  FakeClock clock;  // each piece of work (one example) reads the clock once: 1 ms a piece
  auto s = pronoun_session(clock);
  CHECK(s->advance(16) == 0);  // not started
  s->start();
  CHECK(s->advance(16) == 2);  // 16 pieces: two steps of the task's batch of 8
  CHECK(s->step() == 2);
  s->pause();
  CHECK(s->advance(16) == 0);
  CHECK(s->step() == 2);
  s->start();                 // resume
  CHECK(s->advance(4) == 0);  // half a step: a step may span frames...
  CHECK(s->advance(4) == 1);  // ...and completes in the next one
  CHECK(s->step() == 3);
  CHECK(s->advance(1000, 2) == 2);  // at most max_steps a slice, however large the budget
}

TEST_CASE(
    "training to the end: held-out accuracy reaches 95%, and the spotlight of \"it\" is not taught to find the dog") {
  FakeClock clock;
  auto s = pronoun_session(clock);
  const widgets::SpotlightNow before = s->spotlight();
  REQUIRE(before.query == 7);
  s->start();
  while (s->running()) s->advance(50);
  CHECK(s->finished());
  CHECK(s->step() == s->total_steps());
  const auto& curve = s->curve();
  REQUIRE(curve.size() >= 10);
  CHECK(curve.front().step == 0);
  CHECK(curve.back().step == s->total_steps());
  MESSAGE("held-out accuracy " << curve.front().held_out_accuracy << " -> " << curve.back().held_out_accuracy
                               << "; weight of 'dog' " << before.weights[1] << " -> " << s->spotlight().weights[1]);
  CHECK(curve.back().held_out_accuracy >= 0.95f);
  CHECK(curve.back().held_out_loss < curve.front().held_out_loss);
  CHECK(s->spotlight().weights[1] < 0.2f);  // the loss is on the output: "it" never learns to look at "dog"
}

TEST_CASE("reset and seed: the same seed retrains the same curve, another seed another one") {
  FakeClock clock;
  auto s = pronoun_session(clock);
  s->start();
  for (int i = 0; i < 5; ++i) s->advance(6);
  const widgets::CurvePoint recorded = s->curve().back();  // the last point recorded on the way
  s->reset();
  CHECK(s->step() == 0);
  CHECK_FALSE(s->running());
  CHECK(s->curve().size() == 1);
  s->restore({s->seed(), recorded.step, false, true});  // replays that many steps
  CHECK(s->step() == recorded.step);
  CHECK(s->curve().back().held_out_loss == recorded.held_out_loss);
  const float loss_at = recorded.held_out_loss;
  s->set_seed(99);
  CHECK(s->seed() == 99);
  s->restore({99, recorded.step, false, true});
  CHECK(s->curve().back().held_out_loss != loss_at);
}

TEST_CASE("the switch compares trained and hand-set weights, and try-your-own-sentence uses it") {
  FakeClock clock;
  auto s = pronoun_session(clock);
  s->restore({1, s->total_steps(), false, true});
  const auto trained = s->try_sentence("The fox didn't cross the field because it was too scared.");
  REQUIRE(trained);
  CHECK(trained->weights[1] < 0.2f);  // trained on the output: "it" was never taught to find the fox
  s->use_trained(false);
  CHECK_FALSE(s->showing_trained());
  const auto hand_set = s->try_sentence("The fox didn't cross the field because it was too scared.");
  REQUIRE(hand_set);
  CHECK(hand_set->top == 1);  // the hand-set weights look at the fox
  CHECK(hand_set->weights != trained->weights);
  CHECK_FALSE(s->try_sentence("The fox sat down."));  // no "it" to follow
  CHECK_THROWS_AS(s->try_sentence(""), InputError);
}

TEST_CASE("a curve point's held-out evaluation is spread over the slices after its step, with the same figures") {
  FakeClock clock;  // 1 ms a read: a slice of budget 8 does at most 8 pieces of work
  auto s = pronoun_session(clock);
  REQUIRE(s->held_out_count() > 100);
  s->start();
  int slices = 0;
  while (s->curve().size() < 2) {
    s->advance(8, 2);
    REQUIRE(++slices < 1000);
  }
  CHECK(s->curve()[1].step == 10);
  // 150 held-out sentences, a forward pass each, never all in one slice:
  CHECK(slices > static_cast<int>(s->held_out_count()) / 8);
  CHECK(s->step() < 20);  // training never runs a whole point ahead of the one being measured
  CHECK(s->running());
  auto whole = pronoun_session(clock);
  whole->restore({s->seed(), 10, false, true});  // the same step, measured whole
  CHECK(whole->curve().back().held_out_loss == s->curve()[1].held_out_loss);
  CHECK(whole->curve().back().held_out_accuracy == s->curve()[1].held_out_accuracy);
  CHECK(whole->spotlight().weights == s->spotlight().weights);  // of step 10's weights, too
  while (s->running()) s->advance(8, 2);
  CHECK(s->finished());
  CHECK(s->curve().back().step == s->total_steps());  // the last point is in before it stops
}
