// playback_controls.cpp: the board's controls — transport buttons, the timeline to scrub, speed
// and voice, the head selector with each head's pattern, and the sentence field. Each click
// becomes one of the model's commands.
//
// [SECTION] Transport icons
// [SECTION] Transport row
// [SECTION] Timeline
// [SECTION] Speed and voice
// [SECTION] Heads
// [SECTION] Sentence
#include "board_paint.h"
#include "engine/widgets/playback/playback_steps.h"
#include "playback_view.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace neuralpath::ui {

using namespace playback;
using namespace widgets::playback;

namespace {

// [SECTION] Transport icons --------------------------------------------------------------------
// Drawn as shapes, not glyphs: the faces the page loads do not all carry the media symbols.

enum class Icon { restart, back, play, pause, next };

void draw_icon(const Painter& p, Icon icon, ImVec2 center, float r, ImU32 color) {
  ImDrawList* d = p.draw;
  auto triangle = [&](float cx, float dir) {  // dir +1 points right, -1 left
    d->AddTriangleFilled(ImVec2(cx - dir * r * 0.5f, center.y - r * 0.6f),
                         ImVec2(cx - dir * r * 0.5f, center.y + r * 0.6f), ImVec2(cx + dir * r * 0.55f, center.y),
                         color);
  };
  switch (icon) {
    case Icon::play: triangle(center.x + r * 0.1f, 1); break;
    case Icon::pause:
      d->AddRectFilled(ImVec2(center.x - r * 0.5f, center.y - r * 0.6f),
                       ImVec2(center.x - r * 0.15f, center.y + r * 0.6f), color);
      d->AddRectFilled(ImVec2(center.x + r * 0.15f, center.y - r * 0.6f),
                       ImVec2(center.x + r * 0.5f, center.y + r * 0.6f), color);
      break;
    case Icon::back:
      d->AddRectFilled(ImVec2(center.x - r * 0.6f, center.y - r * 0.6f),
                       ImVec2(center.x - r * 0.4f, center.y + r * 0.6f), color);
      triangle(center.x + r * 0.1f, -1);
      break;
    case Icon::next:
      triangle(center.x - r * 0.1f, 1);
      d->AddRectFilled(ImVec2(center.x + r * 0.4f, center.y - r * 0.6f),
                       ImVec2(center.x + r * 0.6f, center.y + r * 0.6f), color);
      break;
    case Icon::restart:
      d->PathArcTo(center, r * 0.55f, 0.6f, 5.6f, 16);
      d->PathStroke(color, 0, p.px(2));
      d->AddTriangleFilled(ImVec2(center.x + r * 0.75f, center.y - r * 0.05f),
                           ImVec2(center.x + r * 0.25f, center.y - r * 0.05f),
                           ImVec2(center.x + r * 0.5f, center.y + r * 0.4f), color);
      break;
  }
}

bool icon_button(const Painter& p, const char* id, const char* tip, Icon icon, ImVec2 at, ImVec2 size, bool primary) {
  ImGui::SetCursorScreenPos(at);
  const bool clicked = ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered(), held = ImGui::IsItemActive();
  const Palette& c = p.colors();
  const ImU32 fill = primary ? (held      ? mix(c.accent, c.text, 0.2f)
                                : hovered ? mix(c.accent, c.page, 0.15f)
                                          : c.accent)
                             : (held      ? mix(c.panel, c.accent, 0.35f)
                                : hovered ? mix(c.panel, c.accent, 0.18f)
                                          : c.panel);
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
  p.draw->AddRectFilled(at, at + size,
                        selected  ? c.accent
                        : hovered ? mix(c.panel, c.accent, 0.18f)
                                  : c.panel,
                        p.px(6));
  p.draw->AddRect(at, at + size, selected ? c.accent : c.border, p.px(6));
  p.centered(at, at + size, label, selected ? text_on(c.accent) : c.text, p.small(), 0);
  return clicked;
}

}  // namespace

// [SECTION] Transport row ----------------------------------------------------------------------

float PlaybackView::draw_transport(const Painter& p, const PlaybackModel& m, ImVec2 pos, float /*width*/,
                                   Asked& asked) {
  const ImVec2 button(p.px(44), p.px(40));
  const float gap = p.px(6);
  float x = pos.x;
  auto place = [&](const char* id, const char* key, Icon icon, float w, bool primary, PlaybackModel::Command command) {
    const ImVec2 at(x, pos.y), size(w, button.y);
    if (icon_button(p, id, tr(key).c_str(), icon, at, size, primary)) asked.push_back(std::move(command));
    layout_["controls"][id] = css_rect(at, at + size);
    x += w + gap;
  };
  place("restart", "playback.restart", Icon::restart, button.x, false, Restart{});
  place("back", "playback.back", Icon::back, button.x, false, PlaybackModel::StepBy{-1});
  const bool playing = m.controller().playing();
  place("play", playing ? "playback.pause" : "playback.play", playing ? Icon::pause : Icon::play, button.x * 1.3f, true,
        PlaybackModel::Toggle{});
  place("next", "playback.next", Icon::next, button.x, false, PlaybackModel::StepBy{1});
  return button.y;
}

