// lm_train_widget_test.cpp: the in-page trainer and the predict cards of the lesson
// "Learning to read" (lessons/learning-to-read.md), headless: the widget draws at 375 and
// 1440 px, a tap on Train asks for its worker (the lm-worker events np-lm.js posts), the
// replies of a real TrainerWorker fill its curves, heads and attention, and a predict card
// shows nothing of the answer until the guess is locked in, then the engine's measured value.
#include "headless.h"

#include "engine/lm_worker/trainer_worker.h"
#include "engine/text/format.h"
#include "test_data.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)
namespace lw = neuralpath::lmworker;

namespace {

const char* kLesson = "lessons/learning-to-read.md";

// What np-lm.js and the Web Worker do: each lm-worker event to a TrainerWorker, each reply
// back to the page as the widget's "worker" command. Trains `slices` slices of `steps` steps.
void pump(Headless& page, lw::TrainerWorker& worker, const std::string& data, int slices, int steps) {
  const auto deliver = [&](const std::vector<lw::Reply>& replies) {
    for (const lw::Reply& r : replies) {
      // As web/lm_trainer.cpp sends it: a token may be half a UTF-8 character, replaced by U+FFFD.
      const json message = json::parse(lw::encode(r).dump(-1, ' ', false, json::error_handler_t::replace));
      const json reply = page.command({{"type", "worker"}, {"widget", "trainer"}, {"message", message}});
      REQUIRE_MESSAGE(reply["ok"] == true, reply.dump());
    }
  };
  const auto post = [&] {
    for (const json& e : page.events_of("lm-worker")) {
      REQUIRE(e["widget"] == "trainer");
      const lw::Request request = std::get<lw::Request>(lw::decode_request(e["message"]));
      if (const auto* open = std::get_if<lw::Open>(&request))
        deliver(worker.open(data, *open));
      else
        deliver(worker.handle(request));
    }
  };
  post();
  for (int k = 0; k < slices && worker.running(); ++k) {
    deliver(worker.work(steps, 1e9));
    post();
    page.frames(1);
  }
}

}  // namespace

TEST_CASE("lm-train draws at 375 and 1440 px, and a tap on Train asks its worker to open and train") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 900, width < 500 ? 2.0f : 1.0f);
    page.load_file(kLesson);
    REQUIRE(page.state()["errors"].empty());
    REQUIRE(page.command({{"type", "goto"}, {"section", "train"}})["ok"] == true);
    page.frames(4);
    const json w = with_id(page.state()["widgets"], "trainer");
    REQUIRE(w["kind"] == "lm-train");
    CHECK(w["status"] == "idle");
    CHECK(w["training"]["step"] == 0);
    CHECK(w["training"]["steps"] == 3000);
    for (const char* part : {"train", "reset", "chart"}) {
      CAPTURE(part);
      const json r = w["layout"][part];
      REQUIRE(r.is_array());
      CHECK(r[0].get<float>() >= 0);
      CHECK(r[0].get<float>() + r[2].get<float>() <= width);
    }
    const json train = w["layout"]["train"];
    REQUIRE(train[1].get<float>() + train[3].get<float>() <= 900);  // on screen after goto
    page.tap(train[0].get<float>() + train[2].get<float>() / 2, train[1].get<float>() + train[3].get<float>() / 2);
    page.frames(1);
    const std::vector<json> asked = page.events_of("lm-worker");
    REQUIRE(asked.size() == 2);
    CHECK(asked[0]["message"]["type"] == "open");
    CHECK(asked[0]["message"]["config"] == "page");
    CHECK(asked[0]["message"]["data"] == "models/train-en.nptok");
    CHECK(asked[1]["message"]["type"] == "train");
    CHECK(with_id(page.state()["widgets"], "trainer")["status"] == "loading");
  }
}

