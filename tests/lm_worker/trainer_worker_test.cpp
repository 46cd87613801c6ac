// trainer_worker_test.cpp: what the page's trainer worker does with each message
// (engine/lm_worker/trainer_worker.h), driven directly as the Web Worker drives it.
#include "engine/lm_worker/trainer_worker.h"
#include "test_data.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using namespace neuralpath::lmworker;

namespace {

// The tiny config's shapes but the quick test's batch size are not a named config, so the
// worker tests use "tiny" with a short schedule on the small corpus.
Open quick_open(int run = 1) {
  Open o;
  o.run = run;
  o.data = "models/train-test.nptok";
  o.config = "tiny";
  o.seed = 4;
  o.steps = 60;
  o.prompt = "The ";
  o.text = "The cat sat. The cat";
  return o;
}

std::string data_bytes() { return lm::page_data_bytes(test::small_page_data()); }

template <class T>
T only(const std::vector<Reply>& replies) {
  REQUIRE(replies.size() == 1);
  if constexpr (!std::is_same_v<T, Error>)
    if (const auto* e = std::get_if<Error>(&replies[0])) FAIL("an error: " << e->message);
  REQUIRE(std::holds_alternative<T>(replies[0]));
  return std::get<T>(replies[0]);
}

std::vector<Snapshot> snapshots(const std::vector<Reply>& replies) {
  std::vector<Snapshot> out;
  for (const Reply& r : replies) {
    if (const auto* e = std::get_if<Error>(&r)) FAIL("an error: " << e->message);
    if (const auto* s = std::get_if<Snapshot>(&r)) out.push_back(*s);
  }
  return out;
}

// A worker whose clock moves 1 ms per reading, so budgets are in steps, not in wall time.
TrainerWorker stepped_worker() {
  auto clock = std::make_shared<double>(0.0);
  return TrainerWorker([clock] { return *clock += 1.0; });
}

// Opens the test data in `w` and runs run 1 for `steps` steps.
void train_for(TrainerWorker& w, int steps) {
  (void)w.open(data_bytes(), quick_open());
  (void)w.handle(Train{1, std::nullopt});
  (void)w.work(steps, 1e9);
}

}  // namespace

TEST_CASE("open answers ready (the data's facts, the bigram) and a snapshot at step 0") {
  TrainerWorker w = stepped_worker();
  const std::vector<Reply> replies = w.open(data_bytes(), quick_open());
  REQUIRE(replies.size() == 2);
  const Ready& ready = std::get<Ready>(replies[0]);
  CHECK(ready.run == 1);
  CHECK(ready.lang == "en");
  CHECK(ready.source == "test sentences");
  CHECK(ready.config == "tiny");
  CHECK(ready.layers == 2);
  CHECK(ready.train_documents == 54);
  CHECK(ready.bigram_loss == doctest::Approx(w.run().bigram_loss()));
  const Snapshot& s = std::get<Snapshot>(replies[1]);
  CHECK(s.step == 0);
  CHECK(s.steps == 60);
  CHECK_FALSE(s.running);
  CHECK(s.curve.size() == 1);
  CHECK(s.history.size() == 1);
  CHECK(s.samples.size() == 1);
  CHECK(s.heads.size() == 4);
  REQUIRE(s.text);
  CHECK(s.text->tokens.front().empty());
  REQUIRE(s.probe);
  CHECK(s.probe->tokens.size() == 31u);  // <doc> + 15 random tokens + the same 15 again
  CHECK_FALSE(w.running());
}

TEST_CASE("train runs in work() slices; snapshots carry each curve point, head row and sample once") {
  TrainerWorker w = stepped_worker();
  std::vector<Snapshot> all = snapshots(w.open(data_bytes(), quick_open()));
  CHECK(w.handle(Train{1, std::nullopt}).empty());
  CHECK(w.running());
  while (w.running()) {
    const std::vector<Reply> replies = w.work(7, 1000.0);
    for (const Snapshot& s : snapshots(replies)) all.push_back(s);
  }
  CHECK(all.back().step == 60);
  CHECK_FALSE(all.back().running);
  std::vector<int> curve_steps, history_steps, sample_steps;
  for (const Snapshot& s : all) {
    CHECK(s.curve_from == static_cast<int>(curve_steps.size()));
    CHECK(s.history_from == static_cast<int>(history_steps.size()));
    CHECK(s.samples_from == static_cast<int>(sample_steps.size()));
    for (const CurvePoint& p : s.curve) curve_steps.push_back(p.step);
    for (const HeadsRow& r : s.history) history_steps.push_back(r.step);
    for (const SampleText& t : s.samples) sample_steps.push_back(t.step);
  }
  CHECK(curve_steps == std::vector<int>{0, 25, 50, 60});
  CHECK(history_steps == curve_steps);
  CHECK(sample_steps == std::vector<int>{0, 60});       // every 250 steps, and the last
  CHECK(w.handle(Train{1, std::nullopt}).size() == 1);  // finished: it says where it stands
  CHECK_FALSE(w.running());
}

