// playback_view.cpp: the board's frame — how tall each part is, where it goes, the keyboard,
// and the layout record. The parts draw in board_view.cpp and playback_controls.cpp.
#include "playback_view.h"
#include "engine/ui/widgets/registry.h"

#include "board_paint.h"
#include "code_panel.h"
#include "engine/widgets/playback/playback_steps.h"

#include "engine/text/catalogue.h"

#include <imgui.h>

#include <algorithm>

namespace neuralpath::ui {

using nlohmann::json;
using namespace playback;
using namespace widgets::playback;

float PlaybackView::fill(const PlaybackModel& m) const {
  return reduced_motion_ ? 1.0f : m.controller().fill_progress();
}

json PlaybackView::css_rect(ImVec2 min, ImVec2 max) const {
  // [x, y, width, height] from the canvas's top left, as the page's own rectangles (app.cpp).
  return json::array({min.x / scale_, min.y / scale_, (max.x - min.x) / scale_, (max.y - min.y) / scale_});
}

void PlaybackView::handle_keys(Asked& asked) {
  ImGuiIO& io = ImGui::GetIO();
  if (!focused_ || io.WantTextInput) return;
  // With ImGui's keyboard navigation on and its cursor visible, space and arrows belong to it.
  if ((io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) && io.NavVisible) return;
  // A key the board used is marked as not pressed for the rest of the frame, so the page
  // (which reads keys after its blocks are drawn) does not also scroll on it.
  auto take = [&io](ImGuiKey key, bool repeat) {
    const int index = ImGui::GetKeyIndex(key);
    if (!ImGui::IsKeyPressed(index, repeat)) return false;
    io.KeysDownDuration[index] = -1.0f;
    return true;
  };
  if (take(ImGuiKey_Space, false)) asked.push_back(PlaybackModel::Toggle{});
  if (take(ImGuiKey_LeftArrow, true)) asked.push_back(PlaybackModel::StepBy{-1});
  if (take(ImGuiKey_RightArrow, true)) asked.push_back(PlaybackModel::StepBy{1});
}

void PlaybackView::draw(const UiContext& ui, const PlaybackModel& m, Asked& asked) {
  ImGui::PushID(this);
  drawn_.clear();
  layout_ = json::object();
  reduced_motion_ = ui.reduced_motion;
  scale_ = ui.scale > 0 ? ui.scale : 1;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const Painter p{ui, list, &drawn_};
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, p.px(200));
  const float pad = p.px(width < p.px(520) ? 10 : 16);
  const float inner = width - 2 * pad;
  list->ChannelsSplit(2);  // the card goes behind (channel 0) once its height is known
  list->ChannelsSetCurrent(1);