// [SECTION] Timeline ---------------------------------------------------------------------------
// One segment per step, at least 24 px wide so a finger can pick one: as many rows as that takes.

namespace {
struct TimelineGrid {
  int per_row = 1, rows = 1;
  float seg_w = 0, seg_h = 0, row_gap = 0;
  float height() const { return static_cast<float>(rows) * seg_h + static_cast<float>(rows - 1) * row_gap; }
};
TimelineGrid timeline_grid(const Painter& p, int n, float width) {
  TimelineGrid g;
  const int fit = std::max(1, static_cast<int>(width / p.px(24)));
  g.rows = std::max(1, (n + fit - 1) / fit);
  g.per_row = std::max(1, (n + g.rows - 1) / g.rows);  // balanced rows
  g.seg_w = width / static_cast<float>(g.per_row);
  g.seg_h = p.px(24);
  g.row_gap = p.px(4);
  return g;
}
}  // namespace

float PlaybackView::draw_timeline(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked) {
  const int n = m.controller().count();
  if (n == 0) return 0;
  const Palette& c = p.colors();
  const Trace& trace = *m.trace();
  const TimelineGrid g = timeline_grid(p, n, width);
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton("timeline", ImVec2(width, g.height()));
  const ImVec2 mouse = ImGui::GetIO().MousePos - pos;
  const int row = std::clamp(static_cast<int>(mouse.y / (g.seg_h + g.row_gap)), 0, g.rows - 1);
  const int at_mouse =
      std::clamp(row * g.per_row + std::clamp(static_cast<int>(mouse.x / g.seg_w), 0, g.per_row - 1), 0, n - 1);
  if (ImGui::IsItemActive() && at_mouse != m.controller().index())
    asked.push_back(PlaybackModel::Seek{at_mouse});  // click or drag
  const std::vector<int>& steps = m.step_indices();
  if (ImGui::IsItemHovered()) {
    const Step& s = trace.steps[static_cast<std::size_t>(steps[static_cast<std::size_t>(at_mouse)])];
    ImGui::SetTooltip("%s", tr("playback.step_tip", {{"n", std::to_string(at_mouse + 1)}, {"title", s.title}}).c_str());
  }
  nlohmann::json segments = nlohmann::json::array();
  const int now = m.controller().index();
  for (int k = 0; k < n; ++k) {
    const Step& s = trace.steps[static_cast<std::size_t>(steps[static_cast<std::size_t>(k)])];
    const bool even_stage = static_cast<int>(stage_of(s.kind)) % 2 == 0;
    const ImVec2 cell(pos.x + g.seg_w * static_cast<float>(k % g.per_row),
                      pos.y + (g.seg_h + g.row_gap) * static_cast<float>(k / g.per_row));
    const ImVec2 a(cell.x + p.px(1), cell.y + p.px(6)), b(cell.x + g.seg_w - p.px(1), cell.y + g.seg_h - p.px(6));
    ImU32 color = even_stage ? c.border : mix(c.border, c.muted, 0.35f);
    if (k < now) color = mix(color, c.accent, 0.45f);
    if (k == now) color = c.accent;
    p.draw->AddRectFilled(a, b, color, p.px(2));
    segments.push_back(css_rect(cell, cell + ImVec2(g.seg_w, g.seg_h)));
  }
  layout_["segments"] = std::move(segments);
  // The playhead: how far the current step has played.
  const widgets::playback::PlaybackController& ctl = m.controller();
  const float within = ctl.playing() ? std::clamp(ctl.play_time() / std::max(ctl.duration(), 0.01f), 0.0f, 1.0f) : 0;
  const ImVec2 cell(pos.x + g.seg_w * static_cast<float>(now % g.per_row),
                    pos.y + (g.seg_h + g.row_gap) * static_cast<float>(now / g.per_row));
  const float head_x = cell.x + g.seg_w * within;
  p.draw->AddRectFilled(ImVec2(head_x - p.px(1.5f), cell.y + p.px(2)),
                        ImVec2(head_x + p.px(1.5f), cell.y + g.seg_h - p.px(2)), c.text, p.px(1));
  return g.height();
}

