// language_models.h: the trained language models a page's widgets run (engine/core/lm), by the
// shipped name ("en", "es"), each fetched only when a widget first needs it. No widget holds a
// copy: they share the one the shelf keeps.
//
//   absent   --want()-->  loading (received/total bytes as they arrive, progress())
//   loading  --arrived(bytes)-->  ready (the file read and checked, model_file.h)
//            --arrived(damaged) / failed(why)-->  failed (why, in the learner's language)
//   failed   --want()-->  loading again
//
// The page's JavaScript does the fetching (web/shell/np-models.js): a widget whose want() returns
// true sends the event {"type": "lmModelWanted", "name"} (protocol.md), and web/main.cpp's
// np_lm_model_* exports bring the bytes and the progress back here. Native tests and tools hand
// the bytes in themselves.
#pragma once
#include "engine/core/lm/model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace neuralpath::lesson::detail {
struct WidgetFields;
}

namespace neuralpath::widgets {

// What the widget kinds that run a language model read from their block alike:
//   model: en          a shipped model's name (lower-case letters, digits, "-")   required
//   prompt: "The "     the text the model goes on from (quoted to keep a final space)   required
// A real number key such as "temperature: 0.8" in [lo, hi] (`fallback` when absent).
std::string read_model_name(lesson::detail::WidgetFields& fields);
std::string read_prompt(lesson::detail::WidgetFields& fields);
float read_real(lesson::detail::WidgetFields& fields, const char* key, float fallback, float lo, float hi);

// Text for state() and the canvas, which take only whole UTF-8: `bytes` with each byte that is
// not part of a whole character replaced by U+FFFD (a token may be half of a character until the
// next token completes it).
std::string whole_utf8(const std::string& bytes);
// A token's bytes as a chip shows them: its characters, a piece of a character as <C3>.
std::string token_label(const std::string& bytes);

enum class ModelState { absent, loading, ready, failed };
const char* model_state_name(ModelState state);  // "absent", "loading", "ready", "failed"

struct ModelStatus {
  ModelState state = ModelState::absent;
  std::int64_t received = 0, total = 0;  // bytes so far; total 0 while the size is unknown
  std::string error;                     // failed: why
};

class LanguageModels {
 public:
  static LanguageModels& shared();  // the page's one shelf

  // A widget needs `name`: true when a download should start now (absent or failed before),
  // false when it is already loading or ready.
  bool want(const std::string& name);
  void progress(const std::string& name, std::int64_t received, std::int64_t total);
  // The whole file arrived: read and checked; a damaged file leaves the model failed with why.
  void arrived(const std::string& name, const std::string& bytes);
  void failed(const std::string& name, const std::string& reason);

  std::shared_ptr<const lm::LmModel> model(const std::string& name) const;  // nullptr until ready
  ModelStatus status(const std::string& name) const;
  std::uint64_t changes() const { return changes_; }  // grows at every change, so a widget notices one

  void forget();  // every model and status dropped (a new page; tests)

 private:
  struct Entry {
    ModelStatus status;
    std::shared_ptr<const lm::LmModel> model;
  };
  std::map<std::string, Entry> entries_;
  std::uint64_t changes_ = 0;
};

// A widget's view of one model on the shelf: asks for it, notices when it arrives, and reports
// it in state() as {"name", "status", "received", "total", "error"?}.
class ModelHandle {
 public:
  explicit ModelHandle(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  // Asks the shelf for the model; true when the widget should send lmModelWanted now.
  bool want() { return LanguageModels::shared().want(name_); }
  const lm::LmModel* get() const;  // nullptr until ready
  std::shared_ptr<const lm::LmModel> shared() const { return LanguageModels::shared().model(name_); }
  ModelStatus status() const { return LanguageModels::shared().status(name_); }
  bool loading() const { return status().state == ModelState::loading; }
  // True once per change of the shelf since the last call (a widget's update() polls it).
  bool changed();
  nlohmann::json state() const;

  // What the kinds that run a language model do alike, in their order: built, take the model a
  // widget of the page has loaded already; asked for an action without it, ask for it (the
  // lmModelWanted event); each frame, see whether it came; run frames while it may come.
  bool here_already();                            // ready now (this change is seen)
  void ask(std::vector<nlohmann::json>& events);  // adds lmModelWanted when a fetch should start
  enum class Arrival { none, ready, failed };
  Arrival arrival(bool have);                       // once per change: ready (and not `have`), or failed
  bool wants_frame(bool waiting, bool have) const;  // loading while waited for, or ready and not taken

 private:
  std::string name_;
  std::uint64_t seen_ = ~std::uint64_t{0};
};

}  // namespace neuralpath::widgets
