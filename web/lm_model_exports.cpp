// lm_model_exports.cpp: the exports that bring a shipped language model into the page, linked
// only into the lesson engines that hold a kind which runs one (web/CMakeLists.txt): the others
// would carry the model reader for nothing.
//
// A shipped language model on its way (web/shell/np-models.js fetches it when a widget sends
// lmModelWanted): its progress, its bytes (read and checked by the engine), or why it failed.
// The widgets notice the change on their next update, so each call wakes the loop.
#include "engine/widgets/language_models.h"
#include "web/engine_loop.h"

#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" {

EMSCRIPTEN_KEEPALIVE void np_lm_model_progress(const char* name, double received, double total) {
  neuralpath::widgets::LanguageModels::shared().progress(name, static_cast<std::int64_t>(received),
                                                         static_cast<std::int64_t>(total));
  neuralpath::web::wake_engine();
}
EMSCRIPTEN_KEEPALIVE int np_lm_model_bytes(const char* name, const char* bytes, std::size_t length) {
  auto& shelf = neuralpath::widgets::LanguageModels::shared();
  shelf.arrived(name, std::string(bytes, length));
  neuralpath::web::wake_engine();
  return shelf.status(name).state == neuralpath::widgets::ModelState::ready ? 0 : 1;
}
EMSCRIPTEN_KEEPALIVE void np_lm_model_failed(const char* name, const char* reason) {
  neuralpath::widgets::LanguageModels::shared().failed(name, reason);
  neuralpath::web::wake_engine();
}

}  // extern "C"
