// train_worker_test.cpp: the attention trainer's worker (train_worker.h) and its messages
// (train_protocol.h), wired to the train widget's model as the page wires them: the model's
// train-worker events go to a TrainWorker (with the lesson's text added, as np-train.js adds it),
// and its replies come back as worker{message} commands, through JSON both ways.
#include "model_support.h"

#include "engine/lesson/task_set.h"
#include "engine/text/catalogue.h"
#include "engine/widgets/train/train_model.h"
#include "engine/widgets/train/train_worker.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <fstream>
#include <sstream>

using namespace neuralpath;
using model_test::send;
using neuralpath::widgets::TrainModel;
using neuralpath::widgets::TrainSession;
using nlohmann::json;
namespace tw = neuralpath::widgets::trainworker;

namespace {

std::string lesson_text(const std::string& id) {
  std::ifstream in("lessons/" + id + ".md", std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TrainModel lesson_model(const std::string& lesson_id, const char* block_id) {
  return model_test::train_model_of(lesson_id, block_id);
}

// The page with its trainer worker: train_in_workers(true) while it lives (a process-wide
// capability, so it is put back for the other tests).
// Unpaced unless asked (these tests follow the steps; the pace has a test of its own).
struct PageWithWorker {
  std::string lesson;
  double clock_ms = 0.0;
  double clock_step_ms = 1.0;  // the clock moves this much each time it is read (1 ms: about a step)
  tw::TrainWorker worker;
  std::size_t replies = 0;
  explicit PageWithWorker(std::string text, double progress_every_ms = tw::TrainWorker::kProgressEveryMs,
                          double steps_per_second = 0.0)
      : lesson(std::move(text)),
        worker([this] { return clock_ms += clock_step_ms; }, progress_every_ms, steps_per_second) {
    TrainModel::train_in_workers(true);
  }
  ~PageWithWorker() { TrainModel::train_in_workers(false); }

  // The model's requests to the worker, as np-train.js posts them.
  void post_events(TrainModel& m) {
    for (json event : m.take_events()) {
      if (event["type"] != "train-worker") continue;
      json message = event["message"];
      if (message["type"] == "train" || message["type"] == "prepare") message["lesson"] = lesson;
      auto decoded = tw::decode_request(json::parse(message.dump()));
      const auto* why = std::get_if<std::string>(&decoded);
      REQUIRE_MESSAGE(why == nullptr, (why ? *why : std::string()));
      deliver(m, worker.handle(std::get<tw::Request>(decoded)));
    }
  }
  void deliver(TrainModel& m, const std::vector<tw::Reply>& sent) {
    replies += sent.size();
    for (const tw::Reply& r : sent)
      REQUIRE(send(m, {{"type", "worker"}, {"message", json::parse(tw::encode(r).dump())}}).done());
  }
  // One turn of the worker's loop (a slice of `ms`), its replies handed to the model.
  void turn(TrainModel& m, double ms = 5.0) {
    post_events(m);
    deliver(m, worker.work(ms));
  }
};

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

void check_same_training(TrainModel& in_worker, TrainModel& in_frames) {
  const json w = in_worker.state(), f = in_frames.state();
  CHECK(w["step"] == f["step"]);
  CHECK(w["curve"] == f["curve"]);
  CHECK(w["spotlight"] == f["spotlight"]);
  CHECK(w["summary"] == f["summary"]);
  const ModelSpec& a = in_worker.session().model();
  const ModelSpec& b = in_frames.session().model();
  CHECK(same_bits(a.attention.w_q, b.attention.w_q));
  CHECK(same_bits(a.attention.w_v, b.attention.w_v));
  CHECK(same_bits(a.feed_forward.w1, b.feed_forward.w1));
}

}  // namespace

TEST_CASE("trained in the worker, with a pause and a resume, the page lands where training in its frames does" *
          doctest::test_suite("slow")) {
  // Progress at every curve point, and at most every 100 ms (what the page gets): the same run.
  for (const double every : {0.0, tw::TrainWorker::kProgressEveryMs})
    for (const auto& [lesson_id, block_id] :
         {std::pair<std::string, const char*>{"self-attention", "train-pronoun"}, {"multi-head", "train-heads"}}) {
      CAPTURE(lesson_id);
      CAPTURE(every);
      TrainModel in_frames = lesson_model(lesson_id, block_id);
      const int total = in_frames.state()["total_steps"].get<int>();
      REQUIRE(send(in_frames, {{"type", "trainSteps"}, {"n", total}}).done());

      PageWithWorker page(lesson_text(lesson_id), every);
      TrainModel m = lesson_model(lesson_id, block_id);
      REQUIRE(send(m, {{"type", "train"}}).done());
      CHECK_FALSE(m.wants_another_frame());  // the frames have nothing to do but draw what comes
      bool paused_once = false;
      int last_step = 0;
      for (int turn = 0; turn < 100000 && !m.state()["finished"].get<bool>(); ++turn) {
        m.update(1.0f / 60);  // a frame: never a training step
        page.turn(m);
        const int step = m.state()["step"].get<int>();
        CHECK(step >= last_step);  // a resumed run goes on from where it paused, never from 0
        last_step = step;
        if (!paused_once && step >= 37) {
          REQUIRE(send(m, {{"type", "pause"}}).done());
          page.post_events(m);  // the worker stops; what it took past the page's step is dropped
          CHECK_FALSE(page.worker.running());
          CHECK(m.state()["step"] == step);  // the learner stops at the step on screen
          CHECK_FALSE(m.state()["running"].get<bool>());
          CHECK(m.state()["spotlight_step"] == m.state()["step"]);
          REQUIRE(send(m, {{"type", "train"}}).done());  // resumed from that very state
          paused_once = true;
        }
      }
      CHECK(paused_once);
      CHECK(m.state()["finished"] == true);
      CHECK(m.state()["in_worker"] == true);
      CHECK(m.state()["longest_slice_ms"] == 0.0);  // no frame trained
      CHECK(m.state()["steps_per_second"].get<double>() > 0.0);
      check_same_training(m, in_frames);
      // Throttled, a progress per 100 "ms" (about 100 steps) at most, plus the stops; else one per point.
      if (every > 0)
        CHECK(page.replies <= static_cast<std::size_t>(total / 100 + 4));
      else
        CHECK(page.replies >= static_cast<std::size_t>(total / TrainSession::kRecordEvery));
      // The learning platform's statement, once, as in the frames.
      int trained_events = 0;
      for (const json& e : m.take_events()) trained_events += e["type"] == "trained";
      CHECK(trained_events == 1);
    }
}

TEST_CASE("on screen, the widget has its worker build the trainer before the first Train, once") {
  {  // natively (no workers) there is nothing to prepare
    TrainModel m = lesson_model("self-attention", "train-pronoun");
    REQUIRE(send(m, {{"type", "prepareTrainer"}}).done());
    CHECK(m.take_events().empty());
  }
  PageWithWorker page(lesson_text("self-attention"), 0.0);
  TrainModel m = lesson_model("self-attention", "train-pronoun");
  REQUIRE(send(m, {{"type", "prepareTrainer"}}).done());
  REQUIRE(send(m, {{"type", "prepareTrainer"}}).done());  // the view asks once; a host may ask again
  const std::vector<json> events = m.take_events();
  REQUIRE(events.size() == 1);
  CHECK(events[0]["message"]["type"] == "prepare");
  CHECK(events[0]["message"]["task"] == "pronoun");
  CHECK_FALSE(page.worker.built());
  for (const json& event : events) {  // as post_events, with the events already taken
    json message = event["message"];
    message["lesson"] = page.lesson;
    page.deliver(m, page.worker.handle(std::get<tw::Request>(tw::decode_request(message))));
  }
  CHECK(page.worker.built());  // built while the learner reads
  CHECK_FALSE(page.worker.running());
  CHECK(page.replies == 0);  // nothing to say until a run
  CHECK(m.state()["step"] == 0);

  // The first Train runs on the prepared session, and lands where the frames do.
  REQUIRE(send(m, {{"type", "train"}}).done());
  page.turn(m, 40.0);
  REQUIRE(send(m, {{"type", "prepareTrainer"}}).done());  // during a run: nothing goes out
  CHECK(m.take_events().empty());
  REQUIRE(send(m, {{"type", "pause"}}).done());
  page.post_events(m);
  const int step = m.state()["step"].get<int>();
  REQUIRE(step > 0);
  TrainModel in_frames = lesson_model("self-attention", "train-pronoun");
  REQUIRE(send(in_frames, {{"type", "trainSteps"}, {"n", step}}).done());
  check_same_training(m, in_frames);

  // A prepare that arrives while the worker trains changes nothing there.
  tw::Prepare again{page.lesson, "pronoun", m.session().probe(), m.session().query()};
  REQUIRE(send(m, {{"type", "train"}}).done());
  page.post_events(m);
  REQUIRE(page.worker.running());
  CHECK(page.worker.handle(again).empty());
  CHECK(page.worker.running());
}

TEST_CASE("a prepare the worker cannot build says why, and the widget will train in its frames") {
  PageWithWorker page(lesson_text("self-attention"), 0.0);
  TrainModel m = lesson_model("self-attention", "train-pronoun");
  const std::vector<tw::Reply> replies =
      page.worker.handle(tw::Prepare{page.lesson, "no-such-task", m.session().probe(), m.session().query()});
  REQUIRE(replies.size() == 1);
  const auto& error = std::get<tw::Error>(replies[0]);
  CHECK(error.run == 0);  // not a run's: whatever run the page is on takes it
  CHECK(error.message.find("no-such-task") != std::string::npos);
  CHECK_FALSE(page.worker.built());
  page.deliver(m, replies);
  CHECK(m.state()["worker_error"].get<std::string>().find("no-such-task") != std::string::npos);
  REQUIRE(send(m, {{"type", "train"}}).done());
  CHECK(m.wants_another_frame());  // the frames train
  m.update(1.0f / 60);
  CHECK(m.state()["step"].get<int>() > 0);
}

TEST_CASE("the worker trains at the frames' pace, so the learner watches the curves form") {
  PageWithWorker page(lesson_text("self-attention"), tw::TrainWorker::kProgressEveryMs,
                      tw::TrainWorker::kStepsPerSecond);
  page.clock_step_ms = 0.0;  // the clock moves when the test says
  TrainModel m = lesson_model("self-attention", "train-pronoun");
  const int total = m.state()["total_steps"].get<int>();
  REQUIRE(total >= 300);
  REQUIRE(send(m, {{"type", "train"}}).done());
  page.turn(m, 30.0);  // the first step at once, then a wait for the next
  CHECK(page.worker.wait_ms() == doctest::Approx(1000.0 / tw::TrainWorker::kStepsPerSecond));
  CHECK(page.worker.work(30.0).empty());  // nothing is due yet
  // A second of turns, a millisecond apart: 120 steps and the first, as the frames take them.
  for (int ms = 0; ms < 1000; ++ms) page.clock_ms += 1.0, page.turn(m, 30.0);
  const int after_a_second = m.state()["step"].get<int>();  // as of the last progress (100 ms)
  CHECK(after_a_second <= 121);
  CHECK(after_a_second >= 100);
  // Behind by half a second (a busy machine): the steps due are taken at once, within the slice.
  page.clock_ms += 500.0;
  page.turn(m, 1000.0);
  CHECK(page.worker.wait_ms() > 0.0);  // caught up
  page.clock_ms += 100.0;              // the next progress comes with the next step
  page.turn(m, 1000.0);
  CHECK(m.state()["step"].get<int>() >= 181 + 1);
  while (page.worker.running()) page.clock_ms += 1.0, page.turn(m, 30.0);
  CHECK(m.state()["step"] == total);
  CHECK(page.clock_ms == doctest::Approx(1000.0 * (total - 1) / tw::TrainWorker::kStepsPerSecond).epsilon(0.01));
  CHECK(page.worker.wait_ms() == 0.0);  // not running
}

TEST_CASE("after a reset, the replies of the run the page left change nothing") {
  PageWithWorker page(lesson_text("self-attention"), 0.0);
  TrainModel m = lesson_model("self-attention", "train-pronoun");
  REQUIRE(send(m, {{"type", "train"}}).done());
  page.post_events(m);
  const std::vector<tw::Reply> late = page.worker.work(30.0);  // up to the first curve points
  REQUIRE_FALSE(late.empty());
  REQUIRE(send(m, {{"type", "resetTraining"}}).done());
  page.deliver(m, late);  // they arrive after the reset
  CHECK(m.state()["step"] == 0);
  CHECK(m.state()["curve"].size() == 1);
  page.post_events(m);  // the pause of the old run
  CHECK_FALSE(page.worker.running());
}

TEST_CASE("a pause keeps the step on screen, and steps taken after it are not undone by the worker") {
  PageWithWorker page(lesson_text("self-attention"), 0.0);
  TrainModel m = lesson_model("self-attention", "train-pronoun");
  REQUIRE(send(m, {{"type", "train"}}).done());
  page.turn(m, 25.0);
  REQUIRE(send(m, {{"type", "pause"}}).done());
  const int paused_at = m.state()["step"].get<int>();
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 3}}).done());  // before the worker's answer
  page.post_events(m);  // the worker stops and sends where it is: too late for this session
  CHECK(m.state()["step"] == paused_at + 3);
  TrainModel in_frames = lesson_model("self-attention", "train-pronoun");
  REQUIRE(send(in_frames, {{"type", "trainSteps"}, {"n", paused_at + 3}}).done());
  check_same_training(m, in_frames);
}

