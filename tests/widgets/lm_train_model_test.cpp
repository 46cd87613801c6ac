// lm_train_model_test.cpp: the in-page trainer's model alone (no ImGui, no browser), wired to a
// real TrainerWorker the way web/shell/np-lm.js and the Web Worker wire it: its requests go out
// as events, the worker's replies come back as the "worker" command. Every number the model
// shows is then the worker's, a restored run retrains to the same numbers, and replies of a run
// the learner left change nothing.
#include "model_support.h"

#include "engine/lm_worker/trainer_worker.h"
#include "engine/widgets/lm_train/lm_train_model.h"
#include "test_data.h"

#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>

using namespace model_test;  // the engine's names, json and the helpers (model_support.h)
namespace lw = neuralpath::lmworker;

namespace {

LmTrainSettings quick() {
  LmTrainSettings s;
  s.config = "tiny";
  s.seed = 4;
  s.steps = 60;
  return s;
}

// The page's side: posts each request event to the worker, hands every reply back as a command.
struct Wire {
  lw::TrainerWorker worker{[clock = std::make_shared<double>(0.0)] { return *clock += 1.0; }};
  std::string data = lm::page_data_bytes(test::small_page_data());
  std::vector<json> requests;  // what the model asked for, in order
  std::vector<json> reports;   // its other events (lmInduction, lmTrained): for a learning platform

  void deliver(LmTrainModel& model, const std::vector<lw::Reply>& replies) {
    for (const lw::Reply& r : replies) {
      const CommandResult done = send(model, {{"type", "worker"}, {"message", lw::encode(r)}});
      REQUIRE_MESSAGE(done.done(), done.reason());
    }
  }
  void post(LmTrainModel& model) { post_events(model, model.take_events()); }
  void post_events(LmTrainModel& model, const std::vector<json>& events) {
    for (const json& e : events) {
      if (e["type"] != "lm-worker") {
        reports.push_back(e);
        continue;
      }
      requests.push_back(e["message"]);
      auto decoded = lw::decode_request(e["message"]);
      REQUIRE_MESSAGE(std::holds_alternative<lw::Request>(decoded), std::get<std::string>(decoded));
      const lw::Request& request = std::get<lw::Request>(decoded);
      if (const auto* open = std::get_if<lw::Open>(&request))
        deliver(model, worker.open(data, *open));
      else
        deliver(model, worker.handle(request));
    }
  }
  // Everything the model asks for, and training until the worker stops (or `max_work` slices).
  void run(LmTrainModel& model, int max_work = 1000) {
    post(model);
    for (int k = 0; k < max_work && worker.running(); ++k) {
      deliver(model, worker.work(5, 1e9));
      post(model);
    }
    post(model);
  }
};

}  // namespace

TEST_CASE("lm-train: nothing is asked of the worker before Train, and the state says so") {
  LmTrainModel model(quick(), {});
  CHECK(model.take_events().empty());
  const json s = model.state();
  CHECK(s["kind"] == "lm-train");
  CHECK(s["status"] == "idle");
  CHECK(s["training"]["step"] == 0);
  CHECK(s["training"]["steps"] == 60);
  CHECK(s["training"]["running"] == false);
  CHECK(s["training"]["bigram_loss"].is_null());
  CHECK(s["heads"].empty());
  CHECK(s["data"] == "models/train-en.nptok");
}

TEST_CASE("lm-train: Train opens the worker, and the curves, heads and samples are its replies") {
  LmTrainModel model(quick(), {});
  REQUIRE(send(model, {{"type", "train"}}).done());
  const std::vector<json> asked = model.take_events();
  REQUIRE(asked.size() == 2);
  CHECK(asked[0]["message"]["type"] == "open");
  CHECK(asked[0]["message"]["data"] == "models/train-en.nptok");
  CHECK(asked[0]["message"]["config"] == "tiny");
  CHECK(asked[0]["message"]["seed"] == 4);
  CHECK(asked[0]["message"]["text"] == tr("lm_train.default_text"));
  CHECK(asked[1]["message"] == json{{"type", "train"}, {"run", asked[0]["message"]["run"]}});
  CHECK(model.state()["status"] == "loading");

  Wire wire;
  wire.post_events(model, asked);  // the two requests, through the worker as the page posts them
  wire.run(model);

  const json s = model.state();
  CHECK(s["status"] == "finished");
  CHECK(s["training"]["step"] == 60);
  CHECK(s["training"]["running"] == false);
  const lm::PageRun& run = wire.worker.run();
  REQUIRE(s["curve"].size() == run.curve().size());
  CHECK(s["curve"].back()["step"] == run.curve().back().step);
  CHECK(s["training"]["bigram_loss"].get<float>() == doctest::Approx(run.bigram_loss()));
  CHECK(s["heads"].size() == 4);  // tiny: 2 layers of 2 heads
  CHECK(s["samples"].size() == run.samples().size());
  CHECK(s["sample"] == run.samples().back().text);
  CHECK(s["attention"]["probe"]["weights"].size() == s["attention"]["probe"]["tokens"].size());
  CHECK_FALSE(s["attention"]["text"].is_null());
  CHECK(s["summary"].get<std::string>().find(tr("lm_train.summary_step", {{"step", "60"}, {"steps", "60"}})) == 0);
  CHECK(s["table"]["rows"].size() == 4);
  CHECK(send(model, {{"type", "train"}}).reason() == tr("lm_train.already_finished"));
  // One lmTrained event for the run, with the worker's numbers; lmInduction only if a head formed.
  wire.post(model);
  const auto trained =
      std::count_if(wire.reports.begin(), wire.reports.end(), [](const json& e) { return e["type"] == "lmTrained"; });
  REQUIRE(trained == 1);
  const json& done =
      *std::find_if(wire.reports.begin(), wire.reports.end(), [](const json& e) { return e["type"] == "lmTrained"; });
  CHECK(done["step"] == 60);
  CHECK(done["val_loss"] == s["training"]["val_loss"]);
  const auto formed =
      std::count_if(wire.reports.begin(), wire.reports.end(), [](const json& e) { return e["type"] == "lmInduction"; });
  CHECK(formed == (s["phase"]["induction"].is_null() ? 0 : 1));
}