TEST_CASE("lm-train shows the worker's curves, heads and attention, and a tap picks the head shown") {
  Headless page(1440, 900);
  page.load_file(kLesson);
  REQUIRE(page.command({{"type", "goto"}, {"section", "train"}})["ok"] == true);
  page.frames(3);
  REQUIRE(page.command({{"type", "train"}, {"widget", "trainer"}})["ok"] == true);
  lw::TrainerWorker worker;
  const std::string data = lm::page_data_bytes(neuralpath::test::small_page_data());
  pump(page, worker, data, 6, 5);
  REQUIRE(page.command({{"type", "pause"}, {"widget", "trainer"}})["ok"] == true);
  pump(page, worker, data, 1, 1);
  page.frames(3);
  json w = with_id(page.state()["widgets"], "trainer");
  CHECK(w["status"] == "paused");
  CHECK(w["training"]["step"] == worker.run().steps_done());
  CHECK(w["training"]["step"].get<int>() >= 25);
  CHECK(w["training"]["bigram_loss"].get<float>() == doctest::Approx(worker.run().bigram_loss()));
  REQUIRE(w["heads"].size() == 8);  // page: 2 layers of 4 heads
  REQUIRE(w["layout"]["heads"].size() == 8);
  CHECK(w["layout"]["text_matrix"].is_array());
  CHECK(w["layout"]["probe_matrix"].is_array());
  CHECK(w["attention"]["probe"]["weights"].size() == w["attention"]["probe"]["tokens"].size());

  // A tap on head L0 H3 shows its attention.
  json target;
  for (const json& h : w["layout"]["heads"])
    if (h["layer"] == 0 && h["head"] == 3) target = h["rect"];
  REQUIRE(target.is_array());
  page.command({{"type", "scroll"}, {"by", target[1].get<float>() - 300}});
  page.frames(2);
  w = with_id(page.state()["widgets"], "trainer");
  for (const json& h : w["layout"]["heads"])
    if (h["layer"] == 0 && h["head"] == 3) target = h["rect"];
  page.click(target[0].get<float>() + target[2].get<float>() / 2, target[1].get<float>() + target[3].get<float>() / 2);
  page.frames(2);
  w = with_id(page.state()["widgets"], "trainer");
  CHECK(w["head"] == json{{"layer", 0}, {"head", 3}});
}

TEST_CASE("a predict card shows nothing of the answer before the guess, then the engine's measured value") {
  Headless page(375, 800, 2.0f);
  page.load_file(kLesson);
  page.frames(2);
  json c = with_id(page.state()["checks"], "untrained-loss");
  CHECK(c["kind"] == "predict");
  CHECK(c["committed"] == false);
  CHECK_FALSE(c.contains("explanation"));
  CHECK_FALSE(c.contains("answer"));
  REQUIRE(page.command({{"type", "reveal"}, {"id", "untrained-loss"}})["ok"] == false);  // no answer before a guess
  REQUIRE(page.command({{"type", "answer"}, {"check", "untrained-loss"}, {"option", 1}})["ok"] == true);
  page.frames(2);
  c = with_id(page.state()["checks"], "untrained-loss");
  CHECK(c["committed"] == true);
  CHECK(c["correct"] == false);
  CHECK(c["answer"] == json::array({0}));
  CHECK(c["explanation"].get<std::string>().find("ln 320") != std::string::npos);
  CHECK(c["measured"]["text"].is_null());  // nothing trained yet: no number to show
  const json again = page.command({{"type", "answer"}, {"check", "untrained-loss"}, {"option", 0}});
  CHECK(again["ok"] == false);  // a guess is made once
  CHECK(page.state()["progress"]["answers"]["untrained-loss"] == json::array({1}));

  // Once the trainer has measured step 0, the card prints that number, formatted by the engine.
  REQUIRE(page.command({{"type", "train"}, {"widget", "trainer"}})["ok"] == true);
  lw::TrainerWorker worker;
  pump(page, worker, lm::page_data_bytes(neuralpath::test::small_page_data()), 0, 1);
  page.frames(2);
  const json w = with_id(page.state()["widgets"], "trainer");
  REQUIRE(w["curve"].size() >= 1);
  c = with_id(page.state()["checks"], "untrained-loss");
  CHECK(c["measured"]["text"] == format_number(w["curve"][0]["val_loss"].get<float>()));
}
