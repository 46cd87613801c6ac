// language_models.cpp: the shelf of language models (language_models.h).
#include "engine/widgets/language_models.h"

#include "engine/core/error.h"
#include "engine/core/lm/model_file.h"
#include "engine/lesson/parse_context.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace neuralpath::widgets {

// [SECTION] What the blocks read -----------------------------------------------------------------

std::string read_model_name(lesson::detail::WidgetFields& w) {
  const std::string name = w.fields.text("model", true).value_or("");
  const bool ok = !name.empty() && name.size() <= 32 &&
                  name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  if (!name.empty() && !ok)
    w.ctx.error(w.fields.key_origin("model"),
                "model is a shipped model's name such as en or es (`neuralpath-cli lm models`)");
  return ok ? name : "";
}

std::string read_prompt(lesson::detail::WidgetFields& w) {
  std::string prompt = w.fields.text("prompt", true).value_or("");
  if (prompt.size() > 400) w.ctx.error(w.fields.key_origin("prompt"), "a prompt is at most 400 bytes");
  return prompt;
}

float read_real(lesson::detail::WidgetFields& w, const char* key, float fallback, float lo, float hi) {
  const std::optional<std::string> text = w.fields.text(key, false);
  if (!text) return fallback;
  const std::optional<float> v = lesson::detail::parse_number(*text);
  if (!v || !(*v >= lo && *v <= hi)) {
    w.ctx.error(w.fields.key_origin(key),
                std::string(key) + " must be a number from " + format_setting(lo) + " to " + format_setting(hi));
    return fallback;
  }
  return *v;
}

// [SECTION] Text ---------------------------------------------------------------------------------

namespace {
// Bytes in the UTF-8 character starting at s[i], or 0 when none starts there whole.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c < 0x80                        ? 1
                        : (c >> 5) == 0x6 && c >= 0xC2  ? 2
                        : (c >> 4) == 0xE               ? 3
                        : (c >> 3) == 0x1E && c <= 0xF4 ? 4
                                                        : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  if (n == 3) {  // no overlong forms, no surrogates
    const auto d = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F)) return 0;
  }
  if (n == 4) {
    const auto d = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xF0 && d < 0x90) || (c == 0xF4 && d > 0x8F)) return 0;
  }
  return n;
}
}  // namespace

std::string whole_utf8(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = utf8_length(bytes, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      out.append(bytes, i, n);
      i += n;
    }
  }
  return out;
}

std::string token_label(const std::string& bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = utf8_length(bytes, i);
    if (n == 0) {
      std::string out;
      char hex[8];
      for (unsigned char b : bytes) {
        std::snprintf(hex, sizeof hex, "<%02X>", b);
        out += hex;
      }
      return out;
    }
    i += n;
  }
  return bytes;
}

// [SECTION] The shelf ----------------------------------------------------------------------------

const char* model_state_name(ModelState state) {
  switch (state) {
    case ModelState::absent: return "absent";
    case ModelState::loading: return "loading";
    case ModelState::ready: return "ready";
    case ModelState::failed: return "failed";
  }
  return "absent";
}

LanguageModels& LanguageModels::shared() {
  static LanguageModels shelf;
  return shelf;
}

bool LanguageModels::want(const std::string& name) {
  Entry& e = entries_[name];
  if (e.status.state == ModelState::loading || e.status.state == ModelState::ready) return false;
  e.status = ModelStatus{ModelState::loading, 0, 0, {}};
  ++changes_;
  return true;
}

void LanguageModels::progress(const std::string& name, std::int64_t received, std::int64_t total) {
  const auto it = entries_.find(name);
  if (it == entries_.end() || it->second.status.state != ModelState::loading) return;  // nobody asked
  it->second.status.received = std::max<std::int64_t>(0, received);
  it->second.status.total = std::max<std::int64_t>(0, total);
  ++changes_;
}

void LanguageModels::arrived(const std::string& name, const std::string& bytes) {
  Entry& e = entries_[name];
  try {
    auto model = std::make_shared<lm::LmModel>(lm::model_from_bytes(bytes));
    e.model = std::move(model);
    e.status = ModelStatus{
        ModelState::ready, static_cast<std::int64_t>(bytes.size()), static_cast<std::int64_t>(bytes.size()), {}};
  } catch (const InputError& error) {
    e.model.reset();
    e.status = ModelStatus{ModelState::failed, 0, 0, tr("lm-model.damaged", {{"error", error.what()}})};
  }
  ++changes_;
}

void LanguageModels::failed(const std::string& name, const std::string& reason) {
  Entry& e = entries_[name];
  if (e.status.state == ModelState::ready) return;  // a late failure of a second fetch changes nothing
  e.status = ModelStatus{ModelState::failed, 0, 0, tr("lm-model.download_failed", {{"error", reason}})};
  ++changes_;
}

std::shared_ptr<const lm::LmModel> LanguageModels::model(const std::string& name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : it->second.model;
}

ModelStatus LanguageModels::status(const std::string& name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() ? ModelStatus{} : it->second.status;
}

void LanguageModels::forget() {
  entries_.clear();
  ++changes_;
}

const lm::LmModel* ModelHandle::get() const {
  const auto it = LanguageModels::shared().model(name_);
  return it.get();  // the shelf keeps it alive
}

bool ModelHandle::changed() {
  const std::uint64_t now = LanguageModels::shared().changes();
  if (now == seen_) return false;
  seen_ = now;
  return true;
}

bool ModelHandle::here_already() {
  if (!get()) return false;
  changed();
  return true;
}

void ModelHandle::ask(std::vector<nlohmann::json>& events) {
  if (want()) events.push_back({{"type", "lmModelWanted"}, {"name", name_}});
}

ModelHandle::Arrival ModelHandle::arrival(bool have) {
  if (!changed()) return Arrival::none;
  const ModelState state = status().state;
  if (state == ModelState::ready && !have) return Arrival::ready;
  return state == ModelState::failed ? Arrival::failed : Arrival::none;
}

bool ModelHandle::wants_frame(bool waiting, bool have) const {
  const ModelState state = status().state;
  return (waiting && state == ModelState::loading) || (!have && state == ModelState::ready);
}

nlohmann::json ModelHandle::state() const {
  const ModelStatus s = status();
  nlohmann::json out = {
      {"name", name_}, {"status", model_state_name(s.state)}, {"received", s.received}, {"total", s.total}};
  if (!s.error.empty()) out["error"] = s.error;
  return out;
}

}  // namespace neuralpath::widgets
