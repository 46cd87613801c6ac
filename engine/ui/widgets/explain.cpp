// explain.cpp: numbers as focusable items and the popup that explains them (see explain.h).
#include "engine/ui/widgets/explain.h"

#include "engine/text/catalogue.h"
#include "engine/ui/widgets/kit.h"

#include <algorithm>
#include <cfloat>
#include <cstdio>

namespace neuralpath::ui {

namespace {

// A formula breaks between its parts ("w = ... ,   s = q·k / √d_k": three spaces apart), never
// inside one that fits a line, so "s" is never left at a line's end with "= q·k" on the next
// (#34). A part that fits is held together by no-break spaces, which Dear ImGui's wrap treats
// as letters; a part wider than the line still wraps at its spaces.
std::string formula_lines(const UiContext& ui, const std::string& formula, float width) {
  ImFont* mono = kit::font(ui, kit::Face::mono);
  std::string out;
  std::size_t at = 0;
  while (at <= formula.size()) {
    const std::size_t gap = std::min(formula.find("   ", at), formula.size());
    std::string part = formula.substr(at, gap - at);
    if (kit::text_size(mono, part).x <= width) {
      std::string held;
      for (const char ch : part) held += ch == ' ' ? std::string("\xC2\xA0") : std::string(1, ch);  // U+00A0
      part = std::move(held);
    }
    out += part;
    if (gap >= formula.size()) break;
    const std::size_t next = formula.find_first_not_of(' ', gap);
    out += formula.substr(gap, (next == std::string::npos ? formula.size() : next) - gap);
    at = next == std::string::npos ? formula.size() + 1 : next;
  }
  return out;
}

// Begins the explanation's window, a popup or a sheet, framed as a panel with the accent border:
// one window per Explainer `owner` (a window's name is global in Dear ImGui, not under the ID stack).
void begin_panel(const UiContext& ui, const char* shape, const void* owner, ImGuiWindowFlags extra) {
  const Palette& c = ui.colors();
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(14), ui.px(12)));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, ui.px(8));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, ui.px(1));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, c.panel);
  ImGui::PushStyleColor(ImGuiCol_Border, c.accent);
  char name[48];
  std::snprintf(name, sizeof name, "##explain-%s-%p", shape, owner);
  ImGui::Begin(name, nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoFocusOnAppearing | extra);
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar(3);
}

}  // namespace

bool Explainer::activated() {
  // Space activates a focused item in Dear ImGui 1.86; Enter does not, so we read it here.
  return ImGui::IsItemFocused() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
                                    ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false));
}

bool Explainer::number(const UiContext& ui, const char* id, const std::string& text, const Make& make,
                       const NumberStyle& style) {
  ImFont* face = kit::font(ui, style.bold    ? kit::Face::bold
                               : style.mono  ? kit::Face::mono
                               : style.small ? kit::Face::small
                                             : kit::Face::body);
  const ImVec2 size = kit::text_size(face, text);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const bool pressed = ImGui::InvisibleButton(id, ImVec2(std::max(size.x, 1.0f), size.y));
  if (pressed || activated()) {
    open(make());
    opened_at_item();
  }
  const bool hovered = ImGui::IsItemHovered();
  const bool focused = ImGui::IsItemFocused();
  const Palette& c = ui.colors();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 max(pos.x + size.x, pos.y + size.y);
  if (hovered) draw->AddRectFilled(pos, max, kit::fade(c.accent, 0.14f), ui.px(3));
  if (focused)
    draw->AddRect(ImVec2(pos.x - ui.px(2), pos.y - ui.px(1)), ImVec2(max.x + ui.px(2), max.y + ui.px(1)), c.accent,
                  ui.px(3), 0, ui.px(2));
  draw->AddText(face, face->FontSize, pos, style.color ? style.color : c.text, text.c_str());
  // A dotted underline says "this number can tell you where it came from".
  const float y = max.y - ui.px(1);
  for (float x = pos.x; x < max.x; x += ui.px(4))
    draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + ui.px(2), max.x), y), kit::fade(c.accent, 0.8f), ui.px(1));
  if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  return hovered;
}

bool Explainer::area(const UiContext& ui, const char* id, ImVec2 min, ImVec2 max, const Make& make) {
  ImGui::SetCursorScreenPos(min);
  const bool pressed = ImGui::InvisibleButton(id, ImVec2(std::max(max.x - min.x, 1.0f), std::max(max.y - min.y, 1.0f)));
  if (pressed || activated()) {
    open(make());
    opened_at_item();
  }
  const bool hovered = ImGui::IsItemHovered();
  const bool focused = ImGui::IsItemFocused();
  if (focused) ImGui::GetWindowDrawList()->AddRect(min, max, ui.colors().accent, ui.px(2), 0, ui.px(2));
  if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  return hovered || focused;
}

void Explainer::open(Explanation explanation) {
  events_.push_back({{"type", "explain"}, {"title", explanation.title}, {"text", explanation.text}});
  current_ = std::move(explanation);
  open_requested_ = true;
  centred_ = true;
  focus_on_open_ = false;
}