// [SECTION] Speed and voice --------------------------------------------------------------------

float PlaybackView::draw_speed_voice(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked) {
  const float button_h = p.px(36), gap = p.px(6);
  float x = pos.x, y = pos.y;
  // Speed: five fixed rates (a slider is hard to hit exactly on a phone).
  static constexpr float rates[] = {0.5f, 0.75f, 1.0f, 1.5f, 2.0f};
  const float rate_w = std::max(p.measure(p.small(), 0, "0.75×").x + p.px(12), p.px(40));
  const std::string speed = tr("playback.speed");
  p.text(ImVec2(x, y + (button_h - p.small_size()) * 0.5f), speed, p.colors().muted, p.small(), 0, 0, false);
  x += p.measure(p.small(), 0, speed).x + p.px(8);
  for (float rate : rates) {
    const std::string label = format_setting(rate) + "×";  // "0,75×" in Spanish
    if (x + rate_w > pos.x + width) {
      x = pos.x;
      y += button_h + gap;
    }
    if (text_button(p, label.c_str(), label, ImVec2(x, y), ImVec2(rate_w, button_h),
                    std::abs(m.controller().speed() - rate) < 0.01f))
      asked.push_back(PlaybackModel::Speed{rate});
    x += rate_w + p.px(2);
  }
  x += gap * 2;
  const bool voice = m.controller().voice();
  const std::string voice_label = tr(voice ? "playback.voice_on" : "playback.voice_off");
  const float voice_w = std::max(p.measure(p.small(), 0, tr("playback.voice_off")).x,
                                 p.measure(p.small(), 0, tr("playback.voice_on")).x) +
                        p.px(20);
  if (x + voice_w > pos.x + width) {
    x = pos.x;
    y += button_h + gap;
  }
  if (text_button(p, "voice", voice_label, ImVec2(x, y), ImVec2(voice_w, button_h), voice))
    asked.push_back(PlaybackModel::Voice{!voice});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.voice_tip").c_str());
  return y + button_h - pos.y;
}

// [SECTION] Heads ------------------------------------------------------------------------------

float PlaybackView::draw_heads(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked) {
  const Trace* trace = m.trace();
  if (!trace || trace->heads < 1) return 0;
  const Palette& c = p.colors();
  const int heads = trace->heads;
  const int t = static_cast<int>(trace->labels.size());
  // The title wraps: on a phone it is longer than the row (#15: the thumbnails covered it).
  const float title_h = p.text(pos, tr(heads > 1 ? "playback.heads_title" : "playback.pattern_title"), c.muted,
                               p.small(), 0, width, false)
                            .y;
  const float top = pos.y + title_h + p.px(8);
  const float cell = std::clamp(p.px(88) / static_cast<float>(t), p.px(3), p.px(18));
  const float box = cell * static_cast<float>(t);
  const float label_h = p.small_size() + p.px(4);
  const float gap = p.px(12);
  float x = pos.x, y = top;
  for (int h = 0; h < heads; ++h) {
    if (x > pos.x && x + box > pos.x + width) {
      x = pos.x;
      y += box + label_h + gap;
    }
    const Matrix w = trace->weights(h);
    for (int i = 0; i < t; ++i)
      for (int j = 0; j < t; ++j) {
        const ImVec2 a(x + cell * j, y + cell * i);
        const bool hidden = trace->mask.hides(i, j);
        p.draw->AddRectFilled(a, a + ImVec2(cell, cell), hidden ? c.masked : heat_color(p.ui.theme, w(i, j)));
      }
    const bool selected = h == m.head();
    p.draw->AddRect(ImVec2(x - p.px(2), y - p.px(2)), ImVec2(x + box + p.px(2), y + box + p.px(2)),
                    selected ? c.accent : c.border, p.px(3), 0, selected ? p.px(2.5f) : p.px(1));
    const std::string label = tr("widgets.head", {{"n", std::to_string(h + 1)}});
    p.text(ImVec2(x, y + box + p.px(4)), label, selected ? c.accent : c.text, selected ? p.bold() : p.small(),
           p.small_size(), 0, false);
    ImGui::SetCursorScreenPos(ImVec2(x - p.px(2), y - p.px(2)));
    ImGui::PushID(h);
    if (ImGui::InvisibleButton("head", ImVec2(box + p.px(4), box + label_h + p.px(4))))
      asked.push_back(PlaybackModel::Head{h});
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", tr("playback.show_head", {{"n", std::to_string(h + 1)}}).c_str());
    ImGui::PopID();
    x += std::max(box, p.measure(p.small(), 0, label).x) + gap;
  }
  return y + box + label_h - pos.y;
}

