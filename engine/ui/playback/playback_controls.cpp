// playback_controls.cpp: the board's controls — transport buttons, speed, voice, the timeline
// to scrub, the head selector with each head's pattern, and the sentence field.
//
// [SECTION] Transport icons
// [SECTION] Controls row
// [SECTION] Timeline
// [SECTION] Heads
// [SECTION] Sentence
#include "board_paint.h"
#include "playback_steps.h"
#include "playback_widget.h"

#include "engine/core/catalogue.h"
#include "engine/core/format.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace neuralpath::ui {

using namespace playback;

namespace {

// [SECTION] Transport icons --------------------------------------------------------------------
// Drawn as shapes, not glyphs: the faces the page loads do not all carry the media symbols.

enum class Icon { restart, back, play, pause, next };

void draw_icon(const Painter& p, Icon icon, ImVec2 center, float r, ImU32 color) {
  ImDrawList* d = p.draw;
  auto triangle = [&](float cx, float dir) {  // dir +1 points right, -1 left
    d->AddTriangleFilled(ImVec2(cx - dir * r * 0.5f, center.y - r * 0.6f), ImVec2(cx - dir * r * 0.5f, center.y + r * 0.6f),
                         ImVec2(cx + dir * r * 0.55f, center.y), color);
  };
  switch (icon) {
    case Icon::play: triangle(center.x + r * 0.1f, 1); break;
    case Icon::pause:
      d->AddRectFilled(ImVec2(center.x - r * 0.5f, center.y - r * 0.6f), ImVec2(center.x - r * 0.15f, center.y + r * 0.6f), color);
      d->AddRectFilled(ImVec2(center.x + r * 0.15f, center.y - r * 0.6f), ImVec2(center.x + r * 0.5f, center.y + r * 0.6f), color);
      break;
    case Icon::back:
      d->AddRectFilled(ImVec2(center.x - r * 0.6f, center.y - r * 0.6f), ImVec2(center.x - r * 0.4f, center.y + r * 0.6f), color);
      triangle(center.x + r * 0.1f, -1);
      break;
    case Icon::next:
      triangle(center.x - r * 0.1f, 1);
      d->AddRectFilled(ImVec2(center.x + r * 0.4f, center.y - r * 0.6f), ImVec2(center.x + r * 0.6f, center.y + r * 0.6f), color);
      break;
    case Icon::restart:
      d->PathArcTo(center, r * 0.55f, 0.6f, 5.6f, 16);
      d->PathStroke(color, 0, p.px(2));
      d->AddTriangleFilled(ImVec2(center.x + r * 0.75f, center.y - r * 0.05f), ImVec2(center.x + r * 0.25f, center.y - r * 0.05f),
                           ImVec2(center.x + r * 0.5f, center.y + r * 0.4f), color);
      break;
  }
}

bool icon_button(const Painter& p, const char* id, const char* tip, Icon icon, ImVec2 at, ImVec2 size, bool primary) {
  ImGui::SetCursorScreenPos(at);
  const bool clicked = ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered(), held = ImGui::IsItemActive();
  const Palette& c = p.colors();
  const ImU32 fill = primary ? (held ? mix(c.accent, c.text, 0.2f) : hovered ? mix(c.accent, c.page, 0.15f) : c.accent)
                             : (held ? mix(c.panel, c.accent, 0.35f) : hovered ? mix(c.panel, c.accent, 0.18f) : c.panel);
  p.draw->AddRectFilled(at, at + size, fill, p.px(6));
  p.draw->AddRect(at, at + size, primary ? c.accent : c.border, p.px(6));
  draw_icon(p, icon, at + size * 0.5f, size.y * 0.32f, primary ? text_on(c.accent) : c.text);
  if (hovered) ImGui::SetTooltip("%s", tip);
  return clicked;
}

bool text_button(const Painter& p, const char* id, const std::string& label, ImVec2 at, ImVec2 size, bool selected) {
  ImGui::SetCursorScreenPos(at);
  const bool clicked = ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  const Palette& c = p.colors();
  p.draw->AddRectFilled(at, at + size, selected ? c.accent : hovered ? mix(c.panel, c.accent, 0.18f) : c.panel, p.px(6));
  p.draw->AddRect(at, at + size, selected ? c.accent : c.border, p.px(6));
  p.centered(at, at + size, label, selected ? text_on(c.accent) : c.text, p.small(), 0);
  return clicked;
}

}  // namespace

