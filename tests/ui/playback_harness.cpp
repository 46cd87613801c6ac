#include "playback_harness.h"

#include "engine/core/model.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

#include <imgui_internal.h>

#include <regex>

namespace playback_test {

using namespace neuralpath;

Headless::Headless(float width, float height, float scale) {
  context_ = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(width, height);
  // GLFW's key codes, as the web backend maps them.
  io.KeyMap[ImGuiKey_Space] = 32;
  io.KeyMap[ImGuiKey_LeftArrow] = 263;
  io.KeyMap[ImGuiKey_RightArrow] = 262;
  io.KeyMap[ImGuiKey_Enter] = 257;
  io.KeyMap[ImGuiKey_Backspace] = 259;
  ui::load_fonts("/usr/share/fonts/truetype/dejavu", scale, fonts_, font_error);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
  ui::apply_imgui_style(ui::Theme::light);
  ImGui::GetStyle().ScaleAllSizes(scale);
  ui.fonts = &fonts_;
  ui.scale = scale;
}

Headless::~Headless() { ImGui::DestroyContext(context_); }

void Headless::resize(float width, float height) { ImGui::GetIO().DisplaySize = ImVec2(width, height); }

void Headless::press(ImGuiKey key) { keys_.push_back(ImGui::GetIO().KeyMap[key]); }

void Headless::click(ImVec2 at) {
  click_at_ = at;
  click_frames_ = 2;
}

bool Headless::frame(const std::function<void(const ui::UiContext&)>& body, float dt) {
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = dt;
  for (bool& down : io.KeysDown) down = false;
  for (int key : keys_) io.KeysDown[key] = true;
  keys_.clear();
  if (click_frames_ > 0) {
    io.MousePos = click_at_;
    io.MouseDown[0] = click_frames_ == 2;
    --click_frames_;
  } else {
    io.MouseDown[0] = false;
  }
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("page", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
  const ImGuiContext& g = *GImGui;
  const ImGuiWindow* window = g.CurrentWindow;
  const int windows = g.CurrentWindowStack.Size, ids = window->IDStack.Size, colors = g.ColorStack.Size,
            vars = g.StyleVarStack.Size, fonts = g.FontStack.Size, channels = window->DrawList->_Splitter._Current;
  body(ui);
  const bool balanced = g.CurrentWindow == window && g.CurrentWindowStack.Size == windows &&
                        window->IDStack.Size == ids && g.ColorStack.Size == colors && g.StyleVarStack.Size == vars &&
                        g.FontStack.Size == fonts && window->DrawList->_Splitter._Current == channels &&
                        window->DrawList->_Splitter._Count <= 1;
  ImGui::End();
  ImGui::Render();
  return balanced;
}

widgets::PlaybackSettings example_playback() {
  widgets::PlaybackSettings p;
  p.sentence = "AI Agents Build Future";
  p.heads = 0;  // as the model says (the parser's default)
  p.causal = true;
  p.steps = lesson::playback_steps();
  p.code = "sdpa";
  return p;
}

lesson::Lesson example_lesson() {
  lesson::Lesson lesson;
  lesson.id = "course-playback-test";
  lesson.title = "Course playback";
  lesson::CodeBlock code;
  code.language = "python";
  code.file = "attention.py";
  for (const char* line : {"def scaled_dot_product_attention(Q, K, V, mask=None):", "    d_k = Q.size(-1)",
                           "    scores = torch.matmul(Q, K.transpose(-2, -1)) / (d_k ** 0.5)",
                           "    if mask is not None:", "        scores = scores.masked_fill(mask == 0, -1e9)",
                           "    attn_weights = F.softmax(scores, dim=-1)", "    output = torch.matmul(attn_weights, V)",
                           "    return output, attn_weights"})
    code.lines.push_back({line, {}});
  code.steps = {{"scores", {3}}, {"scale", {2, 3}}, {"mask", {4, 5}}, {"softmax", {6}}, {"blend", {7}}};
  lesson::Section section;
  section.title = "Playback";
  section.anchor = "playback";
  section.blocks.push_back({{}, "sdpa", code});
  lesson::WidgetBlock board;
  board.kind = "playback";
  board.settings = std::make_shared<widgets::PlaybackSettings>(example_playback());
  section.blocks.push_back({{}, "board", std::move(board)});
  lesson.sections.push_back(std::move(section));
  return lesson;
}

std::unique_ptr<ui::PlaybackWidget> example_board(const std::string& sentence) {
  widgets::PlaybackSettings p = example_playback();
  p.sentence = sentence;
  return std::make_unique<ui::PlaybackWidget>(widgets::PlaybackModel(p, example_lesson(), default_model_spec()));
}

std::vector<std::string> numbers_in(const std::string& text) {
  // A decimal with the display's two places, a percentage, or minus infinity; integers such
  // as "head 1" or "4 tokens" are counts and labels, not computed values.
  // "1.25 − 0.82" (a subtraction) speaks the value -0.82.
  static const std::regex number(R"(((− )?-?\d+\.\d+%?)|(-?∞))");
  static const std::string minus = "− ";
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    const std::string n = it->str();
    out.push_back(n.rfind(minus, 0) == 0 ? "-" + n.substr(minus.size()) : n);
  }
  return out;
}

LessonBoard course_board(const std::string& file) {
  LessonBoard out;
  lesson::LoadResult loaded = lesson::load_lesson_file(file, widgets::with_widgets());
  REQUIRE_MESSAGE(loaded.ok(), (loaded.diagnostics.empty() ? "" : loaded.diagnostics.front().to_string()));
  out.lesson = std::move(*loaded.lesson);
  lesson::for_each_block(out.lesson, [&](const lesson::Block& block) {
    if (!out.widget && lesson::widget_settings<widgets::PlaybackSettings>(block))
      out.widget = ui::make_widget(block, out.lesson, lesson::model_spec_for(out.lesson));
  });
  REQUIRE(out.widget != nullptr);
  out.board = dynamic_cast<ui::PlaybackWidget*>(out.widget.get());
  REQUIRE(out.board != nullptr);
  return out;
}

}  // namespace playback_test