// [SECTION] Sentence ---------------------------------------------------------------------------

// "Follow: [AI] [Agents] [Build] [Future]": the word the captions speak about (#15).
float PlaybackView::draw_focus_picker(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked) {
  const Trace* trace = m.trace();
  if (!trace) return 0;
  const Palette& c = p.colors();
  const std::vector<std::string>& words = trace->labels;
  const int chosen = trace->focus_token;
  const float h = std::max(ImGui::GetFrameHeight(), p.px(32)), gap = p.px(4);
  const std::string label = tr("playback.follow");
  p.text(ImVec2(pos.x, pos.y + (h - p.small_size()) * 0.5f), label, c.muted, p.small(), 0, 0, false);
  float x = pos.x + p.measure(p.small(), 0, label).x + p.px(8), y = pos.y;
  for (int t = 0; t < static_cast<int>(words.size()); ++t) {
    const float w = p.measure(p.body(), 0, words[static_cast<std::size_t>(t)]).x + p.px(16);
    if (x + w > pos.x + width && x > pos.x) {
      x = pos.x;
      y += h + gap;
    }
    ImGui::SetCursorScreenPos(ImVec2(x, y));
    ImGui::PushID(t);
    if (t == chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(ImGuiCol_ButtonActive));
    if (ImGui::Button((words[static_cast<std::size_t>(t)] + "##follow").c_str(), ImVec2(w, h)))
      asked.push_back(PlaybackModel::Focus{t});
    if (t == chosen) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "%s", tr("playback.follow_tip", {{"token", quote_token(words[static_cast<std::size_t>(t)])}}).c_str());
    ImGui::PopID();
    x += w + gap;
  }
  return y + h - pos.y;
}

// The next-token step's temperature: the bars and the caption follow the slider live.
float PlaybackView::draw_temperature(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked) {
  const Trace* trace = m.trace();
  if (!trace) return 0;
  const Palette& c = p.colors();
  const float h = ImGui::GetFrameHeight();
  const std::string label = tr("playback.temperature");
  p.text(ImVec2(pos.x, pos.y + (h - p.small_size()) * 0.5f), label, c.muted, p.small(), 0, 0, false);
  float x = pos.x + p.measure(p.small(), 0, label).x + p.px(8);
  float tau = trace->next.temperature;
  // The value beside the slider, not inside it, where the grab covered its digits at τ = 1
  // (the middle of the track); as format_number prints it ("τ = 1,00" in Spanish).
  const std::string shown = "τ = " + format_number(tau);
  p.text(ImVec2(x, pos.y + (h - p.small_size()) * 0.5f), shown, c.text, p.small(), 0, 0, false);
  x += p.measure(p.small(), 0, "τ = 0.00").x + p.px(8);  // the widest value, so the track never moves
  ImGui::SetCursorScreenPos(ImVec2(x, pos.y));
  ImGui::SetNextItemWidth(std::max(p.px(80), std::min(pos.x + width - x, p.px(320))));
  if (ImGui::SliderFloat("##temperature", &tau, kMinTemperature, kMaxTemperature, "",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    asked.push_back(PlaybackModel::Temperature{tau});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.temperature_tip").c_str());
  return h;
}

float PlaybackView::draw_sentence_input(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width,
                                        Asked& asked) {
  const Palette& c = p.colors();
  // The field shows the model's field whenever it changes (a command, a shared link, a refused
  // sentence); what the learner types goes back as a draft, so a shared link carries it.
  const std::string& shown = m.field();
  if (input_for_ != shown) {
    input_for_ = shown;
    kit::fill_field(input_, sizeof input_, input_for_);
  }
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
  if (ImGui::IsItemEdited()) {
    input_for_ = input_;
    asked.push_back(PlaybackModel::Draft{input_});
  }
  const float field_h = ImGui::GetItemRectSize().y;
  layout_["sentence"] = css_rect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  layout_["field"] = input_;  // what the field holds (a test compares it with the message under it)
  ImGui::SetCursorScreenPos(ImVec2(field_x + field_w + p.px(6), y));
  run |= ImGui::Button((run_label + "##run").c_str(), ImVec2(run_w, field_h));
  if (run) asked.push_back(SetSentence{input_});
  y += field_h;
  if (!m.error().empty() && m.trace()) {
    y += p.px(4);
    y += p.text(ImVec2(pos.x, y), m.error(), c.bad, p.small(), 0, width, false).y;
  }
  return y - pos.y;
}

}  // namespace neuralpath::ui