TEST_CASE("lm-train: a restored snapshot retrains to its step and shows the same numbers") {
  LmTrainModel first(quick(), {});
  Wire wire;
  REQUIRE(send(first, {{"type", "train"}}).done());
  wire.post(first);
  for (int k = 0; k < 1000 && first.latest().step < 30; ++k) wire.deliver(first, wire.worker.work(1, 1e9));
  REQUIRE(send(first, {{"type", "pause"}}).done());
  wire.post(first);
  const json saved = first.snapshot();
  const int step = saved["step"].get<int>();
  CHECK(step >= 30);
  CHECK(saved["running"] == false);
  CHECK(first.state()["status"] == "paused");

  LmTrainModel again(quick(), {});
  REQUIRE(again.restore(saved).done());
  CHECK(again.catching_up() == step);
  Wire other;
  other.run(again);
  REQUIRE(other.requests.size() == 2);
  CHECK(other.requests[1]["until"] == step);
  const json a = first.state(), b = again.state();
  CHECK(b["catching_up"].is_null());
  CHECK(b["status"] == "paused");
  CHECK(b["training"]["step"] == step);
  CHECK(b["training"]["val_loss"] == a["training"]["val_loss"]);
  CHECK(b["heads"] == a["heads"]);
  CHECK(other.reports.empty());  // a replay is nothing new for a learning platform

  CHECK_FALSE(again.restore(json{{"seed", -1}, {"step", 0}, {"text", "x"}}).done());
  CHECK_FALSE(again.restore(json{{"seed", 1}, {"step", 61}, {"text", "x"}}).done());
  CHECK_FALSE(again.restore(json::array()).done());
  CHECK(again.state()["training"]["step"] == step);  // a refused snapshot changed nothing
}

TEST_CASE("lm-train: replies of a run the learner left change nothing; malformed ones are refused") {
  LmTrainModel model(quick(), {});
  Wire wire;
  REQUIRE(send(model, {{"type", "train"}}).done());
  wire.post(model);
  for (int k = 0; k < 100 && model.latest().step == 0; ++k) wire.deliver(model, wire.worker.work(5, 1e9));
  const json before = model.state();
  REQUIRE(before["training"]["step"].get<int>() > 0);
  REQUIRE(send(model, {{"type", "resetTraining"}, {"seed", 9}}).done());
  // A snapshot of the old run arrives after the reset.
  lw::Snapshot stale;
  stale.run = before["run"].get<int>();
  stale.step = 50;
  stale.steps = 60;
  CHECK(send(model, {{"type", "worker"}, {"message", lw::encode(lw::Reply(stale))}}).done());
  CHECK(model.state()["training"]["step"] == 0);
  CHECK(model.state()["seed"] == 9);
  CHECK(model.state()["curve"].empty());

  const CommandResult bad = send(model, {{"type", "worker"}, {"message", {{"type", "snapshot"}}}});
  CHECK_FALSE(bad.done());
  CHECK(bad.reason().find(tr("lm_train.bad_reply", {{"why", ""}})) == 0);
  CHECK_FALSE(send(model, {{"type", "setHead"}, {"layer", 5}, {"head", 0}}).done());
  CHECK_FALSE(send(model, {{"type", "setSentence"}, {"text", ""}}).done());
  CHECK(model.state()["input_error"] == tr("lm_train.empty_text"));
}

TEST_CASE("lm-train: a worker that fails to open says why, and Train opens it again") {
  LmTrainModel model(quick(), {});
  REQUIRE(send(model, {{"type", "train"}}).done());
  const int run = model.take_events().front()["message"]["run"].get<int>();
  lw::Error failed{run, "models/train-en.nptok: HTTP 404"};
  REQUIRE(send(model, {{"type", "worker"}, {"message", lw::encode(lw::Reply(failed))}}).done());
  const json s = model.state();
  CHECK(s["status"] == "error");
  CHECK(s["error"] == tr("lm_train.worker_error", {{"error", "models/train-en.nptok: HTTP 404"}}));
  CHECK(s["summary"] == s["error"]);
  lw::Error memory{run, "lm_train.no_memory"};
  REQUIRE(send(model, {{"type", "worker"}, {"message", lw::encode(lw::Reply(memory))}}).done());
  CHECK(model.state()["error"] == tr("lm_train.no_memory"));
  REQUIRE(send(model, {{"type", "train"}}).done());
  const std::vector<json> again = model.take_events();
  REQUIRE(again.size() == 2);
  CHECK(again[0]["message"]["type"] == "open");
}
