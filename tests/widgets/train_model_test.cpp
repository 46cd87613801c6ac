// train_model_test.cpp: the train widget's model alone (no ImGui): a slice per update within its
// step and time budget, frames wanted only while training, the spotlight moving from spread out
// to the right noun, commands and their refusals, state(), snapshot/restore.
#include "model_support.h"

#include "engine/lesson/task_set.h"
#include "engine/widgets/train/train_model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <set>

using namespace neuralpath;
using model_test::send;
using neuralpath::widgets::CommandResult;
using neuralpath::widgets::TrainModel;
using neuralpath::widgets::TrainSession;
using nlohmann::json;

namespace {

const lesson::Lesson& self_attention() { return model_test::lesson_named("self-attention"); }

// A lesson's own ```train block, as the page makes it; `now_ms` replaces the clock.
TrainModel lesson_model(std::function<double()> now_ms = {}, const std::string& lesson_id = "self-attention",
                        const char* id = "train-pronoun") {
  return model_test::train_model_of(lesson_id, id, std::move(now_ms));
}

float weight_of(const json& spotlight, const std::string& word) {
  const auto& tokens = spotlight["tokens"];
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] == word) return spotlight["weights"][i].get<float>();
  FAIL("no token " << word);
  return 0;
}

}  // namespace

TEST_CASE("Train runs a slice per update, at most two steps, and wants frames only while training") {
  TrainModel m = lesson_model([] { return 0.0; });  // a clock that stands still: the step cap decides
  CHECK_FALSE(m.wants_another_frame());             // at rest: the page may sleep
  m.update(1.0f / 60);
  CHECK(m.state()["step"] == 0);
  REQUIRE(send(m, {{"type", "train"}}).done());
  CHECK(m.wants_another_frame());
  for (int frame = 0; frame < 10; ++frame) m.update(1.0f / 60);
  const int after_ten = m.state()["step"].get<int>();
  CHECK(after_ten == 10 * TrainModel::kStepsPerFrame);  // slow enough to watch
  REQUIRE(send(m, {{"type", "pause"}}).done());
  CHECK_FALSE(m.wants_another_frame());
  m.update(1.0f / 60);
  CHECK(m.state()["step"] == after_ten);
  CHECK_FALSE(send(m, {{"type", "pause"}}).done());  // not running: left for another widget
  REQUIRE(send(m, {{"type", "train"}}).done());
  int frames = 0;
  while (m.wants_another_frame() && frames < 1000) {
    m.update(1.0f / 60);
    ++frames;
  }
  const json s = m.state();
  CHECK(s["finished"] == true);
  CHECK(s["running"] == false);
  CHECK_FALSE(m.wants_another_frame());  // finished: idle again
  CHECK(s["step"] == s["total_steps"]);
  MESSAGE("trained in " << frames + 10 << " frames");
}

TEST_CASE("a slow machine takes fewer steps per frame, never a longer frame") {
  double now = 0;
  // Every clock read moves 10 ms: after the first piece of work (one example of the batch of 8)
  // the 8 ms budget is spent, so a step takes eight frames.
  TrainModel m = lesson_model([&now] { return now += 10.0; });
  REQUIRE(send(m, {{"type", "train"}}).done());
  for (int frame = 1; frame <= 8; ++frame) {
    m.update(1.0f / 60);
    CHECK(m.state()["step"] == frame / 8);
  }
}