void Explainer::opened_at_item() {
  centred_ = false;
  item_min_ = ImGui::GetItemRectMin();
  item_max_ = ImGui::GetItemRectMax();
  focus_on_open_ = !ImGui::IsMouseReleased(0);  // Enter or Space, not the pointer
}

void Explainer::draw_popup(const UiContext& ui, float owner_top, float owner_bottom) {
  if (sheet_)
    draw_sheet(ui, owner_top, owner_bottom);
  else
    draw_floating(ui, owner_top, owner_bottom);
}

void Explainer::draw_floating(const UiContext& ui, float owner_top, float owner_bottom) {
  popup_rect_.reset();
  const bool fresh = open_requested_;
  open_requested_ = false;
  if (!current_) return;
  const bool has_owner = owner_top > -FLT_MAX && owner_bottom < FLT_MAX;
  const float top_now = has_owner ? owner_top : 0.0f;  // what the popup's place is measured from
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float view_top = viewport->Pos.y, view_bottom = viewport->Pos.y + viewport->Size.y;
  const float margin = ui.px(8), gap = ui.px(4);
  const bool figure_shown = !has_owner || (owner_bottom > view_top && owner_top < view_bottom);
  if (fresh) {
    frames_shown_ = 0;
    owner_seen_ = false;
    if (centred_) {  // a command: in the middle of the screen, then with the figure
      item_min_ = item_max_ = ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, view_top + viewport->Size.y * 0.4f);
    }
    item_owner_top_ = top_now;
  }
  // A command may open the derivation of a figure not on screen yet: it waits in the middle of
  // the screen, and goes with the figure once the figure has shown.
  if (centred_ && !owner_seen_) item_owner_top_ = top_now;
  owner_seen_ = owner_seen_ || figure_shown;
  // Where the number is now: it moved as far as its figure did.
  const float moved = top_now - item_owner_top_;
  const ImVec2 item_min(item_min_.x, item_min_.y + moved), item_max(item_max_.x, item_max_.y + moved);
  const bool press_outside = !fresh && frames_shown_ > 0 && ImGui::IsMouseClicked(0) &&
                             !ImGui::IsMouseHoveringRect(popup_min_, popup_max_, false);
  const bool figure_gone = owner_seen_ && !figure_shown;
  const bool number_gone = !centred_ && (item_max.y <= view_top || item_min.y >= view_bottom);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) || press_outside || figure_gone || number_gone) {
    current_.reset();  // a press outside still reaches what it was on: nothing here takes it
    return;
  }
  const float max_w = std::max(ui.px(160), std::min(ui.px(440), viewport->Size.x - ui.px(24)));
  // Beside the number: under it, or above it when only there it fits whole. Decided in the
  // first frames (the window learns its size from its content a frame late), then kept, so the
  // popup never jumps from one side to the other while the page scrolls.
  const ImVec2 size =
      frames_shown_ > 0 ? ImVec2(popup_max_.x - popup_min_.x, popup_max_.y - popup_min_.y) : ImVec2(max_w, 0);
  if (frames_shown_ < 3 && !centred_)
    below_ = item_max.y + gap + size.y <= view_bottom - margin || item_min.y - gap - size.y < view_top + margin;
  ImVec2 pos, pivot;
  if (centred_) {
    pos = ImVec2(item_min.x, item_min.y);
    pivot = ImVec2(0.5f, 0.5f);
  } else {
    const float left =
        std::clamp(item_min.x, viewport->Pos.x + margin,
                   std::max(viewport->Pos.x + margin, viewport->Pos.x + viewport->Size.x - size.x - margin));
    pos = below_ ? ImVec2(left, item_max.y + gap) : ImVec2(left, item_min.y - gap);
    pivot = below_ ? ImVec2(0, 0) : ImVec2(0, 1);
  }
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always, pivot);
  ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(ui.px(260), max_w), 0), ImVec2(max_w, FLT_MAX));
  if (fresh && focus_on_open_) ImGui::SetNextWindowFocus();
  begin_panel(ui, "popup", this, ImGuiWindowFlags_NoScrollWithMouse);
  draw_body(ui, max_w - ui.px(14));
  const bool closed = kit::button(ui, tr("widgets.close").c_str());
  popup_min_ = ImGui::GetWindowPos();
  popup_max_ = ImVec2(popup_min_.x + ImGui::GetWindowSize().x, popup_min_.y + ImGui::GetWindowSize().y);
  ImGui::End();
  ++frames_shown_;
  if (closed) {
    current_.reset();
    return;
  }
  popup_rect_ =
      nlohmann::json::array({popup_min_.x / ui.scale, popup_min_.y / ui.scale, (popup_max_.x - popup_min_.x) / ui.scale,
                             (popup_max_.y - popup_min_.y) / ui.scale});
}

