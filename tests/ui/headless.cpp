#include "headless.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace neuralpath::ui::test {

[[noreturn]] void imgui_assertion_failed(const char* expression, const char* file, int line) {
  throw ImGuiAssertion(std::string("ImGui assertion failed: ") + expression + " (" +
                       std::filesystem::path(file).filename().string() + ":" + std::to_string(line) + ")");
}

namespace {

// Rasterising every face takes a while, so each scale's atlas is built once per test run and
// shared by the contexts (ImGui allows one atlas for several contexts).
struct SharedFonts {
  std::unique_ptr<ImFontAtlas> atlas;
  Fonts fonts;
};

SharedFonts& shared_fonts(float scale) {
  static std::map<float, SharedFonts> cache;
  SharedFonts& entry = cache[scale];
  if (!entry.atlas) {
    entry.atlas = std::make_unique<ImFontAtlas>();
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGuiContext* builder = ImGui::CreateContext(entry.atlas.get());
    ImGui::SetCurrentContext(builder);
    std::string error;
    if (!load_fonts(kFontDir, scale, entry.fonts, error)) throw std::runtime_error(error);
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    entry.atlas->GetTexDataAsAlpha8(&pixels, &width, &height);  // builds the atlas
    ImGui::DestroyContext(builder);
    ImGui::SetCurrentContext(previous);
  }
  return entry;
}

}  // namespace

Headless::Headless(float css_width, float css_height, float scale, Theme theme)
    : css_width_(css_width), css_height_(css_height), scale_(scale) {
  SharedFonts& shared = shared_fonts(scale);
  context_ = ImGui::CreateContext(shared.atlas.get());
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  for (int key = 0; key < ImGuiKey_COUNT; ++key) io.KeyMap[key] = key;  // key i is KeysDown[i]
  fonts_ = shared.fonts;
  app_.set_fonts(fonts_);
  app_.set_theme(theme);
  app_.set_viewport({css_width, css_height, scale});
}

Headless::~Headless() {
  try {
    ImGui::SetCurrentContext(context_);
    // A test that failed inside a frame leaves the frame open and the shared font atlas locked
    // (NewFrame locks it, Render unlocks it); unlock it for the next test, then shut down.
    ImGui::GetIO().Fonts->Locked = false;
    ImGui::DestroyContext(context_);
  } catch (const std::exception&) {
  }
}

void Headless::load(const std::string& id, const std::string& markdown) { app_.load_lesson(id, markdown); }

void Headless::load_file(const std::string& path) {
  load(std::filesystem::path(path).stem().string(), read_file(path));
}

void Headless::resize(float css_width, float css_height) {
  css_width_ = css_width;
  css_height_ = css_height;
  app_.set_viewport({css_width, css_height, scale_});
}

void Headless::frames(int count, float dt) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < count; ++i) {
    io.DisplaySize = ImVec2(css_width_ * scale_, css_height_ * scale_);
    io.DeltaTime = dt;
    app_.before_new_frame();  // as web/main.cpp: a finger's press may be held back
    ImGui::NewFrame();
    app_.frame(dt);
    ImGui::Render();
    for (const std::string& e : app_.take_events()) pending_.push_back(nlohmann::json::parse(e));
  }
}

void Headless::move(float x, float y) {
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().MousePos = ImVec2(x * scale_, y * scale_);
}

void Headless::click(float x, float y) {
  move(x, y);
  frames(1);
  ImGui::GetIO().MouseDown[0] = true;
  frames(1);
  ImGui::GetIO().MouseDown[0] = false;
  frames(1);
}

void Headless::drag(float x0, float y0, float x1, float y1, int steps) {
  move(x0, y0);
  frames(1);
  ImGui::GetIO().MouseDown[0] = true;
  frames(1);
  for (int i = 1; i <= steps; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(steps);
    move(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
    frames(1);
  }
  ImGui::GetIO().MouseDown[0] = false;
  frames(1);
}

// The platform sets io's pointer every frame from the device (GLFW); App::before_new_frame may
// then rewrite it for ImGui, so each frame starts again from where the finger really is.
void Headless::finger_frame(float x, float y, bool down) {
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().MousePos = ImVec2(x * scale_, y * scale_);
  ImGui::GetIO().MouseDown[0] = down;
  frames(1);
}

void Headless::tap(float x, float y) {
  app_.finger_down();
  finger_frame(x, y, true);
  finger_frame(x, y, false);
  finger_frame(x, y, false);
  ImGui::GetIO().MouseDown[0] = false;
}

void Headless::swipe(float x0, float y0, float x1, float y1, int steps) {
  app_.finger_down();
  finger_frame(x0, y0, true);
  for (int i = 1; i <= steps; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(steps);
    finger_frame(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, true);
  }
  finger_frame(x1, y1, false);
  finger_frame(x1, y1, false);
  ImGui::GetIO().MouseDown[0] = false;
}

void Headless::wheel(float notches) {
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().MouseWheel = notches;
  frames(1);
}

void Headless::key(ImGuiKey key, bool shift) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.KeyShift = shift;
  io.KeysDown[key] = true;
  frames(1);
  io.KeysDown[key] = false;
  io.KeyShift = false;
  frames(1);
}

nlohmann::json Headless::state() const { return nlohmann::json::parse(app_.state_json()); }

nlohmann::json Headless::command(const nlohmann::json& message) {
  ImGui::SetCurrentContext(context_);
  return nlohmann::json::parse(app_.command(message.dump()));
}

std::vector<nlohmann::json> Headless::events() {
  for (const std::string& e : app_.take_events()) pending_.push_back(nlohmann::json::parse(e));
  std::vector<nlohmann::json> out;
  out.swap(pending_);
  return out;
}

std::vector<nlohmann::json> Headless::events_of(const std::string& type) {
  std::vector<nlohmann::json> out;
  for (nlohmann::json& e : events())
    if (e.value("type", "") == type) out.push_back(std::move(e));
  return out;
}

std::vector<std::string> lesson_files() {
  std::vector<std::string> out;
  if (!std::filesystem::is_directory("lessons")) return out;
  for (const auto& entry : std::filesystem::directory_iterator("lessons")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" && name != "FORMAT.md" && name != "README.md")
      out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json widget_state(const Headless& page, const std::string& id) {
  return with_id(page.state()["widgets"], id);
}

ImVec2 centre(const nlohmann::json& rect) {
  return {rect[0].get<float>() + rect[2].get<float>() / 2, rect[1].get<float>() + rect[3].get<float>() / 2};
}

nlohmann::json with_id(const nlohmann::json& list, const std::string& id) {
  for (const nlohmann::json& item : list)
    if (item.value("id", "") == id) return item;
  FAIL("no item with id " << id);
  return {};
}

void walk_as_a_learner(Headless& page) {
  const nlohmann::json state = page.state();
  for (const nlohmann::json& s : state["sections"]) page.command({{"type", "goto"}, {"section", s["anchor"]}});
  for (const nlohmann::json& c : state["checks"]) {
    page.command({{"type", "answer"}, {"check", c["id"]}, {"option", 0}});
    page.command({{"type", "reveal"}, {"id", c["id"]}});
  }
  for (const nlohmann::json& r : state["reveals"]) page.command({{"type", "reveal"}, {"id", r["id"]}, {"open", true}});
  page.command({{"type", "theme"}, {"dark", true}});
  page.command({{"type", "step"}, {"n", 1}});  // a transport, where the lesson has one
  page.command({{"type", "play"}});
  page.frames(2);
}

}  // namespace neuralpath::ui::test