TEST_CASE("trained on the output alone, held-out accuracy reaches 95% while the spotlight of \"it\" stays spread out") {
  TrainModel m = lesson_model();
  json s = m.state();
  REQUIRE(s["spotlight"]["tokens"].size() == 12);  // "didn't" is one token
  const auto& w0 = s["spotlight"]["weights"];
  const auto [lo, hi] = std::minmax_element(w0.begin(), w0.end());
  MESSAGE("untrained weights from " << lo->get<float>() << " to " << hi->get<float>());
  CHECK(hi->get<float>() < 0.3f);  // spread out: no word has much of it
  const float dog_before = weight_of(s["spotlight"], "dog");
  std::vector<std::pair<int, float>> accuracy;
  for (int step = 0; step < s["total_steps"].get<int>(); step += 50) {
    REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 50}}).done());
    accuracy.emplace_back(m.state()["step"].get<int>(), m.state()["accuracy"].get<float>());
  }
  for (auto [step, a] : accuracy) MESSAGE("step " << step << ": held-out accuracy " << a);
  s = m.state();
  CHECK(s["finished"] == true);
  CHECK(s["accuracy"].get<float>() >= 0.95f);
  CHECK(s["curve"].back()["loss"].get<float>() < s["curve"].front()["loss"].get<float>());
  // What the lesson says: nothing in the loss asks "it" to look at the dog, and it does not.
  const auto& w = s["spotlight"]["weights"];
  MESSAGE("weight of 'dog' " << dog_before << " -> " << weight_of(s["spotlight"], "dog") << ", largest "
                             << std::max_element(w.begin(), w.end())->get<float>());
  CHECK(weight_of(s["spotlight"], "dog") < 0.2f);
  CHECK(std::max_element(w.begin(), w.end())->get<float>() < 0.3f);
  const std::string top = s["spotlight"]["tokens"][s["spotlight"]["top"].get<int>()].get<std::string>();
  CHECK(s["summary"].get<std::string>().find("“" + top + "”") != std::string::npos);
  CHECK(s["table"]["rows"].size() == 12);
  CHECK_FALSE(send(m, {{"type", "train"}}).done());  // finished: says so
}

TEST_CASE("the switch shows the hand-set weights, your own sentence follows it, and the seed restarts") {
  TrainModel m = lesson_model();
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 300}}).done());
  REQUIRE(
      send(m, {{"type", "setSentence"}, {"text", "The cat didn't cross the road because it was too busy."}}).done());
  json s = m.state();
  REQUIRE(s["custom"].is_object());
  const json trained = s["spotlight"], trained_custom = s["custom"];
  REQUIRE(send(m, {{"type", "useTrained"}, {"trained", false}}).done());
  s = m.state();
  CHECK(s["trained"] == false);
  CHECK(s["spotlight"]["weights"] != trained["weights"]);
  CHECK(s["custom"]["weights"] != trained_custom["weights"]);             // your sentence follows the switch
  CHECK(s["custom"]["tokens"][s["custom"]["top"].get<int>()] == "road");  // the hand-set weights find the place
  CHECK(s["custom"]["sentence"] == "The cat didn't cross the road because it was too busy.");
  REQUIRE(send(m, {{"type", "useTrained"}, {"trained", true}}).done());
  CHECK(m.state()["spotlight"] == trained);

  REQUIRE(send(m, {{"type", "setSeed"}, {"seed", 8}}).done());
  s = m.state();
  CHECK(s["seed"] == 8);
  CHECK(s["step"] == 0);
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 20}}).done());
  REQUIRE(send(m, {{"type", "resetTraining"}}).done());
  CHECK(m.state()["step"] == 0);
  CHECK(m.state()["seed"] == 8);
}

TEST_CASE("the train widget refuses bad commands with a reason and changes nothing") {
  TrainModel m = lesson_model();
  const json before = m.state();
  for (const json& bad : {json{{"type", "setSeed"}, {"seed", -1}}, json{{"type", "setSeed"}, {"seed", "7"}},
                          json{{"type", "setSeed"}, {"seed", 1LL << 40}}, json{{"type", "useTrained"}},
                          json{{"type", "trainSteps"}, {"n", 0}}, json{{"type", "trainSteps"}, {"n", 1 << 30}},
                          json{{"type", "explain"}, {"what", "magic"}}, json{{"type", "setSentence"}, {"text", 5}}}) {
    CAPTURE(bad.dump());
    const CommandResult r = send(m, bad);
    CHECK(r.outcome() == CommandResult::Outcome::refused);
    CHECK_FALSE(r.reason().empty());
    CHECK(m.state() == before);
  }
  CHECK(send(m, {{"type", "reset"}}).outcome() == CommandResult::Outcome::not_taken);  // the App's
  CHECK(send(m, {{"type", "step"}}).outcome() == CommandResult::Outcome::not_taken);   // the playback's
  CommandResult r = send(m, {{"type", "setSentence"}, {"text", "The cat sat down."}});
  CHECK(r.reason().find("“it”") != std::string::npos);
  CHECK(m.state()["input_error"] == r.reason());
  r = send(m, {{"type", "setSentence"}, {"text", ""}});
  CHECK_FALSE(r.done());
  CHECK(m.state()["custom"].is_null());
}

