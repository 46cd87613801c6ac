// attention_trainer.cpp: the train widget's trainer as WebAssembly, for a Web Worker (issue #33:
// training in the page runs off the main thread, so a frame never waits on a training step). No
// ImGui, no window: engine/widgets/train's TrainWorker behind three exports, each taking and
// returning the JSON of train_protocol.h. web/shell/np-train-worker.js is the worker script that
// loads this and talks to the page.
//
//   atr_alloc(n) / atr_free(p)    heap buffers for the messages
//   atr_handle(json, n) -> JSON   a prepare, train or pause message: [replies...]
//   atr_work(ms) -> JSON          train while running, for about `ms` ms: [replies...]
//   atr_running() -> 0|1          whether the worker should call atr_work again
//   atr_wait_ms() -> ms           how long until the run's next step is due (0: now)
// Returned strings stay valid until the next call that returns one.
#include "engine/widgets/train/train_worker.h"

#include <emscripten/emscripten.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace {

namespace tw = neuralpath::widgets::trainworker;

tw::TrainWorker& worker() {
  static tw::TrainWorker w([] { return emscripten_get_now(); });
  return w;
}
std::string reply;

const char* answer(const std::vector<tw::Reply>& replies) {
  nlohmann::json out = nlohmann::json::array();
  for (const tw::Reply& r : replies) out.push_back(tw::encode(r));
  reply = out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return reply.c_str();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void* atr_alloc(std::size_t bytes) { return std::malloc(bytes + 1); }
EMSCRIPTEN_KEEPALIVE void atr_free(void* p) { std::free(p); }

EMSCRIPTEN_KEEPALIVE const char* atr_handle(const char* json, std::size_t length) {
  const nlohmann::json message = nlohmann::json::parse(std::string_view(json, length), nullptr, false);
  auto decoded = tw::decode_request(message);
  if (auto* why = std::get_if<std::string>(&decoded)) return answer({tw::Error{worker().run(), *why}});
  return answer(worker().handle(std::get<tw::Request>(decoded)));
}

EMSCRIPTEN_KEEPALIVE const char* atr_work(double budget_ms) { return answer(worker().work(budget_ms)); }

EMSCRIPTEN_KEEPALIVE int atr_running() { return worker().running() ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE double atr_wait_ms() { return worker().wait_ms(); }

}  // extern "C"