TEST_CASE("a worker that fails hands the training back to the frames, from where it was") {
  PageWithWorker page(lesson_text("self-attention"), 0.0);
  TrainModel m = lesson_model("self-attention", "train-pronoun");
  REQUIRE(send(m, {{"type", "train"}}).done());
  page.turn(m, 25.0);
  const int step = m.state()["step"].get<int>();
  REQUIRE(step > 0);
  REQUIRE(
      send(m, {{"type", "worker"}, {"message", {{"type", "error"}, {"run", 0}, {"message", "train.worker_no_memory"}}}})
          .done());
  CHECK(m.state()["worker_error"] == tr("train.worker_no_memory"));  // the words, not the key
  CHECK(m.state()["worker_error"].get<std::string>().find("memory") != std::string::npos);
  CHECK(m.state()["running"] == true);
  CHECK(m.wants_another_frame());
  m.update(1.0f / 60);
  CHECK(m.state()["step"].get<int>() > step);  // the frames train on
}

TEST_CASE("the worker says why it cannot train: a broken lesson, an unknown task, a state of another model") {
  tw::TrainWorker worker;
  tw::Train t;
  t.lesson = "no front matter";
  t.task = "pronoun";
  auto replies = worker.handle(t);
  REQUIRE(replies.size() == 1);
  CHECK(std::holds_alternative<tw::Error>(replies[0]));
  CHECK_FALSE(worker.running());

  t.lesson = lesson_text("self-attention");
  t.task = "no-such-task";
  replies = worker.handle(t);
  REQUIRE(replies.size() == 1);
  CHECK(std::get<tw::Error>(replies[0]).message.find("no-such-task") != std::string::npos);

  t.task = "pronoun";
  t.state = Trainer::State{3, 1, {}, 0, {1.0f, 2.0f}};
  replies = worker.handle(t);
  REQUIRE(replies.size() == 1);
  CHECK(std::holds_alternative<tw::Error>(replies[0]));
  CHECK_FALSE(worker.running());
}

