// fuzz_share.cpp: libFuzzer target for a shared link (`?s=`), as the engine receives it. The
// page (web/shell/np-share.js) unpacks the link to the JSON payload
//   {"v": 1, "s": section, "w": {widget id: snapshot}, "p": [playback id, step]}
// and hands it over as restoreSnapshot, seek and goto commands; the same bytes also go in as a
// command of their own (anything a host or a link can make the page send). Run on the three
// launch lessons, which hold every widget kind. Properties beyond "no crash, no hang":
//   - every sentence in state() fits a sentence field (a 2.5 KB link once put a 1.9 MB word
//     into the heatmap, its labels, its summary and a saved image: 9.5 MB of state);
//   - state() is JSON and stays under kMaxStateBytes;
//   - the engine's own snapshot afterwards (what share() would send) restores to itself.
#include "engine/lesson/limits.h"
#include "engine/ui/app.h"
#include "engine/ui/page_limits.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using neuralpath::ui::App;
using nlohmann::json;

// The launch lessons' whole state is under 400 KB; ten times that is a figure gone wrong.
constexpr std::size_t kMaxStateBytes = 4u << 20;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::unique_ptr<App>>& apps() {
  static std::vector<std::unique_ptr<App>> loaded = [] {
    ImGui::CreateContext();
    std::vector<std::unique_ptr<App>> out;
    for (const char* id : {"self-attention", "multi-head", "course-playback"}) {
      auto app = std::make_unique<App>();
      app->load_lesson(id, read(std::string(NEURALPATH_SOURCE_DIR "/lessons/") + id + ".md"));
      if (!json::parse(app->state_json())["errors"].empty()) std::abort();  // the seeds need the real lessons
      out.push_back(std::move(app));
    }
    return out;
  }();
  return loaded;
}

json run(App& app, const json& command) { return json::parse(app.command(command.dump())); }

void check_state(App& app) {
  const std::string text = app.state_json();
  if (text.size() > kMaxStateBytes) std::abort();
  const json state = json::parse(text);  // throws (and so fails) on anything but JSON
  for (const json& widget : state["widgets"])
    for (const char* key : {"sentence", "draft"})
      if (widget.contains(key) && widget[key].is_string() &&
          widget[key].get<std::string>().size() > neuralpath::lesson::kMaxSentenceBytes)
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (size > neuralpath::ui::kMaxSharedStateBytes) return 0;  // the page unpacks no more
  for (const auto& app : apps()) {
    (void)app->command(input);  // as a command of its own: refused or run, never a crash
    const json payload = json::parse(input, nullptr, /*allow_exceptions=*/false);
    if (payload.is_object()) {  // what np-share.js's openShared() sends
      if (payload.contains("w") && payload["w"].is_object())
        (void)run(*app, {{"type", "restoreSnapshot"}, {"widgets", payload["w"]}});
      if (payload.contains("p") && payload["p"].is_array() && payload["p"].size() == 2 && payload["p"][0].is_string() &&
          payload["p"][1].is_number_integer())
        (void)run(*app, {{"type", "seek"}, {"step", payload["p"][1]}, {"widget", payload["p"][0]}});
      if (payload.contains("s") && payload["s"].is_string())
        (void)run(*app, {{"type", "goto"}, {"section", payload["s"]}});
    }
    check_state(*app);
    // What share() would put in a link now restores to itself.
    const json first = run(*app, {{"type", "snapshot"}});
    if (!first.value("ok", false)) std::abort();
    const json restored = run(*app, {{"type", "restoreSnapshot"}, {"widgets", first["widgets"]}});
    if (!restored.value("ok", false) || restored.contains("dropped")) std::abort();
    const json second = run(*app, {{"type", "snapshot"}});
    if (second["widgets"] != first["widgets"]) std::abort();
  }
  return 0;
}
