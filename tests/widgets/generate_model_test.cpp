// generate_model_test.cpp: the generation loop's model alone (no ImGui): it asks for its model
// once and waits, then writes exactly what the engine's writer writes for the same settings and
// seed (so what `lm generate` writes), shows each stage of the next token, changes filters
// without drawing, refuses bad input without changing anything, and a snapshot brings the same
// text back.
#include "model_support.h"

#include "engine/core/lm/decode/writer.h"
#include "engine/core/lm/model_file.h"
#include "engine/widgets/generate/generate_model.h"
#include "engine/widgets/language_models.h"

#include <doctest/doctest.h>

using namespace model_test;  // the engine's names, json and the helpers (model_support.h)

namespace {

GenerateSettings example() {
  GenerateSettings s;
  s.model = "test-model";
  s.prompt = "The ";
  s.tokens = 20;
  s.temperature = 0.9f;
  s.top_k = 30;
  s.top_p = 0.95f;
  s.seed = 4;
  return s;
}

// What the engine's writer writes for the same settings, on the same (file-rounded) model.
std::vector<int> reference_tokens(const GenerateSettings& s, int n) {
  const lm::LmModel m = lm::model_from_bytes(lm::model_file_bytes(shelf_test_model()));
  lm::TextWriter w(m, s.prompt, {{s.temperature, s.top_k, s.top_p}, s.tokens, s.seed, true});
  for (int i = 0; i < n && w.step();) ++i;
  return w.written();
}

std::vector<int> written_ids(const json& state) {
  std::vector<int> ids;
  for (const json& t : state["written"]) ids.push_back(t["id"].get<int>());
  return ids;
}

}  // namespace

TEST_CASE("generate: without its model it asks for it once, waits, and the asked step runs when it arrives") {
  fresh_shelf(false);
  GenerateModel model(example(), {});
  CHECK(model.state()["model"]["status"] == "absent");
  CHECK(model.state()["next"].is_null());
  REQUIRE(send(model, {{"type", "step"}}).done());
  std::vector<json> events = model.take_events();
  REQUIRE(events.size() == 1);
  CHECK(events[0] == json{{"type", "lmModelWanted"}, {"name", "test-model"}});
  CHECK(model.state()["model"]["status"] == "loading");
  CHECK(model.wants_another_frame());  // the download's bar moves
  REQUIRE(send(model, {{"type", "step"}}).done());
  CHECK(model.take_events().empty());  // asked once
  LanguageModels::shared().progress("test-model", 100, 400);
  model.update(0.016f);
  CHECK(model.state()["model"]["received"] == 100);
  LanguageModels::shared().arrived("test-model", lm::model_file_bytes(shelf_test_model()));
  model.update(0.016f);
  const json state = model.state();
  CHECK(state["model"]["status"] == "ready");
  CHECK(written_ids(state) == reference_tokens(example(), 1));  // the step that waited
  CHECK(state["next"]["stages"].size() == 4);
}

TEST_CASE("generate: Write writes what the engine's writer writes for the settings and seed, a frame at a time") {
  fresh_shelf(true);
  GenerateModel model(example(), {});
  REQUIRE(model.ready());
  REQUIRE(send(model, {{"type", "write"}}).done());
  CHECK(model.wants_another_frame());
  int frames = 0;
  while (model.writing() && frames < 1000) {
    model.update(0.040f);  // 25 tokens a second: about one a frame
    ++frames;
  }
  const json state = model.state();
  CHECK(state["finished"] == true);
  CHECK(written_ids(state) == reference_tokens(example(), example().tokens));
  CHECK(frames + 1 >= static_cast<int>(state["written"].size()));  // about one a frame, not all at once
  CHECK_NOTHROW((void)state.dump());                               // whole UTF-8 even for a random model's bytes
  CHECK(send(model, {{"type", "step"}}).reason() == tr("generate.finished"));
  REQUIRE(send(model, {{"type", "restart"}}).done());
  CHECK(model.state()["written"].empty());
}