TEST_CASE("the trainer's messages read back as written, and anything else is refused with a reason") {
  tw::Train t{7,
              "text",
              "pronoun",
              "The dog slept.",
              "it",
              42,
              Trainer::State{12,
                             18446744073709551615ULL,
                             {2, 0, 1},
                             1,
                             {0.1f, -3.5e-8f, 1e30f, -0.0f, std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::denorm_min()}}};
  auto back = tw::decode_request(json::parse(tw::encode(t).dump()));
  REQUIRE(std::holds_alternative<tw::Request>(back));
  const auto& t2 = std::get<tw::Train>(std::get<tw::Request>(back));
  CHECK(t2.state->order_state == 18446744073709551615ULL);  // all 64 bits, through a string
  CHECK(t2.state->values == t.state->values);               // every float exactly
  CHECK(std::signbit(t2.state->values[3]));                 // -0 too
  CHECK(tw::encode(t)["state"]["values"].get<std::string>().substr(0, 8) == "3dcccccd");  // 0.1f's bits
  CHECK(t2.state->order == t.state->order);
  CHECK(t2.probe == t.probe);

  tw::Prepare prepared{"text", "pronoun", "The dog slept.", "it"};
  auto prepared_back = tw::decode_request(json::parse(tw::encode(prepared).dump()));
  REQUIRE(std::holds_alternative<tw::Request>(prepared_back));
  const auto& prepared2 = std::get<tw::Prepare>(std::get<tw::Request>(prepared_back));
  CHECK(prepared2.lesson == "text");
  CHECK(prepared2.task == "pronoun");
  CHECK(prepared2.probe == "The dog slept.");
  CHECK(prepared2.query == "it");
  json no_lesson = tw::encode(tw::Request(prepared));
  no_lesson.erase("lesson");
  const auto no_lesson_back = tw::decode_request(no_lesson);
  REQUIRE(std::holds_alternative<std::string>(no_lesson_back));
  CHECK(std::get<std::string>(no_lesson_back).find("lesson") != std::string::npos);

  tw::Progress p{3,
                 true,
                 120.5,
                 Trainer::State{10, 5, {}, 0, {1.5f, std::numeric_limits<float>::quiet_NaN()}},
                 {{10, 0.5f, 0.25f, 0.75f}}};
  auto reply = tw::decode_reply(json::parse(tw::encode(p).dump()));
  REQUIRE(std::holds_alternative<tw::Reply>(reply));
  const auto& p2 = std::get<tw::Progress>(std::get<tw::Reply>(reply));
  CHECK(p2.points.size() == 1);
  CHECK(p2.points[0].held_out_accuracy == 0.75f);
  REQUIRE(p2.state.values.size() == 2);
  CHECK(p2.state.values[0] == 1.5f);
  CHECK(std::isnan(p2.state.values[1]));  // a weight that overflowed: the page shows the worker's run

  const auto refused = [](json message) {
    auto decoded = tw::decode_reply(message);
    REQUIRE(std::holds_alternative<std::string>(decoded));
    return std::get<std::string>(decoded);
  };
  json good = tw::encode(tw::Reply(p));
  json bad = good;
  bad["extra"] = 1;
  CHECK(refused(bad).find("unknown field 'extra'") != std::string::npos);
  bad = good;
  bad["state"]["order_state"] = 5;
  CHECK(refused(bad).find("order_state") != std::string::npos);
  bad = good;
  bad["state"]["order_state"] = "-1";
  CHECK(refused(bad).find("order_state") != std::string::npos);
  bad = good;
  bad["state"]["values"] = {"1"};
  CHECK(refused(bad).find("values") != std::string::npos);
  for (const char* hex : {"3fc0000", "3fc00000x", "3FC00000", "3fc0000g"}) {  // short, long, capitals, not hex
    bad = good;
    bad["state"]["values"] = hex;
    CHECK(refused(bad).find("8 hex digits") != std::string::npos);
  }
  bad = good;
  bad["points"].push_back(bad["points"][0]);  // the same step twice
  CHECK(refused(bad).find("step order") != std::string::npos);
  CHECK(refused({{"type", "snapshot"}}).find("not a message") != std::string::npos);
  CHECK(std::holds_alternative<std::string>(tw::decode_request({{"type", "train"}, {"run", 1}})));
}
