// The one program that opens a window: GLFW (Emscripten's port) + WebGL2 + Dear ImGui, driving
// neuralpath::ui::App. Everything the browser offers beyond a canvas (fetching lessons, speech,
// storage, the DOM mirror, postMessage) lives in the JS glue (web/shell/*.js), which calls the
// `np_*` functions exported at the bottom of this file.
//
// [SECTION] Platform state
// [SECTION] Idle: no engine frames while nothing changes
// [SECTION] Typing from the page's stand-in field
// [SECTION] Frame loop
// [SECTION] Exports to JS
#include "engine/text/format.h"
#include "engine/lesson/limits.h"
#include "engine/ui/app.h"
#include "engine/ui/fonts.h"
#include "engine/ui/page_limits.h"
#include "engine/ui/text_bridge.h"
#include "web/canvas_damage.h"
#include "web/engine_loop.h"
#include "web/imgui_webgl_renderer.h"

#include <GLFW/glfw3.h>
#include <GLES3/gl3.h>
#include <emscripten/emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>
#include <string>
#include <string_view>

namespace {

// [SECTION] Platform state ----------------------------------------------------------------------

struct Platform {
  GLFWwindow* window = nullptr;
  neuralpath::ui::App* app = nullptr;
  neuralpath::ui::ViewportInfo viewport;
  float font_scale = 0;                          // pixel scale the font atlas was last built for
  bool context_lost = false;                     // WebGL context gone: skip drawing until it is restored
  neuralpath::web::ImGuiWebGLRenderer renderer;  // draws ImGui's draw data (imgui_webgl_renderer.h)
  bool canvas_kept = false;                      // the context preserves its drawing buffer: a frame may draw a part
  double last_time = 0;
  bool wanted_text_input = false;     // ImGui's text field focus, as last reported to JS
  bool lesson_given = false;          // np_load_lesson has run: until then a frame would draw an empty page
  int frames_waited_for_widgets = 0;  // animation frames skipped while np-app.js builds the widgets
  std::string reply;                  // keeps strings returned to JS alive until the next call
};
Platform platform;

const char* font_dir = "/fonts";  // preloaded into Emscripten's virtual file system

// GLFW's Emscripten port has no clipboard, so ImGui's copy buttons go to the browser's.
// The last copied text is also kept here, so a paste inside the canvas works without asking
// the browser (whose clipboard read is asynchronous and needs a permission).
std::string clipboard;
// JavaScript, which clang-format would break (it split => and !== in two):
// clang-format off
EM_JS(void, write_browser_clipboard, (const char* text), {
  if (navigator.clipboard && navigator.clipboard.writeText)
    navigator.clipboard.writeText(UTF8ToString(text)).catch(() => {});
});
// clang-format on
void set_clipboard(void*, const char* text) {
  clipboard = text ? text : "";
  write_browser_clipboard(clipboard.c_str());
}
const char* get_clipboard(void*) { return clipboard.c_str(); }

// The font atlas as a WebGL texture of the page's own, uploaded as ImGui rasterised it: one byte
// of coverage per texel (R8). ImGui's OpenGL3 backend converts the atlas to RGBA first (8 MB for
// the 1024x2048 atlas: white, with the coverage in alpha), and its first NewFrame() made device
// objects the page never uses and uploaded the atlas a second time (#33). A conversion to
// LUMINANCE_ALPHA replaced it, and still cost 190 ms of the page's start (a V8 profile: 4 MB
// written a byte at a time, in code built for size). The renderer's shader reads the red channel
// as the glyph's alpha (imgui_webgl_renderer.cpp), so it draws the same (1, 1, 1, a) texels.
GLuint font_texture = 0;
void upload_font_texture() {
  unsigned char* coverage = nullptr;
  int width = 0, height = 0;
  ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&coverage, &width, &height);  // rasterises the faces
  if (font_texture) glDeleteTextures(1, &font_texture);
  GLint bound = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
  glGenTextures(1, &font_texture);
  glBindTexture(GL_TEXTURE_2D, font_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  // Rows of `width` bytes: ImGui's atlas width is a power of two (512 at least), so the
  // default 4-byte row alignment holds.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, coverage);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(bound));
  ImGui::GetIO().Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(font_texture)));
}