void Explainer::draw_body(const UiContext& ui, float wrap) {
  const Palette& c = ui.colors();
  const Explanation& e = *current_;
  ImGui::PushTextWrapPos(wrap);
  kit::wrapped(ui, e.title, 0, kit::Face::bold);
  if (!e.formula.empty())
    kit::wrapped(ui, formula_lines(ui, e.formula, wrap - ImGui::GetCursorPosX()), c.accent, kit::Face::mono);
  if (!e.inputs.empty()) {
    kit::gap(ui, 2);
    for (const auto& [name, value] : e.inputs) kit::wrapped(ui, name + ":  " + value, c.muted, kit::Face::small);
  }
  if (!e.text.empty()) {
    kit::gap(ui, 2);
    kit::wrapped(ui, e.text);
  }
  ImGui::PopTextWrapPos();
  kit::gap(ui, 2);
}

void Explainer::draw_sheet(const UiContext& ui, float owner_top, float owner_bottom) {
  open_requested_ = false;
  sheet_rect_.reset();
  if (!current_) {
    sheet_top_ = FLT_MAX;
    owner_seen_ = seen_above_sheet_ = false;
    return;
  }
  // Scrolled away: the widget it explains has left the screen, or, having been seen above the
  // sheet, has gone wholly behind it. The sheet would otherwise sit over whatever the learner
  // scrolled to (#15 walk: the model view's sheet covered the split-join walk's Next button, and
  // taps on it did nothing). A widget only ever seen behind the sheet (a tap low on the screen)
  // keeps it, and so does one never seen yet (a command may open a sheet for a widget off screen).
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const bool on_screen = owner_bottom > viewport->Pos.y && owner_top < viewport->Pos.y + viewport->Size.y;
  const bool above_sheet = sheet_top_ < FLT_MAX && owner_bottom > viewport->Pos.y && owner_top < sheet_top_;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) || (owner_seen_ && !on_screen) ||
      (seen_above_sheet_ && !above_sheet)) {
    current_.reset();
    sheet_top_ = FLT_MAX;
    owner_seen_ = seen_above_sheet_ = false;
    return;
  }
  owner_seen_ = owner_seen_ || on_screen;
  seen_above_sheet_ = seen_above_sheet_ || above_sheet;
  // Across the bottom of the screen, at most 40% of its height (longer text scrolls inside): a
  // widget's top, where its controls are, stays in view above it. Centred under the window the
  // widget is drawn in (the reading column on a desk, so it does not cover the contents).
  const float column_w = std::min(ImGui::GetWindowWidth(), viewport->Size.x);
  const float w = std::min(column_w - ui.px(16), ui.px(560));
  const float centre = std::clamp(ImGui::GetWindowPos().x + column_w * 0.5f, viewport->Pos.x + w * 0.5f,
                                  viewport->Pos.x + viewport->Size.x - w * 0.5f);
  ImGui::SetNextWindowPos(ImVec2(centre, viewport->Pos.y + viewport->Size.y - ui.px(8)), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, viewport->Size.y * 0.4f));
  begin_panel(ui, "sheet", this, ImGuiWindowFlags_None);
  draw_body(ui, w - ui.px(14));
  const bool closed = kit::button(ui, tr("widgets.close").c_str());
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImGui::End();
  sheet_rect_ = nlohmann::json::array({pos.x / ui.scale, pos.y / ui.scale, size.x / ui.scale, size.y / ui.scale});
  sheet_top_ = pos.y;
  if (closed) {
    current_.reset();
    sheet_rect_.reset();
    sheet_top_ = FLT_MAX;
  }
}

nlohmann::json Explainer::state() const {
  if (!current_) return {{"open", false}};
  nlohmann::json j = current_->to_json();
  j["open"] = true;
  if (sheet_rect_) j["sheet"] = *sheet_rect_;
  if (popup_rect_) j["popup"] = *popup_rect_;
  return j;
}

std::vector<nlohmann::json> Explainer::take_events() {
  std::vector<nlohmann::json> out;
  out.swap(events_);
  return out;
}

void draw_figure_flow(const UiContext& ui, Explainer& explainer, const std::vector<ExplainedFigure>& figures,
                      int columns, float width) {
  ImFont* small = kit::font(ui, kit::Face::small);
  ImFont* bold = kit::font(ui, kit::Face::bold);
  kit::Flow flow(width, ui.px(12), ui.px(8));
  const float row_h = small->FontSize + bold->FontSize + ui.px(4);
  const float wide_slot = (width - ui.px(12.0f * static_cast<float>(columns - 1))) / static_cast<float>(columns);
  for (const ExplainedFigure& f : figures) {
    const float w = std::max(kit::text_size(small, f.label).x, kit::text_size(bold, f.value).x);
    const float slot = width < ui.px(480) ? (width - ui.px(12)) / 2.0f : std::max(w, wide_slot);
    flow.place(ImVec2(std::max(slot, w), row_h));
    ImGui::BeginGroup();
    ImGui::PushFont(small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.colors().muted);
    ImGui::TextUnformatted(f.label.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    NumberStyle style;
    style.bold = true;
    explainer.number(ui, f.id.c_str(), f.value, f.make, style);
    ImGui::EndGroup();
  }
  flow.end();
}

}  // namespace neuralpath::ui