TEST_CASE("generate: each stage keeps no more tokens than the one before, and a filter changes no drawn token") {
  fresh_shelf(true);
  GenerateModel model(example(), {});
  REQUIRE(send(model, {{"type", "step"}}).done());
  const json before = model.state();
  const auto& stages = before["next"]["stages"];
  REQUIRE(stages.size() == 4);
  CHECK(stages[0]["stage"] == "model");
  CHECK(stages[2]["kept"].get<int>() == 30);
  CHECK(stages[3]["kept"].get<int>() <= 30);
  REQUIRE(send(model, {{"type", "setTopK"}, {"k", 5}}).done());
  const json after = model.state();
  CHECK(after["written"] == before["written"]);                      // nothing was drawn
  CHECK(after["next"]["stages"][0] == before["next"]["stages"][0]);  // the model's answer is the same
  CHECK(after["next"]["stages"][2]["kept"] == 5);
  REQUIRE(send(model, {{"type", "setTemperature"}, {"value", 0.0}}).done());
  CHECK(model.state()["next"]["stages"][3]["kept"] == 1);  // greedy: one token left
  CHECK(send(model, {{"type", "setTemperature"}, {"value", 3.0}}).outcome() == CommandResult::Outcome::refused);
  CHECK(send(model, {{"type", "setTopP"}, {"p", 0.0}}).outcome() == CommandResult::Outcome::refused);
  CHECK(send(model, {{"type", "setTopK"}, {"k", -1}}).outcome() == CommandResult::Outcome::refused);
  CHECK(send(model, {{"type", "setSeed"}, {"seed", -3}}).outcome() == CommandResult::Outcome::refused);
  CHECK(model.state()["temperature"] == 0.0);  // the refusals changed nothing
  CHECK(model.state()["top_k"] == 5);
}

TEST_CASE("generate: a prompt the page cannot draw or too long is refused and the prompt kept") {
  fresh_shelf(true);
  GenerateModel model(example(), {});
  CHECK(send(model, {{"type", "setSentence"}, {"text", "hi \xF0\x9F\x99\x82"}}).outcome() ==
        CommandResult::Outcome::refused);
  CHECK(send(model, {{"type", "setSentence"}, {"text", std::string(500, 'a')}}).outcome() ==
        CommandResult::Outcome::refused);
  CHECK(model.state()["prompt"] == "The ");
  CHECK(model.state().contains("input_error"));
  REQUIRE(send(model, {{"type", "setSentence"}, {"text", "A dog"}}).done());
  CHECK(model.state()["prompt"] == "A dog");
  CHECK(model.state()["text"] == "A dog");
  CHECK(send(model, {{"type", "setSentence"}}).outcome() == CommandResult::Outcome::refused);
}

TEST_CASE("generate: a snapshot brings back the prompt, the settings and the same tokens") {
  fresh_shelf(true);
  GenerateModel model(example(), {});
  REQUIRE(send(model, {{"type", "setSentence"}, {"text", "A cat"}}).done());
  REQUIRE(send(model, {{"type", "setTopP"}, {"p", 0.8}}).done());
  for (int i = 0; i < 6; ++i) send(model, {{"type", "step"}});
  const json snap = model.snapshot();
  GenerateModel other(example(), {});
  REQUIRE(other.restore(snap).done());
  CHECK(other.state()["written"] == model.state()["written"]);
  CHECK(other.state()["text"] == model.state()["text"]);
  CHECK(other.state()["top_p"] == model.state()["top_p"]);
  CHECK(other.restore(json{{"p", 3}}).outcome() == CommandResult::Outcome::refused);
  CHECK(other.restore(json{{"p", "x"}, {"t", 1}, {"q", 1}, {"k", 0}, {"s", 1}, {"n", 999}}).outcome() ==
        CommandResult::Outcome::refused);
  CHECK(other.state()["written"] == model.state()["written"]);  // a refused snapshot changed nothing
}

TEST_CASE("generate: a damaged model file fails with a reason, and Load asks again") {
  fresh_shelf(false);
  GenerateModel model(example(), {});
  REQUIRE(send(model, {{"type", "write"}}).done());
  CHECK(model.take_events().size() == 1);
  LanguageModels::shared().arrived("test-model", "NPLM1\nnot a model");
  model.update(0.016f);
  const json state = model.state();
  CHECK(state["model"]["status"] == "failed");
  CHECK(state["model"]["error"].get<std::string>().find(tr("lm-model.damaged", {{"error", ""}}).substr(0, 10)) == 0);
  CHECK_FALSE(model.writing());
  CHECK_FALSE(model.wants_another_frame());
  REQUIRE(send(model, {{"type", "loadModel"}}).done());
  CHECK(model.take_events().size() == 1);  // fetched again
  LanguageModels::shared().forget();
}