TEST_CASE("a time budget ends a slice after at least one step") {
  auto clock = std::make_shared<double>(0.0);
  TrainerWorker w([clock] { return *clock += 40.0; });  // every reading 40 ms later
  (void)w.open(data_bytes(), quick_open());
  (void)w.handle(Train{1, std::nullopt});
  (void)w.work(100, 60.0);
  CHECK(w.run().steps_done() == 2);  // 40 ms in after one step, 80 after two: over 60
  (void)w.work(100, 0.0);
  CHECK(w.run().steps_done() == 3);  // never zero steps
}

TEST_CASE("train until a step pauses there (a restored page replays its steps)") {
  TrainerWorker w = stepped_worker();
  (void)w.open(data_bytes(), quick_open());
  (void)w.handle(Train{1, 33});
  std::vector<Snapshot> got;
  while (w.running())
    for (const Snapshot& s : snapshots(w.work(100, 1e9))) got.push_back(s);
  CHECK(w.run().steps_done() == 33);
  REQUIRE_FALSE(got.empty());
  CHECK(got.back().step == 33);
  CHECK_FALSE(got.back().running);
  // The same weights as a run trained straight through: replaying lands where the learner was.
  TrainerWorker straight = stepped_worker();
  (void)straight.open(data_bytes(), quick_open());
  (void)straight.handle(Train{1, std::nullopt});
  while (straight.run().steps_done() < 33) (void)straight.work(1, 1e9);
  CHECK(straight.run().model().weights == w.run().model().weights);
}

TEST_CASE("pause answers a snapshot that is not running; text answers its attention") {
  TrainerWorker w = stepped_worker();
  train_for(w, 3);
  const Snapshot paused = only<Snapshot>(w.handle(Pause{1}));
  CHECK(paused.step == 3);
  CHECK_FALSE(paused.running);
  CHECK(w.work(5, 1e9).empty());  // paused: no steps
  CHECK(w.run().steps_done() == 3);
  const Snapshot texted = only<Snapshot>(w.handle(Text{1, "A dog ran."}));
  REQUIRE(texted.text);
  std::string joined;
  for (const std::string& t : texted.text->tokens) joined += t;
  CHECK(joined == "A dog ran.");
}

TEST_CASE("start begins a new run at step 0; messages for another run are refused and change nothing") {
  TrainerWorker w = stepped_worker();
  train_for(w, 10);
  const Error stale = only<Error>(w.handle(Pause{7}));
  CHECK(stale.run == 7);
  CHECK(stale.message.find("not the current run") != std::string::npos);
  CHECK(w.running());  // the refused pause did not pause run 1
  const Snapshot fresh = only<Snapshot>(w.handle(Start{2, 9}));
  CHECK(fresh.run == 2);
  CHECK(fresh.step == 0);
  CHECK_FALSE(fresh.running);
  CHECK(fresh.curve_from == 0);  // the receiver starts its lists again
  CHECK(fresh.curve.size() == 1);
  CHECK(only<Error>(w.handle(Train{1, std::nullopt})).run == 1);
}

TEST_CASE("bad data or a bad config is an error reply, never a crash, and nothing runs") {
  TrainerWorker w = stepped_worker();
  const Error garbage = only<Error>(w.open("not a data file", quick_open()));
  CHECK(garbage.message.find("NPTOK1") != std::string::npos);
  CHECK_FALSE(w.has_run());
  Open unknown = quick_open();
  unknown.config = "huge";
  CHECK(only<Error>(w.open(data_bytes(), unknown)).message.find("unknown model config 'huge'") != std::string::npos);
  CHECK(only<Error>(w.handle(Train{1, std::nullopt})).message.find("no data") != std::string::npos);
  CHECK(only<Error>(w.handle(quick_open())).message.find("needs the data") != std::string::npos);
}