// Rasterise the fonts for the screen's pixel ratio (crisp text on HiDPI) and upload them.
void rebuild_fonts(float pixel_scale) {
  neuralpath::ui::Fonts fonts;
  std::string error;
  neuralpath::ui::load_fonts(font_dir, pixel_scale, fonts, error);
  platform.app->set_fonts(fonts);
  platform.app->set_font_error(error);
  // The style (theme colours, sizes for the pixel scale) is the App's alone: it sets it every
  // frame from its theme and viewport (App::apply_style), so nothing here touches it.
  upload_font_texture();
  platform.font_scale = pixel_scale;
}

// [SECTION] Idle: no engine frames while nothing changes -----------------------------------------
// hello_imgui's idling, taken to zero: the engine runs (ImGui frame, App::frame, drawing) only
// while something can change:
//   - input arrived (GLFW callbacks below) or JS called in (np_* exports): a few frames, so
//     ImGui sees a press and its release and the layout settles;
//   - the last frame looked different from the one before (an animation, a glide, a swing);
//   - the App says something changes with time alone (App::wants_another_frame: a run in
//     progress, playback playing), even where two frames would look alike.
// A frame that looks like the last one is not drawn either (the canvas keeps showing it), and one
// that changes part of the canvas draws only that part (canvas_damage.h).
// Asleep, the main loop stops asking for animation frames, and wake() asks again: a loop that
// kept calling engine_frame() only to return woke the page's main thread, its compositor and
// the GPU process 60 times a second (with the event polling and the gamepads below, 11-14% of a
// core here for a lesson nobody touched; docs/performance.md, "An idle lesson").
struct IdleGate {
  static constexpr int frames_after_wake = 3;
  int owed = frames_after_wake;          // engine frames still to run
  neuralpath::web::CanvasDamage damage;  // what the canvas shows, tile by tile
  long long engine_frames = 0;           // engine frames run so far (np_engine_frames, for tests)
  std::vector<double> frame_ms;  // each engine frame's own time since the bench last asked (np_engine_frame_times)
  bool slept = false;            // the last animation frame ran no engine frame

  bool loop_paused = false;  // engine_frame() paused the main loop (only it does, so the loop exists)

  void wake() {
    owed = std::max(owed, frames_after_wake);
    if (loop_paused) {
      loop_paused = false;
      emscripten_resume_main_loop();  // engine_frame() runs in the next animation frame
    }
  }
  // From engine_frame() only: the runner sees the pause on return and asks for no further frame.
  void pause_loop() {
    loop_paused = true;
    emscripten_pause_main_loop();
  }
  void redraw() {
    damage.forget();
    wake();
  }
  bool asleep() const { return owed <= 0; }
  void after_frame(bool looked_different, bool wants_more) {
    owed = (looked_different || wants_more) ? std::max(owed - 1, 1) : owed - 1;
  }
};
IdleGate idle;

// Input wakes the loop. These are installed before ImGui's GLFW backend, which calls them
// after its own handlers; the cursor position (which the backend polls) is ours alone.
void wake_on_mouse_button(GLFWwindow*, int, int, int) { idle.wake(); }
void wake_on_scroll(GLFWwindow*, double, double) { idle.wake(); }
void wake_on_key(GLFWwindow*, int, int, int, int) { idle.wake(); }
void wake_on_char(GLFWwindow*, unsigned int) { idle.wake(); }
void wake_on_cursor_enter(GLFWwindow*, int) { idle.wake(); }
void wake_on_focus(GLFWwindow*, int) { idle.wake(); }
void wake_on_cursor_move(GLFWwindow*, double, double) { idle.wake(); }
void wake_on_input(GLFWwindow* window) {
  glfwSetMouseButtonCallback(window, wake_on_mouse_button);
  glfwSetScrollCallback(window, wake_on_scroll);
  glfwSetKeyCallback(window, wake_on_key);
  glfwSetCharCallback(window, wake_on_char);
  glfwSetCursorEnterCallback(window, wake_on_cursor_enter);
  glfwSetWindowFocusCallback(window, wake_on_focus);
  glfwSetCursorPosCallback(window, wake_on_cursor_move);
}