// [SECTION] Controls row -----------------------------------------------------------------------

float PlaybackWidget::draw_controls(const Painter& p, ImVec2 pos, float width) {
  const ImVec2 button(p.px(42), p.px(36));
  const float gap = p.px(6);
  float x = pos.x, y = pos.y;
  const int before = controller_.index();
  if (icon_button(p, "restart", tr("playback.restart").c_str(), Icon::restart, ImVec2(x, y), button, false)) controller_.restart();
  x += button.x + gap;
  if (icon_button(p, "back", tr("playback.back").c_str(), Icon::back, ImVec2(x, y), button, false)) controller_.step(-1);
  x += button.x + gap;
  const bool playing = controller_.playing();
  if (icon_button(p, "play", tr(playing ? "playback.pause" : "playback.play").c_str(), playing ? Icon::pause : Icon::play,
                  ImVec2(x, y), ImVec2(button.x * 1.3f, button.y), true))
    controller_.toggle();
  x += button.x * 1.3f + gap;
  if (icon_button(p, "next", tr("playback.next").c_str(), Icon::next, ImVec2(x, y), button, false)) controller_.step(1);
  x += button.x + gap * 3;
  if (controller_.index() != before)
    if (const Step* s = current_step(); s && s->head >= 0) head_ = s->head;

  // Speed: five fixed rates (a slider is hard to hit exactly on a phone).
  static constexpr float rates[] = {0.5f, 0.75f, 1.0f, 1.5f, 2.0f};
  const float rate_w = p.measure(p.small(), 0, "0.75×").x + p.px(12);
  const std::string speed = tr("playback.speed");
  const float speed_w = p.measure(p.small(), 0, speed).x + p.px(8) + 5 * (rate_w + p.px(2));
  if (x + speed_w > pos.x + width) { x = pos.x; y += button.y + gap; }
  p.text(ImVec2(x, y + (button.y - p.small_size()) * 0.5f), speed, p.colors().muted, p.small(), 0, 0, false);
  x += p.measure(p.small(), 0, speed).x + p.px(8);
  for (float rate : rates) {
    char label[16];
    std::snprintf(label, sizeof label, "%g×", static_cast<double>(rate));
    if (text_button(p, label, label, ImVec2(x, y), ImVec2(rate_w, button.y), std::abs(controller_.speed() - rate) < 0.01f))
      controller_.set_speed(rate);
    x += rate_w + p.px(2);
  }
  x += gap * 2;

  const std::string voice_label = tr(controller_.voice() ? "playback.voice_on" : "playback.voice_off");
  const float voice_w = std::max(p.measure(p.small(), 0, tr("playback.voice_off")).x,
                                 p.measure(p.small(), 0, tr("playback.voice_on")).x) + p.px(20);
  if (x + voice_w > pos.x + width) { x = pos.x; y += button.y + gap; }
  if (text_button(p, "voice", voice_label, ImVec2(x, y), ImVec2(voice_w, button.y), controller_.voice()))
    controller_.set_voice(!controller_.voice());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.voice_tip").c_str());
  return y + button.y - pos.y;
}

// [SECTION] Timeline ---------------------------------------------------------------------------

