// protocol_test.cpp: the messages between a page and its trainer worker (engine/lm_worker/protocol.h):
// every message survives JSON both ways, and a message that is not exactly one is refused with a
// reason that names the field. tests/browser/lm-protocol.test.mjs checks the JavaScript side.
#include "engine/lm_worker/protocol.h"

#include <doctest/doctest.h>

using namespace neuralpath::lmworker;

namespace {

Snapshot full_snapshot() {
  Snapshot s;
  s.run = 3;
  s.step = 50;
  s.steps = 3000;
  s.running = true;
  s.loss = 3.25f;
  s.val_loss = NAN;
  s.first_copy_loss = 6.5f;
  s.second_copy_loss = 5.0f;
  s.curve_from = 1;
  s.curve = {{25, 3.5f, NAN}, {50, 3.25f, 3.4f}};
  s.history_from = 1;
  s.history = {{25, {0.1f, 0.2f}, {0.05f, 0.04f}}, {50, {0.15f, 0.25f}, {0.06f, 0.05f}}};
  s.samples_from = 0;
  s.samples = {{0, "The \"cat\" sat"}};
  s.heads = {{0, 0, 0.15f, 0.06f}, {0, 1, 0.25f, 0.05f}};
  s.previous_token = Milestone{1175, 0, 1, 0.506f};
  s.text = Attention{
      {"", "The", " cat"}, {{1, 0, 0, 0.5f, 0.5f, 0, 0.25f, 0.25f, 0.5f}, {1, 0, 0, 1, 0, 0, 1, 0, 0}}, false};
  return s;
}

template <class T>
T round_trip_reply(const T& message) {
  const Json j = encode(Reply{message});
  auto back = decode_reply(j);
  REQUIRE_MESSAGE(std::holds_alternative<Reply>(back), std::get<std::string>(back));
  REQUIRE(std::holds_alternative<T>(std::get<Reply>(back)));
  CHECK(encode(std::get<Reply>(back)) == j);  // nothing lost either way
  return std::get<T>(std::get<Reply>(back));
}

std::string refusal(const Json& j, bool reply = true) {
  if (reply) {
    auto d = decode_reply(j);
    return std::holds_alternative<std::string>(d) ? std::get<std::string>(d) : "";
  }
  auto d = decode_request(j);
  return std::holds_alternative<std::string>(d) ? std::get<std::string>(d) : "";
}

}  // namespace

TEST_CASE("every request survives JSON both ways") {
  const std::vector<Request> requests = {Open{2, "models/train-en.nptok", "page", 7, 0, "The ", "the cat, the cat"},
                                         Start{3, 11},
                                         Train{3, std::nullopt},
                                         Train{3, 1200},
                                         Pause{3},
                                         Text{3, "La gata"}};
  for (const Request& r : requests) {
    const Json j = encode(r);
    CHECK(j["type"] == type_name(r));
    auto back = decode_request(j);
    REQUIRE_MESSAGE(std::holds_alternative<Request>(back), std::get<std::string>(back));
    CHECK(std::get<Request>(back).index() == r.index());
    CHECK(encode(std::get<Request>(back)) == j);
  }
  CHECK_FALSE(encode(Request{Train{3, std::nullopt}}).contains("until"));
}

TEST_CASE("every reply survives JSON both ways, NaN as null") {
  round_trip_reply(Progress{"data", 1000, 790000});
  const Ready ready =
      round_trip_reply(Ready{1, "en", "fortunes", "page", 320, 32, 2, 4, 1430581, 39000, 12279, 2079779, 3.33f});
  CHECK(ready.train_tokens == 1430581);
  const Snapshot s = round_trip_reply(full_snapshot());
  CHECK(std::isnan(s.val_loss));
  CHECK(encode(Reply{full_snapshot()})["val_loss"].is_null());
  CHECK(std::isnan(s.curve[0].val_loss));
  CHECK(s.curve[1].val_loss == doctest::Approx(3.4f));
  REQUIRE(s.previous_token);
  CHECK(s.previous_token->step == 1175);
  CHECK_FALSE(s.induction);
  REQUIRE(s.text);
  CHECK(s.text->tokens[1] == "The");
  CHECK_FALSE(s.probe);
  CHECK(s.samples[0].text == "The \"cat\" sat");
  round_trip_reply(Error{2, "the data file is not valid"});
}

TEST_CASE("attention weights travel to three decimals") {
  Snapshot s = full_snapshot();
  s.text->weights[0][3] = 0.123456f;
  const Json j = encode(Reply{s});
  CHECK(j["text"]["weights"][0][3].get<double>() == doctest::Approx(0.123).epsilon(1e-9));
}

TEST_CASE("a message that is not exactly one of the protocol's is refused, naming what is wrong") {
  CHECK(refusal(Json::array()) == "a trainer message must be a JSON object");
  CHECK(refusal(Json{{"run", 1}}) == "a trainer message needs a \"type\" string");
  CHECK(refusal(Json{{"type", "launch"}}).find("not a message the trainer sends") != std::string::npos);
  CHECK(refusal(Json{{"type", "launch"}}, false).find("not a message the trainer takes") != std::string::npos);
  CHECK(refusal(Json{{"type", "pause"}}, false) == "pause needs 'run'");
  CHECK(refusal(Json{{"type", "pause"}, {"run", "1"}}, false) == "pause 'run' must be a whole number");
  CHECK(refusal(Json{{"type", "pause"}, {"run", 1}, {"colour", 1}}, false) == "pause has an unknown field 'colour'");
  CHECK(refusal(Json{{"type", "start"}, {"run", 1}, {"seed", -4}}, false).find("'seed' must be from 0") !=
        std::string::npos);
  CHECK(refusal(Json{{"type", "train"}, {"run", 1}, {"until", 1000000}}, false).find("'until'") != std::string::npos);
  CHECK(refusal(Json{{"type", "text"}, {"run", 1}, {"text", std::string(kMaxTextBytes + 1, 'a')}}, false)
            .find("longer than") != std::string::npos);
  CHECK(refusal(Json{{"type", "progress"}, {"what", "model"}, {"loaded", 1}, {"total", 2}}).find("'what'") !=
        std::string::npos);
  Json bad_grid = encode(Reply{full_snapshot()});
  bad_grid["text"]["weights"][0].erase(0);
  CHECK(refusal(bad_grid).find("tokens × tokens") != std::string::npos);
  Json bad_history = encode(Reply{full_snapshot()});
  bad_history["history"][0]["induction"].push_back(0.5);
  CHECK(refusal(bad_history).find("one score of each kind per head") != std::string::npos);
  Json huge = encode(Reply{full_snapshot()});
  huge["step"] = 1e300;
  CHECK_FALSE(refusal(huge).empty());
}