// [SECTION] Typing from the page's stand-in field ------------------------------------------------
// A phone's on-screen keyboard types into a DOM field (web/shell/np-input.js), which passes the
// text and the editing keys here. ImGui 1.86 reads each key's state once per frame, so a key
// pressed and released between two frames is never seen, and two presses of one key before a
// frame count once (#15: 70 Backspaces deleted nothing). So each key is held down for exactly
// one frame and released on the next, and what was typed after it waits its turn, in order.
struct Typed {
  std::string text;  // characters, or
  int key = -1;      // a GLFW key, with
  int mods = 0;      // GLFW_MOD_CONTROL / GLFW_MOD_SHIFT
};
std::deque<Typed> typed;
Typed held;  // the key down since the last frame (key -1: none)

void modifier_keys(int mods, int action) {
  if (mods & GLFW_MOD_CONTROL) ImGui_ImplGlfw_KeyCallback(platform.window, GLFW_KEY_LEFT_CONTROL, 0, action, 0);
  if (mods & GLFW_MOD_SHIFT) ImGui_ImplGlfw_KeyCallback(platform.window, GLFW_KEY_LEFT_SHIFT, 0, action, 0);
}

// Before each ImGui frame: release the key of the last frame, else pass on text up to the next
// key and press that key (ImGui handles a frame's characters before its keys, so the order holds).
void deliver_typing() {
  if (held.key >= 0) {
    ImGui_ImplGlfw_KeyCallback(platform.window, held.key, 0, GLFW_RELEASE, 0);
    modifier_keys(held.mods, GLFW_RELEASE);
    held = Typed{};
  } else {
    while (!typed.empty()) {
      Typed next = std::move(typed.front());
      typed.pop_front();
      if (next.key < 0) {
        ImGui::GetIO().AddInputCharactersUTF8(next.text.c_str());
        continue;
      }
      modifier_keys(next.mods, GLFW_PRESS);
      ImGui_ImplGlfw_KeyCallback(platform.window, next.key, 0, GLFW_PRESS, 0);
      held = std::move(next);
      break;
    }
  }
  if (held.key >= 0 || !typed.empty()) idle.wake();  // the rest needs frames of its own
}

// Characters ImGui 1.86 cannot hold (outside the Basic Multilingual Plane: emoji, ...) or the
// page's fonts cannot draw would show as "?": they are left out, and the page is told which.
std::string drawable_text(const char* utf8, std::string& refused) {
  std::string kept;
  const char* at = utf8;
  const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
  while (*at) {
    unsigned int c = 0;
    const int length = ImTextCharFromUtf8(&c, at, nullptr);
    if (length <= 0) break;
    const bool drawable = c != IM_UNICODE_CODEPOINT_INVALID && c <= IM_UNICODE_CODEPOINT_MAX &&
                          (c < 0x20 || !font || font->FindGlyphNoFallback(static_cast<ImWchar>(c)));
    (drawable ? kept : refused).append(at, static_cast<std::size_t>(length));
    at += length;
  }
  return kept;
}

// [SECTION] Frame loop --------------------------------------------------------------------------

// A performance mark on the start-up timeline np-app.js keeps (np:NAME), for the bench and profiles.
EM_JS(void, start_mark, (const char* name), { performance.mark('np:' + UTF8ToString(name)); });