TEST_CASE("explanations of the loss, the accuracy and the learning rate carry the numbers shown") {
  TrainModel m = lesson_model();
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 40}}).done());
  REQUIRE(send(m, {{"type", "explain"}, {"what", "accuracy"}}).done());
  auto e = m.take_explanation();
  REQUIRE(e);
  CHECK(e->title.find(format_percent(m.state()["accuracy"].get<float>())) != std::string::npos);
  CHECK_FALSE(m.take_explanation());
  REQUIRE(send(m, {{"type", "explain"}, {"what", "learning_rate"}}).done());
  e = m.take_explanation();
  REQUIRE(e);
  CHECK(e->title.find("0.003") != std::string::npos);
  for (const char* what : {"loss", "accuracy", "learning_rate"}) CHECK_FALSE(m.explain(what).text.empty());
  CHECK(take_missing_keys().empty());
}

TEST_CASE("snapshot and restore: the same seed and steps give the same weights, restored paused") {
  TrainModel m = lesson_model();
  REQUIRE(send(m, {{"type", "setSeed"}, {"seed", 3}}).done());
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 70}}).done());
  REQUIRE(send(m, {{"type", "setSentence"}, {"text", "The horse sat by the field because it was too hungry."}}).done());
  const json saved = m.snapshot();
  CHECK(saved["steps"] == 70);
  CHECK(saved["seed"] == 3);

  TrainModel reopened = lesson_model();
  REQUIRE(reopened.restore(saved).done());
  json a = m.state(), b = reopened.state();
  CHECK(b["step"] == 70);
  CHECK(b["running"] == false);
  CHECK(b["spotlight"] == a["spotlight"]);
  CHECK(b["custom"] == a["custom"]);
  CHECK(b["accuracy"] == a["accuracy"]);
  CHECK_FALSE(reopened.wants_another_frame());

  const json before = reopened.state();
  for (const json& bad :
       {json(5), json{{"seed", 3}}, json{{"seed", -3}, {"steps", 2}}, json{{"seed", 3}, {"steps", 100000}}}) {
    CAPTURE(bad.dump());
    CHECK_FALSE(reopened.restore(bad).done());
    CHECK(reopened.state() == before);
  }
}

TEST_CASE("a train block without its task makes a widget that says why, and trains nothing") {
  const lesson::Block* block = lesson::find_block(self_attention(), "train-pronoun");
  REQUIRE(block != nullptr);
  const auto* found = lesson::widget_settings<widgets::TrainSettings>(*block);
  REQUIRE(found != nullptr);
  if (!found) return;  // (REQUIRE has stopped the test; this tells the compiler so)
  widgets::TrainSettings settings = *found;
  settings.task = "missing";
  TrainModel m(settings, {}, std::nullopt, "no task");
  const json s = m.state();
  CHECK(s["error"] == "no task");
  CHECK(s["running"] == false);
  CHECK_FALSE(send(m, {{"type", "train"}}).done());
  CHECK_FALSE(m.wants_another_frame());
  CHECK(m.summary().find("no task") != std::string::npos);
}

