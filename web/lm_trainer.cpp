// lm_trainer.cpp: the language-model trainer's WebAssembly, for a Web Worker (issue #33: training
// in the page runs off the main thread, so a frame never waits on a training step). No ImGui,
// no window: engine/lm_worker's TrainerWorker behind four exports, each taking and returning
// the JSON of protocol.h (docs/lm-worker.md). web/shell/np-lm-worker.js is the worker script
// that loads this and talks to the page.
//
//   lmt_alloc(n) / lmt_free(p)          heap buffers for the strings and the data file
//   lmt_open(json, n, data, n) -> JSON  the open message with the data file's bytes: [ready, snapshot]
//   lmt_handle(json, n) -> JSON         any other message: [replies...]
//   lmt_work(steps, ms) -> JSON         train while running, at most `steps` steps or `ms` ms
//   lmt_running() -> 0|1                whether the worker should call lmt_work again
// Returned strings stay valid until the next call that returns one.
#include "engine/lm_worker/trainer_worker.h"

#include <emscripten/emscripten.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace {

neuralpath::lmworker::TrainerWorker& worker() {
  static neuralpath::lmworker::TrainerWorker w([] { return emscripten_get_now(); });
  return w;
}
std::string reply;

const char* answer(const std::vector<neuralpath::lmworker::Reply>& replies) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : replies) out.push_back(neuralpath::lmworker::encode(r));
  reply = out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // a token may be half a character
  return reply.c_str();
}

const char* refused(std::string why) {
  return answer({neuralpath::lmworker::Error{worker().run_number(), std::move(why)}});
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void* lmt_alloc(std::size_t bytes) { return std::malloc(bytes + 1); }
EMSCRIPTEN_KEEPALIVE void lmt_free(void* p) { std::free(p); }

EMSCRIPTEN_KEEPALIVE const char* lmt_open(const char* json, std::size_t length, const char* data,
                                          std::size_t data_length) {
  const nlohmann::json message = nlohmann::json::parse(std::string_view(json, length), nullptr, false);
  auto decoded = neuralpath::lmworker::decode_request(message);
  if (auto* why = std::get_if<std::string>(&decoded)) return refused(*why);
  const auto* open = std::get_if<neuralpath::lmworker::Open>(&std::get<neuralpath::lmworker::Request>(decoded));
  if (!open) return refused("lmt_open takes an open message");
  return answer(worker().open(std::string_view(data, data_length), *open));
}

EMSCRIPTEN_KEEPALIVE const char* lmt_handle(const char* json, std::size_t length) {
  const nlohmann::json message = nlohmann::json::parse(std::string_view(json, length), nullptr, false);
  auto decoded = neuralpath::lmworker::decode_request(message);
  if (auto* why = std::get_if<std::string>(&decoded)) return refused(*why);
  return answer(worker().handle(std::get<neuralpath::lmworker::Request>(decoded)));
}

EMSCRIPTEN_KEEPALIVE const char* lmt_work(int max_steps, double budget_ms) {
  return answer(worker().work(max_steps, budget_ms));
}

EMSCRIPTEN_KEEPALIVE int lmt_running() { return worker().running() ? 1 : 0; }

}  // extern "C"