void engine_frame() {
  // Before the lesson arrives the loading overlay covers the canvas: a frame would only draw an
  // empty page (and build the fonts in the middle of the page's start, np_build_fonts does that).
  // Each of these ends with a wake(): the context's restoring, input or a call from JS, np_load_lesson.
  if (platform.context_lost || idle.asleep() || !platform.lesson_given) {
    idle.slept = true;
    idle.pause_loop();
    return;
  }
  // While np-app.js builds the lesson's widgets one task at a time (np_build_widgets), a frame
  // would build all those left at once (App::frame must see them all). It waits for them, a
  // second at most: a page whose script stopped building still gets its lesson drawn.
  if (platform.app->widgets_pending() > 0 && ++platform.frames_waited_for_widgets < 60) {
    idle.slept = true;
    return;
  }
  ++idle.engine_frames;
  const double frame_start = emscripten_get_now();
  deliver_typing();
  if (platform.viewport.pixel_scale != platform.font_scale) {
    rebuild_fonts(platform.viewport.pixel_scale);
    idle.damage.forget();  // a new atlas may reuse the old texture's name
  }

  // Time asleep is time in which nothing changed: the first frame after it is a normal step.
  const double now = glfwGetTime();
  const float dt = platform.last_time > 0 && !idle.slept ? static_cast<float>(now - platform.last_time) : 1 / 60.f;
  platform.last_time = now;
  idle.slept = false;

  // No ImGui_ImplOpenGL3_NewFrame(): all it does (ImGui 1.86) is make the backend's device
  // objects on the first frame, which the page does not draw with (upload_font_texture above).
  ImGui_ImplGlfw_NewFrame();
  platform.app->before_new_frame();  // a finger's press waits until it shows what it means
  ImGui::NewFrame();
  platform.app->frame(dt);
  ImGui::Render();

  int width = 0, height = 0;
  glfwGetFramebufferSize(platform.window, &width, &height);
  const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  neuralpath::web::PixelRect changed =
      idle.damage.changed(*ImGui::GetDrawData(), width, height, ImGui::ColorConvertFloat4ToU32(background));
  const bool looked_different = !changed.empty();
  if (!platform.canvas_kept) changed = {0, 0, width, height};  // the browser cleared it
  if (looked_different)  // solid fills skip the font texture, unchanged tiles are not drawn (#10)
    platform.renderer.render(ImGui::GetDrawData(), changed, background);
  idle.after_frame(looked_different, platform.app->wants_another_frame());
  if (idle.engine_frames == 1) start_mark("first-frame");
  if (idle.frame_ms.size() < 100000) idle.frame_ms.push_back(emscripten_get_now() - frame_start);

  // Phones show their keyboard only for a focused DOM text field; tell the page when a text
  // field in the canvas gains or loses focus so it can stand one in (np-app.js).
  const bool wants_text = ImGui::GetIO().WantTextInput;
  if (wants_text != platform.wanted_text_input) {
    platform.wanted_text_input = wants_text;
    // clang-format off
    EM_ASM({ if (Module.onTextInput) Module.onTextInput($0 !== 0); }, wants_text);
    // clang-format on
  }
}

// The main loop's animation frame: the engine's frame, then the page hears that events may be
// waiting (np-app.js drains them then, instead of asking on every animation frame of its own).
// Events come from frames and from calls into the engine, and every call that changes something
// wakes the loop, so each is followed by at least one of these.
void animation_frame() {
  engine_frame();
  EM_ASM(if (Module.onAnimationFrame) Module.onAnimationFrame(););
}

// Nothing thrown in the engine reaches JS as a bare WebAssembly.Exception (the page then
// stopped with "[object WebAssembly.Exception]"): each export that returns text answers what
// went wrong as a refusal instead, and the engine goes on.
template <typename Call>
const char* guarded(Call call) {
  try {
    platform.reply = call();
  } catch (const std::exception& e) {
    platform.reply = nlohmann::json{{"ok", false}, {"error", e.what()}}.dump(-1, ' ', false,
                                                                             nlohmann::json::error_handler_t::replace);
  }
  return platform.reply.c_str();
}

}  // namespace

void neuralpath::web::wake_engine() { idle.wake(); }