float PlaybackWidget::draw_timeline(const Painter& p, ImVec2 pos, float width) {
  const int n = controller_.count();
  if (n == 0) return 0;
  const Palette& c = p.colors();
  const float h = p.px(20), seg = width / static_cast<float>(n);
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton("timeline", ImVec2(width, h));
  const int at_mouse = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - pos.x) / seg), 0, n - 1);
  if (ImGui::IsItemActive() && at_mouse != controller_.index()) {  // click or drag to scrub
    controller_.seek(at_mouse);
    if (const Step* s = current_step(); s && s->head >= 0) head_ = s->head;
  }
  if (ImGui::IsItemHovered() && !steps_.empty()) {
    const Step& s = trace_->steps[static_cast<std::size_t>(steps_[static_cast<std::size_t>(at_mouse)])];
    ImGui::SetTooltip("%s", tr("playback.step_tip", {{"n", std::to_string(at_mouse + 1)}, {"title", s.title}}).c_str());
  }
  for (int k = 0; k < n; ++k) {
    const Step& s = trace_->steps[static_cast<std::size_t>(steps_[static_cast<std::size_t>(k)])];
    const bool even_stage = static_cast<int>(stage_of(s.kind)) % 2 == 0;
    const ImVec2 a(pos.x + seg * k + (seg > p.px(4) ? p.px(1) : 0), pos.y + p.px(4));
    const ImVec2 b(pos.x + seg * (k + 1), pos.y + h - p.px(4));
    ImU32 color = even_stage ? c.border : mix(c.border, c.muted, 0.35f);
    if (k < controller_.index()) color = mix(color, c.accent, 0.45f);
    if (k == controller_.index()) color = c.accent;
    p.draw->AddRectFilled(a, b, color, p.px(2));
  }
  // The playhead: how far the current step has played.
  const float within = controller_.playing() ? std::clamp(controller_.play_time() / std::max(controller_.duration(), 0.01f), 0.0f, 1.0f) : 0;
  const float head_x = pos.x + seg * (static_cast<float>(controller_.index()) + within);
  p.draw->AddRectFilled(ImVec2(head_x - p.px(1.5f), pos.y), ImVec2(head_x + p.px(1.5f), pos.y + h), c.text, p.px(1));
  return h;
}

// [SECTION] Heads ------------------------------------------------------------------------------

float PlaybackWidget::draw_heads(const Painter& p, ImVec2 pos, float width) {
  if (!trace_ || trace_->heads < 1) return 0;
  const Palette& c = p.colors();
  const int heads = trace_->heads;
  const int t = static_cast<int>(trace_->labels.size());
  p.text(pos, tr(heads > 1 ? "playback.heads_title" : "playback.pattern_title"),
         c.muted, p.small(), 0, width, false);
  const float top = pos.y + p.small_size() + p.px(6);
  const float cell = std::clamp(p.px(88) / static_cast<float>(t), p.px(3), p.px(18));
  const float box = cell * static_cast<float>(t);
  const float label_h = p.small_size() + p.px(4);
  const float gap = p.px(12);
  float x = pos.x, y = top;
  for (int h = 0; h < heads; ++h) {
    if (x > pos.x && x + box > pos.x + width) { x = pos.x; y += box + label_h + gap; }
    const Matrix w = trace_->weights(h);
    for (int i = 0; i < t; ++i)
      for (int j = 0; j < t; ++j) {
        const ImVec2 a(x + cell * j, y + cell * i);
        const bool hidden = trace_->mask.hides(i, j);
        p.draw->AddRectFilled(a, a + ImVec2(cell, cell), hidden ? c.masked : heat_color(p.ui.theme, w(i, j)));
      }
    const bool selected = h == head_;
    p.draw->AddRect(ImVec2(x - p.px(2), y - p.px(2)), ImVec2(x + box + p.px(2), y + box + p.px(2)),
                    selected ? c.accent : c.border, p.px(3), 0, selected ? p.px(2.5f) : p.px(1));
    const std::string label = tr("widgets.head", {{"n", std::to_string(h + 1)}});
    p.text(ImVec2(x, y + box + p.px(4)), label, selected ? c.accent : c.text, selected ? p.bold() : p.small(),
           p.small_size(), 0, false);
    ImGui::SetCursorScreenPos(ImVec2(x - p.px(2), y - p.px(2)));
    ImGui::PushID(h);
    if (ImGui::InvisibleButton("head", ImVec2(box + p.px(4), box + label_h + p.px(4)))) select_head(h);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.show_head", {{"n", std::to_string(h + 1)}}).c_str());
    ImGui::PopID();
    x += std::max(box, p.measure(p.small(), 0, label).x) + gap;
  }
  return y + box + label_h - pos.y;
}

// [SECTION] Sentence ---------------------------------------------------------------------------