  ImVec2 at(origin.x + pad, origin.y + pad);
  const float gap = p.px(width < p.px(520) ? 8 : 12);
  if (m.trace()) {
    // The frame: every part's height is the same at every step, and the whole fits the screen
    // (the page's visible height, at most 900 CSS px when a host shows the page at full length).
    const Step* s = m.current_step();
    const lesson::CodeBlock* code = m.code();
    const bool side_by_side = code && inner >= p.px(900);  // wide: the code beside the stage
    const float code_w = side_by_side ? std::min(inner * 0.4f, p.px(560)) : inner;
    const float stage_w = side_by_side ? inner - code_w - gap : inner;
    const float screen = std::min(ImGui::GetWindowHeight(), p.px(900));
    const float flow_h = draw_flow(p, m, at, inner, asked);
    const float header_h = header_height(p, m, stage_w);
    const float caption_h = caption_height(p, m, inner);
    // The timeline's rows for a width (segments >= 24 px; the same at every step).
    const auto timeline_height = [&](float w) {
      const int fit = std::max(1, static_cast<int>(w / p.px(24)));
      const int rows = std::max(1, (m.controller().count() + fit - 1) / fit);
      return static_cast<float>(rows) * p.px(24) + static_cast<float>(rows - 1) * p.px(4);
    };
    const float transport_w = 4.3f * p.px(44) + 4 * p.px(6) + p.px(6);
    // Beside the buttons when it needs at most two rows there (a desk); under them on a phone.
    const bool timeline_beside = inner - transport_w > p.px(120) && timeline_height(inner - transport_w) <= p.px(52);
    const float timeline_w = timeline_beside ? inner - transport_w : inner;
    const float timeline_h = timeline_height(timeline_w);
    const float transport_h = timeline_beside ? std::max(p.px(40), timeline_h) : p.px(40);
    const float below = timeline_beside ? 0 : timeline_h + gap;
    // Everything in the frame but the stage: pads, flow, header, caption, transport, gaps.
    const float chrome =
        pad + flow_h + gap + header_h + p.px(6) + gap + caption_h + gap + transport_h + p.px(8) + p.px(12);
    const float natural = stage_natural_height(p, m, stage_w);
    const float stage_h = std::clamp(screen - chrome - below, std::min(p.px(160), natural), natural);
    at.y += flow_h + gap;

    const std::vector<int> lit = code && s ? code_lines_for(*code, s->kind) : std::vector<int>{};
    at.y += draw_header(p, m, at, stage_w, header_h) + p.px(6);
    const ImRect stage(at, ImVec2(at.x + stage_w, at.y + stage_h));
    draw_stage(p, m, stage, asked);
    layout_["stage"] = css_rect(stage.Min, stage.Max);
    if (side_by_side) {
      const CodeWindow window = code_window(*code, lit, 18);
      draw_code_panel(p, ImVec2(at.x + stage_w + gap, at.y - header_h - p.px(6)), code_w, *code, lit, window);
    }
    at.y += stage_h + gap;
    draw_caption(p, m, at, inner, caption_h);
    layout_["caption"] = css_rect(at, ImVec2(at.x + inner, at.y + caption_h));
    at.y += caption_h + gap;
    draw_transport(p, m, ImVec2(at.x, at.y + (transport_h - p.px(40)) * 0.5f), inner, asked);
    if (timeline_beside) {
      draw_timeline(p, m, ImVec2(at.x + transport_w, at.y + (transport_h - timeline_h) * 0.5f), timeline_w, asked);
      at.y += transport_h;
    } else {
      at.y += transport_h + gap;
      at.y += draw_timeline(p, m, at, inner, asked);
    }
    layout_["frame"] = css_rect(origin, ImVec2(origin.x + width, at.y + p.px(8)));
    at.y += gap + p.px(8);
    // Below the frame: choices that stay the same from step to step.
    at.y += draw_focus_picker(p, m, at, inner, asked) + gap;
    at.y += draw_speed_voice(p, m, at, inner, asked) + gap;
    if (code && !side_by_side) {
      const CodeWindow window = code_window(*code, lit, 10);
      draw_code_panel(p, at, code_w, *code, lit, window);
      at.y += code_panel_height(p, *code, window) + gap;
    }
    at.y += draw_heads(p, m, at, inner, asked) + gap;
  } else {
    const ImVec2 size =
        p.text(at, tr("playback.cannot_run", {{"error", m.error()}}), p.colors().bad, p.body(), 0, inner, false);
    at.y += size.y + gap;
  }
  at.y += draw_sentence_input(p, m, at, inner, asked) + pad;

  const ImVec2 end(origin.x + width, at.y);
  layout_["board"] = css_rect(origin, end);
  // The board has the keyboard from a click on it until a click elsewhere (outlined meanwhile).
  if (ImGui::IsMouseClicked(0))
    focused_ = ImGui::IsMouseHoveringRect(origin, end) &&
               ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem | ImGuiHoveredFlags_ChildWindows);
  list->ChannelsSetCurrent(0);
  list->AddRectFilled(origin, end, mix(ui.colors().page, ui.colors().panel, 0.5f), p.px(10));
  list->AddRect(origin, end, focused_ ? ui.colors().accent : ui.colors().border, p.px(10), 0,
                focused_ ? p.px(2) : p.px(1));
  list->ChannelsMerge();

  handle_keys(asked);
  explain_.draw_popup(ui, origin.y, end.y);
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, end.y - origin.y));
  ImGui::PopID();
}

const ViewKind& playback_view_kind() { return view_kind<PlaybackModel, PlaybackView>(); }

}  // namespace neuralpath::ui
