// model_support.h: what the widget model suites share: a launch lesson loaded once (with every
// widget kind's parser), its model, a block's settings as its kind's type, and a JSON command
// sent to a model the way the page sends it (parse, then apply).
#pragma once
#include "engine/lesson/lesson.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/core/lm/model.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/train/train_model.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace model_test {

using namespace neuralpath;
using namespace neuralpath::widgets;
using nlohmann::json;

// lessons/<id>.md, loaded once.
const lesson::Lesson& lesson_named(const std::string& id);
const ModelSpec& spec_of(const std::string& id);

template <class T>
const T& block_settings(const std::string& lesson_id, const char* block_id) {
  const lesson::Block* b = lesson::find_block(lesson_named(lesson_id), block_id);
  REQUIRE(b != nullptr);
  const T* s = lesson::widget_settings<T>(*b);
  REQUIRE(s != nullptr);
  return *s;
}

template <class Model>
CommandResult send(Model& model, const json& message) {
  auto parsed = Model::parse(message);
  if (auto* reply = std::get_if<CommandResult>(&parsed)) return *reply;
  return model.apply(std::get<typename Model::Command>(parsed));
}

// A lesson's own ```train block as the page makes it; `now_ms` replaces the session's clock.
TrainModel train_model_of(const std::string& lesson_id, const char* block_id, std::function<double()> now_ms = {});

// The self-attention lesson (spotlight, heatmap, mask steps, cost explorer). A suite says
// `using namespace model_test::launch;` and has the engine's names, json and the helpers.
namespace launch {
using namespace model_test;
using Outcome = CommandResult::Outcome;
inline const lesson::Lesson& launch_lesson() { return lesson_named("self-attention"); }
inline const ModelSpec& launch_spec() { return spec_of("self-attention"); }
template <class T>
const T& settings(const char* id) {
  return block_settings<T>("self-attention", id);
}
}  // namespace launch

// The language-model kinds (generate, kv-cache): the page's shelf of models, emptied, with
// "test-model" (a small seeded model, tests/lm_decode/test_models.h, as a file's bytes) arrived
// or not yet; and that model as the shelf reads it back.
void fresh_shelf(bool with_model);
const lm::LmModel& shelf_test_model();

// The multi-head lesson (split and join, the cost readout): send() answers the refusal's
// reason ("" when done).
namespace multi_head {
using namespace neuralpath;
using namespace neuralpath::widgets;
using nlohmann::json;
inline const lesson::Lesson& multi_head() { return lesson_named("multi-head"); }
inline const ModelSpec& spec() { return spec_of("multi-head"); }
template <class T>
const T& settings(const char* id) {
  return block_settings<T>("multi-head", id);
}
template <class Model>
std::string send(Model& model, const json& message) {
  return model_test::send(model, message).reason();
}
}  // namespace multi_head

}  // namespace model_test