// "Follow: [AI] [Agents] [Build] [Future]": the word the captions speak about (#15).
float PlaybackWidget::draw_focus_picker(const Painter& p, ImVec2 pos, float width) {
  if (!trace_) return 0;
  const Palette& c = p.colors();
  const std::vector<std::string> words = trace_->labels;  // copied: a click re-runs the block
  const int chosen = trace_->focus_token;
  const float h = ImGui::GetFrameHeight(), gap = p.px(4);
  const std::string label = tr("playback.follow");
  p.text(ImVec2(pos.x, pos.y + (h - p.small_size()) * 0.5f), label, c.muted, p.small(), 0, 0, false);
  float x = pos.x + p.measure(p.small(), 0, label).x + p.px(8), y = pos.y;
  for (int t = 0; t < static_cast<int>(words.size()); ++t) {
    const float w = p.measure(p.body(), 0, words[static_cast<std::size_t>(t)]).x + p.px(16);
    if (x + w > pos.x + width && x > pos.x) { x = pos.x; y += h + gap; }
    ImGui::SetCursorScreenPos(ImVec2(x, y));
    ImGui::PushID(t);
    if (t == chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(ImGuiCol_ButtonActive));
    if (ImGui::Button((words[static_cast<std::size_t>(t)] + "##follow").c_str(), ImVec2(w, h))) set_focus(t);
    if (t == chosen) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", tr("playback.follow_tip", {{"token", quote_token(words[static_cast<std::size_t>(t)])}}).c_str());
    ImGui::PopID();
    x += w + gap;
  }
  return y + h - pos.y;
}

// The next-token step's temperature: the bars and the caption follow the slider live.
float PlaybackWidget::draw_temperature(const Painter& p, ImVec2 pos, float width) {
  if (!trace_) return 0;
  const Palette& c = p.colors();
  const float h = ImGui::GetFrameHeight();
  const std::string label = tr("playback.temperature");
  p.text(ImVec2(pos.x, pos.y + (h - p.small_size()) * 0.5f), label, c.muted, p.small(), 0, 0, false);
  const float x = pos.x + p.measure(p.small(), 0, label).x + p.px(8);
  ImGui::SetCursorScreenPos(ImVec2(x, pos.y));
  ImGui::SetNextItemWidth(std::min(pos.x + width - x, p.px(320)));
  float tau = trace_->next.temperature;
  if (ImGui::SliderFloat("##temperature", &tau, kMinTemperature, kMaxTemperature, "τ = %.2f",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    set_temperature(tau);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.temperature_tip").c_str());
  return h;
}

float PlaybackWidget::draw_sentence_input(const Painter& p, ImVec2 pos, float width) {
  const Palette& c = p.colors();
  const std::string label = tr("playback.your_sentence");
  const std::string run_label = tr("playback.run");
  const float label_w = p.measure(p.small(), 0, label).x + p.px(8);
  const float run_w = p.measure(p.body(), 0, run_label).x + p.px(28);
  const bool stacked = width < p.px(420);
  float y = pos.y;
  p.text(ImVec2(pos.x, y + (stacked ? 0 : p.px(6))), label, c.muted, p.small(), 0, 0, false);
  if (stacked) y += p.small_size() + p.px(4);
  const float field_x = stacked ? pos.x : pos.x + label_w;
  const float field_w = std::max(pos.x + width - field_x - run_w - p.px(6), p.px(80));
  ImGui::SetCursorScreenPos(ImVec2(field_x, y));
  ImGui::SetNextItemWidth(field_w);
  bool run = ImGui::InputText("##sentence", input_, sizeof input_, ImGuiInputTextFlags_EnterReturnsTrue);
  const float field_h = ImGui::GetItemRectSize().y;
  ImGui::SetCursorScreenPos(ImVec2(field_x + field_w + p.px(6), y));
  run |= ImGui::Button((run_label + "##run").c_str(), ImVec2(run_w, field_h));
  if (run) set_sentence(input_);
  y += field_h;
  if (!error_.empty() && trace_) {
    y += p.px(4);
    y += p.text(ImVec2(pos.x, y), error_, c.bad, p.small(), 0, width, false).y;
  }
  return y - pos.y;
}

}  // namespace neuralpath::ui