// [SECTION] Exports to JS -----------------------------------------------------------------------
// Strings returned to JS stay valid until the next np_* call that returns a string.
extern "C" {

// The canvas's CSS size and the device pixel ratio; called on load and on every resize.
EMSCRIPTEN_KEEPALIVE void np_set_viewport(float css_width, float css_height, float pixel_scale) {
  if (!(pixel_scale > 0.25f && pixel_scale < 8.f)) pixel_scale = 1.f;
  platform.viewport = {css_width, css_height, pixel_scale};
  idle.redraw();
  platform.app->set_viewport(platform.viewport);
  glfwSetWindowSize(platform.window, static_cast<int>(std::lround(css_width * pixel_scale)),
                    static_cast<int>(std::lround(css_height * pixel_scale)));
}

EMSCRIPTEN_KEEPALIVE void np_set_theme(int dark) {
  platform.app->set_theme(dark ? neuralpath::ui::Theme::dark : neuralpath::ui::Theme::light);
  idle.wake();
}

// Strings from JS come through the heap, never the stack: Emscripten's ccall copies a 'string'
// argument onto the 4 MB stack, so a long lesson, sentence or stored record would overwrite
// memory. np-app.js encodes UTF-8 into a buffer from np_alloc, calls with (pointer, length),
// and frees it with np_free. np_alloc returns 0 when the heap cannot grow that far.
EMSCRIPTEN_KEEPALIVE void* np_alloc(std::size_t bytes) { return std::malloc(bytes + 1); }
EMSCRIPTEN_KEEPALIVE void np_free(void* buffer) { std::free(buffer); }

// The limits np-app.js checks first (with a message for the learner), read from np_limits;
// these are the engine's own guard. A lesson is capped as `neuralpath-cli check` caps a file.
using neuralpath::lesson::kMaxLessonBytes;
using neuralpath::ui::kMaxCommandBytes;

EMSCRIPTEN_KEEPALIVE const char* np_limits() {
  platform.reply = neuralpath::ui::page_limits_json();
  return platform.reply.c_str();
}

// 0: loaded (or its problems are shown in the error panel); 1: too large, nothing loaded.
// `checked_by_build`: np-app.js found the text's SHA-256 among those the site's build checked.
EMSCRIPTEN_KEEPALIVE int np_load_lesson(const char* id, const char* markdown, std::size_t length,
                                        int checked_by_build) {
  if (length > kMaxLessonBytes) return 1;
  // Never trains while it opens (a frame cannot wait): the site's build ships the weights.
  // Its widgets are built by np_build_widgets, a few per task (np-app.js), or by the first frame.
  platform.app->load_lesson(id, std::string_view(markdown, length),
                            {.train_weights = false, .widgets_later = true, .checked_by_build = checked_by_build != 0});
  platform.lesson_given = true;
  platform.frames_waited_for_widgets = 0;
  idle.wake();
  return 0;
}

// The font atlas for the viewport's pixel ratio, if it is not built yet: np-app.js calls this in
// a task of its own while the page opens, so the first frame only draws (else that frame builds it).
EMSCRIPTEN_KEEPALIVE void np_build_fonts() {
  if (platform.viewport.pixel_scale == platform.font_scale) return;
  rebuild_fonts(platform.viewport.pixel_scale);
  idle.damage.forget();
  start_mark("fonts-built");
}

// Builds up to `count` more of the loaded lesson's widgets (each computes its first numbers);
// returns how many are left.
EMSCRIPTEN_KEEPALIVE int np_build_widgets(int count) {
  idle.wake();
  return static_cast<int>(platform.app->build_widgets(static_cast<std::size_t>(std::max(count, 0))));
}

EMSCRIPTEN_KEEPALIVE const char* np_state() {
  return guarded([] { return platform.app->state_json(); });
}

// The lesson as plain data, for the page's accessible text version (np-mirror.js).
EMSCRIPTEN_KEEPALIVE const char* np_document() {
  return guarded([] { return platform.app->document_json(); });
}

// The text of the lesson loaded last, whoever handed it over (the page, or live authoring's
// np-author.js): np-train.js sends it with each train request, and the trainer worker builds the
// same model from it.
EMSCRIPTEN_KEEPALIVE const char* np_lesson_text() { return platform.app->lesson_text().c_str(); }

EMSCRIPTEN_KEEPALIVE const char* np_command(const char* json, std::size_t length) {
  idle.wake();
  return guarded(
      [&] { return platform.app->command(std::string_view(json, length)); });  // App refuses > kMaxCommandBytes
}

// Events since the last call, as a JSON array of objects.
EMSCRIPTEN_KEEPALIVE const char* np_take_events() {
  return guarded([] {
    std::string out = "[";
    for (const std::string& event : platform.app->take_events()) {
      if (out.size() > 1) out += ',';
      out += event;
    }
    return out + "]";
  });
}

// The words and numbers of the text version, from the engine's catalogue and formats
// (engine/ui/text_bridge.h), so the page never keeps its own copies. Every text argument comes
// through the heap as (pointer, byte length), as np_command's does: ccall's 'string' copies
// onto the 4 MB stack, and a million-character key or catalogue overwrote memory (#35).
EMSCRIPTEN_KEEPALIVE const char* np_text(const char* key, std::size_t key_length, const char* args_json,
                                         std::size_t args_length) {
  return guarded([&] {
    return neuralpath::ui::text_for_js(std::string_view(key, key_length), std::string_view(args_json, args_length));
  });
}
EMSCRIPTEN_KEEPALIVE const char* np_format(const char* kind, std::size_t kind_length, double value) {
  return guarded([&] { return neuralpath::format_value(std::string(kind, kind_length), value); });
}
EMSCRIPTEN_KEEPALIVE const char* np_use_language(const char* code, std::size_t code_length, const char* file_text,
                                                 std::size_t text_length) {
  idle.wake();  // the page's words change
  return guarded([&] {
    return neuralpath::ui::use_language_for_js(std::string_view(code, code_length),
                                               std::string_view(file_text, text_length));
  });
}

// Text typed on a phone's on-screen keyboard (through the page's stand-in text field),
// NUL-terminated in a heap buffer. Returns the characters left out because the page cannot
// draw them (empty when all were kept), for the page to say so.
EMSCRIPTEN_KEEPALIVE const char* np_text_input(const char* utf8) {
  std::string refused;
  std::string kept = drawable_text(utf8, refused);
  if (!kept.empty()) typed.push_back({std::move(kept)});
  idle.wake();
  platform.reply = refused;
  return platform.reply.c_str();
}

// One key from the page (web/shell/np-input.js), held for one frame in its turn (deliver_typing):
// the editing keys a text field takes (Backspace, Delete, Enter, Escape, ←, →, Home, End, or A
// with Control: select all) and, while no field has the keyboard, the keys that press the
// focused button and scroll the page (Space, ↑, ↓, Page Up, Page Down). mods: GLFW_MOD_CONTROL
// (2) and/or GLFW_MOD_SHIFT (1). Returns 0 for a key it does not take.
EMSCRIPTEN_KEEPALIVE int np_key_press(int glfw_key, int mods) {
  switch (glfw_key) {
    case GLFW_KEY_BACKSPACE:
    case GLFW_KEY_DELETE:
    case GLFW_KEY_ENTER:
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_HOME:
    case GLFW_KEY_END:
    case GLFW_KEY_SPACE:
    case GLFW_KEY_UP:
    case GLFW_KEY_DOWN:
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_PAGE_DOWN: break;
    case GLFW_KEY_A:
      if (mods & GLFW_MOD_CONTROL) break;
      return 0;
    default: return 0;
  }
  typed.push_back({{}, glfw_key, mods & (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT)});
  idle.wake();
  return 1;
}

// Keys and text still waiting for their frame, the one held down included: the page drops a
// held key's auto-repeat while the engine has not caught up, so a slow page does not go on
// scrolling after the key is let go.
EMSCRIPTEN_KEEPALIVE int np_keys_pending() { return static_cast<int>(typed.size()) + (held.key >= 0 ? 1 : 0); }

// WebGL context loss: stop drawing; on restore, recreate every GL object ImGui owned.
// A finger is about to press (np-input.js, just before its stand-in mousedown).
EMSCRIPTEN_KEEPALIVE void np_finger_down() {
  if (platform.app) platform.app->finger_down();
}
EMSCRIPTEN_KEEPALIVE void np_gl_context_lost() { platform.context_lost = true; }

// Engine frames run since the page started: a test's way to see that an idle page does no work.
EMSCRIPTEN_KEEPALIVE double np_engine_frames() { return static_cast<double>(idle.engine_frames); }
// The time each engine frame since the last call spent in engine_frame() (its own work: the ImGui
// frame, the App, drawing), in ms, as a JSON array: the bench's "no engine frame over 50 ms".
EMSCRIPTEN_KEEPALIVE const char* np_engine_frame_times() {
  nlohmann::json times = idle.frame_ms;
  idle.frame_ms.clear();
  platform.reply = times.dump();
  return platform.reply.c_str();
}
EMSCRIPTEN_KEEPALIVE void np_gl_context_restored() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplOpenGL3_Init("#version 300 es");
  platform.renderer.forget();
  font_texture = 0;         // its name went with the lost context: nothing to delete
  platform.font_scale = 0;  // forces the font texture upload on the next frame
  platform.context_lost = false;
  idle.redraw();
}

}  // extern "C"