TEST_CASE("the multi-head lesson's train widget shows each head's row for \"carried\", and the heads part ways") {
  TrainModel m = lesson_model({}, "multi-head", "train-heads");
  json s = m.state();
  REQUIRE(s["spotlight"]["heads"].size() == 4);
  CHECK(s["held_out"].get<int>() <= static_cast<int>(TrainSession::kMaxMeasured));  // a sample of the 1,928
  CHECK(s["table"]["columns"].size() == 5);  // the word, then one column per head
  for (const auto& row : s["spotlight"]["heads"]) {
    const auto [lo, hi] = std::minmax_element(row.begin(), row.end());
    CHECK(hi->get<float>() < 0.35f);  // untrained: every head spreads its row
  }
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", 60}}).done());
  s = m.state();
  std::set<std::string> tops;
  std::string line;
  for (std::size_t h = 0; h < 4; ++h) {
    const int top = s["spotlight"]["head_tops"][h].get<int>();
    const std::string word = s["spotlight"]["tokens"][top].get<std::string>();
    const float weight = s["spotlight"]["heads"][h][top].get<float>();
    line += " " + word + " " + std::to_string(weight);
    tops.insert(word);
  }
  MESSAGE("after 60 steps, each head's top for 'carried':" << line << "; held-out accuracy " << s["accuracy"]);
  CHECK(s["accuracy"].get<float>() >= 0.95f);  // the lesson: every held-out sentence right within ~30 steps
  CHECK(tops.size() >= 2);                     // the heads part ways, partly: not every head on the same word
  CHECK(s["summary"].get<std::string>().find("head 4") != std::string::npos);
  CHECK(m.explain("loss").formula.find("softmax") != std::string::npos);  // a loss on the output
  CHECK(take_missing_keys().empty());
}

TEST_CASE("a late frame halves the training slice's budget, frames on time let it grow back") {
  TrainModel m = lesson_model();
  REQUIRE(send(m, {{"type", "train"}}).done());
  m.update(1.0f / 60);
  CHECK(m.state()["slice_budget_ms"] == TrainModel::kFrameBudgetMs);
  m.update(0.050f);  // a 20 fps frame: the page's drawing and the slice took too long
  CHECK(m.state()["slice_budget_ms"] == TrainModel::kFrameBudgetMs / 2);
  for (int i = 0; i < 10; ++i) m.update(0.050f);
  CHECK(m.state()["slice_budget_ms"] == TrainModel::kMinBudgetMs);  // never below a piece of work
  m.update(1.0f / 30);                                              // 30 fps is on time
  CHECK(m.state()["slice_budget_ms"] == TrainModel::kMinBudgetMs + 1.0);
  for (int i = 0; i < 20; ++i) m.update(1.0f / 60);
  CHECK(m.state()["slice_budget_ms"] == TrainModel::kFrameBudgetMs);
}

TEST_CASE("a run that reaches its last step sends one trained event with its numbers; a restored run sends none") {
  TrainModel m = lesson_model([] { return 0.0; });
  const int total = m.state()["total_steps"].get<int>();
  REQUIRE(send(m, {{"type", "trainSteps"}, {"n", total - 1}}).done());
  CHECK(m.take_events().empty());  // not at the end yet
  REQUIRE(send(m, {{"type", "train"}}).done());
  for (int frame = 0; frame < 10 && m.wants_another_frame(); ++frame) m.update(1.0f / 60);
  const std::vector<json> events = m.take_events();
  REQUIRE(events.size() == 1);
  const json s = m.state();
  CHECK(events[0]["type"] == "trained");
  CHECK(events[0]["step"] == total);
  CHECK(events[0]["accuracy"] == s["accuracy"]);
  CHECK(events[0]["loss"] == s["loss"]);
  for (int frame = 0; frame < 5; ++frame) m.update(1.0f / 60);
  CHECK(m.take_events().empty());  // once

  TrainModel restored = lesson_model([] { return 0.0; });
  REQUIRE(restored.restore(m.snapshot()).done());
  CHECK(restored.state()["finished"] == true);
  restored.update(1.0f / 60);
  CHECK(restored.take_events().empty());  // a reload's replay is no new training

  // Reset, trained again to the end: a new run, a new event.
  REQUIRE(send(restored, {{"type", "resetTraining"}}).done());
  REQUIRE(send(restored, {{"type", "trainSteps"}, {"n", total}}).done());
  CHECK(restored.take_events().size() == 1);
}