// The canvas's WebGL2 context, asked for before GLFW's port asks for it: a canvas has one
// context, and getContext() returns that one whatever a later call asks for, so these are the
// attributes the page gets, including the one the port has no hint for. preserveDrawingBuffer:
// the canvas keeps what a frame does not draw again (canvas_damage.h). No alpha, depth or
// stencil: the page is opaque and flat, and the browser composites it as opaque.
// clang-format off
EM_JS(void, ask_for_context, (), {
  Module.canvas.getContext('webgl2', {alpha: false, depth: false, stencil: false, antialias: false,
                                      preserveDrawingBuffer: true});
});
// clang-format on
// Whether the context the page got keeps its drawing buffer between frames (a browser may refuse).
EM_JS(int, context_keeps_drawing, (), {
  const gl = Module.canvas.getContext('webgl2');
  const attributes = gl && gl.getContextAttributes();
  return attributes && attributes.preserveDrawingBuffer ? 1 : 0;
});

// The lessons take no gamepad, but GLFW's port listens for gamepads connecting, and while a page
// listens Chromium polls the gamepads on a thread of its own, 60 times a second, however idle the
// page (1% of a core here, half of what an idle lesson still cost).
// clang-format off
EM_JS(void, stop_listening_for_gamepads, (), {
  window.removeEventListener('gamepadconnected', GLFW.onGamepadConnected, true);
  window.removeEventListener('gamepaddisconnected', GLFW.onGamepadDisconnected, true);
});
// clang-format on

int main() {
  if (!glfwInit()) return 1;
  stop_listening_for_gamepads();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);  // WebGL2
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_ALPHA_BITS, 0);  // as ask_for_context asks
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  ask_for_context();
  platform.window = glfwCreateWindow(800, 600, "NeuralPath", nullptr, nullptr);
  if (!platform.window) {  // no WebGL2 context: the shell says so (np-app.js asks for none itself)
    EM_ASM(if (Module.onNoWebGL) Module.onNoWebGL(););
    return 1;
  }
  glfwMakeContextCurrent(platform.window);
  platform.canvas_kept = context_keeps_drawing() != 0;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // layout is ours; nothing to persist in imgui.ini
  static neuralpath::ui::App app;
  platform.app = &app;
  platform.viewport.pixel_scale = 1;
  wake_on_input(platform.window);  // before the backend, which chains to these
  ImGui_ImplGlfw_InitForOpenGL(platform.window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  ImGui::GetIO().SetClipboardTextFn = set_clipboard;  // after the GLFW backend set its own
  ImGui::GetIO().GetClipboardTextFn = get_clipboard;

  EM_ASM(if (Module.onEngineReady) Module.onEngineReady(););
  emscripten_set_main_loop(animation_frame, 0, false);
  return 0;
}
