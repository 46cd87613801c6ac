// kit.cpp: shared drawing pieces for the lesson widgets (see kit.h).
//
// [SECTION] Faces and text
// [SECTION] Card
// [SECTION] Controls
// [SECTION] Flow layout
// [SECTION] Draw-list helpers
#include "engine/ui/widgets/kit.h"

#include "engine/widgets/drawable.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

namespace neuralpath::ui::kit {

nlohmann::json css_rect(const UiContext& ui, ImVec2 min, ImVec2 max) {
  const float s = ui.scale > 0 ? ui.scale : 1;
  return nlohmann::json::array({min.x / s, min.y / s, (max.x - min.x) / s, (max.y - min.y) / s});
}

// [SECTION] Faces and text ---------------------------------------------------------------------

ImFont* font(const UiContext& ui, Face face) {
  ImFont* chosen = nullptr;
  if (ui.fonts) {
    switch (face) {
      case Face::body: chosen = ui.fonts->body; break;
      case Face::bold: chosen = ui.fonts->bold; break;
      case Face::italic: chosen = ui.fonts->italic; break;
      case Face::mono: chosen = ui.fonts->mono; break;
      case Face::small: chosen = ui.fonts->small; break;
    }
  }
  return chosen ? chosen : ImGui::GetFont();  // headless tests without faces: ImGui's own
}

ImVec2 text_size(ImFont* face, const std::string& text) {
  return face->CalcTextSizeA(face->FontSize, FLT_MAX, 0.0f, text.c_str(), text.c_str() + text.size());
}

std::string fit_text(ImFont* face, const std::string& text, float max_width) {
  if (text_size(face, text).x <= max_width) return text;
  // The longest run of whole UTF-8 characters that fits with "…" after it, found by halving:
  // views cut labels every frame, and dropping one character at a time measured a pasted
  // 20,000-letter word 20,000 times a frame.
  std::vector<std::size_t> ends;  // byte offset after each character but the last
  for (std::size_t i = 1; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ends.push_back(i);
  std::size_t lo = 0, hi = ends.size();  // characters kept: lo fits (0 always does), hi not known
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (text_size(face, text.substr(0, ends[mid - 1]) + "…").x <= max_width)
      lo = mid;
    else
      hi = mid - 1;
  }
  return (lo == 0 ? std::string() : text.substr(0, ends[lo - 1])) + "…";
}

std::string drawable_only(const std::string& text) {
  const std::string bad = undrawable(text);  // each undrawable character once
  if (bad.empty()) return text;
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t n = 1;  // one whole UTF-8 character
    while (at + n < text.size() && (static_cast<unsigned char>(text[at + n]) & 0xC0) == 0x80) ++n;
    const std::string piece = text.substr(at, n);
    at += n;
    if (bad.find(piece) == std::string::npos) {
      if (!(piece == " " && !out.empty() && out.back() == ' ')) out += piece;  // "a 🙂 b" -> "a b"
    }
  }
  return out;
}

void fill_field(char* buffer, std::size_t size, const std::string& text) {
  if (size == 0) return;
  const std::string shown = drawable_only(text);
  std::size_t n = std::min(shown.size(), size - 1);
  while (n < shown.size() && n > 0 && (static_cast<unsigned char>(shown[n]) & 0xC0) == 0x80) --n;
  shown.copy(buffer, n);
  buffer[n] = '\0';
}

void follow_field(char* buffer, std::size_t size, std::string& filled_from, const std::string& text) {
  if (filled_from == text) return;
  filled_from = text;
  fill_field(buffer, size, filled_from);
}

std::vector<std::string> wrap_lines(ImFont* face, const std::string& text, float width) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::vector<std::string> lines;
  const char* const end = text.data() + text.size();
  for (const char* s = text.data();;) {
    const char* const eol = std::find(s, end, '\n');
    if (s == eol) lines.emplace_back();
    for (const char* p = s; p < eol;) {
      const char* cut = face->CalcWordWrapPositionA(1.0f, p, eol, width);
      if (cut <= p) {  // not even one character fits: take one whole UTF-8 character anyway
        cut = p + 1;
        while (cut < eol && (static_cast<unsigned char>(*cut) & 0xC0) == 0x80) ++cut;
      }
      // Dear ImGui allows a break after any '.' or ',', so "0.83" or "1.048.576" could end one
      // line and start the next; a number cut in two reads as two numbers. Cut before it instead.
      if (cut < eol && cut - p >= 2 && digit(*cut) && (cut[-1] == '.' || cut[-1] == ',') && digit(cut[-2])) {
        const char* space = cut;
        while (space > p && *space != ' ') --space;
        if (space > p) cut = space;
      }
      const char* last = cut;
      while (last > p && last[-1] == ' ') --last;
      lines.emplace_back(p, last);
      p = cut;
      while (p < eol && *p == ' ') ++p;
    }
    if (eol == end) break;
    s = eol + 1;
  }
  return lines;
}

void wrapped(const UiContext& ui, const std::string& text, ImU32 color, Face face) {
  ImFont* f = font(ui, face);
  ImGui::PushFont(f);
  ImGui::PushStyleColor(ImGuiCol_Text, color ? color : ui.colors().text);
  // The lines are cut here (wrap_lines: never inside a number) at the width TextWrapped would
  // use, so its own wrapping finds nothing more to cut.
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float width = ImGui::CalcWrapWidthForPos(window->DC.CursorPos, std::max(window->DC.TextWrapPos, 0.0f));
  std::string cut;
  for (const std::string& line : wrap_lines(f, text, width)) cut += (cut.empty() ? "" : "\n") + line;
  ImGui::TextWrapped("%s", cut.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

void title(const UiContext& ui, const std::string& text) { wrapped(ui, text, 0, Face::bold); }

void gap(const UiContext& ui, float css) { ImGui::Dummy(ImVec2(1, ui.px(css))); }

void KeptHeight::begin(float width) {
  if (width != width_) width_ = width, tallest_ = 0;  // another width wraps differently
  top_ = ImGui::GetCursorScreenPos().y;
}

void KeptHeight::end() {
  const float drawn = ImGui::GetCursorScreenPos().y - top_;
  constexpr float kWobble = 2;  // screen px: truncation's, never a line of text
  tallest_ = std::abs(drawn - tallest_) <= kWobble ? drawn : std::max(tallest_, drawn);
  ImGui::Dummy(ImVec2(1, tallest_ - drawn));  // always: an item, and its spacing, at every height
}

// [SECTION] Card -------------------------------------------------------------------------------

Card::Card(const UiContext& ui, const char* id) : ui_(ui) {
  ImGui::PushID(id);
  draw_ = ImGui::GetWindowDrawList();
  start_ = ImGui::GetCursorScreenPos();
  width_ = std::max(ImGui::GetContentRegionAvail().x, ui.px(200));
  pad_ = width_ < ui.px(480) ? ui.px(10) : ui.px(18);  // phones keep more room for content
  inner_width_ = width_ - 2 * pad_;
  splitter_.Split(draw_, 2);
  splitter_.SetCurrentChannel(draw_, 1);  // content on top, the panel drawn later below it
  ImGui::SetCursorScreenPos(ImVec2(start_.x + pad_, start_.y + pad_));
  ImGui::BeginGroup();
  // Wrapped text and item widths stop at the card's inner right edge, not the window's.
  const float right_local = start_.x + pad_ + inner_width_ - ImGui::GetWindowPos().x + ImGui::GetScrollX();
  ImGui::PushTextWrapPos(right_local);
  ImGui::PushItemWidth(inner_width_);
}

void Card::end() {
  if (!open_) return;
  open_ = false;
  ImGui::PopItemWidth();
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  const float bottom = ImGui::GetItemRectMax().y + pad_;
  splitter_.SetCurrentChannel(draw_, 0);
  const float rounding = ui_.px(10);
  const ImVec2 max(start_.x + width_, bottom);
  draw_->AddRectFilled(start_, max, ui_.colors().panel, rounding);
  draw_->AddRect(start_, max, ui_.colors().border, rounding, 0, ui_.px(1));
  splitter_.Merge(draw_);
  ImGui::SetCursorScreenPos(ImVec2(start_.x, bottom));
  ImGui::Dummy(ImVec2(width_, 0));
  ImGui::PopID();
}

Card::~Card() {
  end();
  splitter_.ClearFreeMemory();
}

// [SECTION] Controls ---------------------------------------------------------------------------

namespace {

// Enter on a focused item activates it too (Dear ImGui 1.86 maps only Space to "activate").
bool enter_on_focused() {
  return ImGui::IsItemFocused() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
                                    ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false));
}

}  // namespace

int segmented(const UiContext& ui, const char* id, const std::vector<std::string>& labels, int selected, float width) {
  const Palette& c = ui.colors();
  ImFont* face = font(ui, Face::body);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pad(ui.px(12), ui.px(6));
  int clicked = -1;
  ImGui::PushID(id);
  Flow flow(width, ui.px(6), ui.px(6));
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const ImVec2 text = text_size(face, labels[i]);
    const ImVec2 size(text.x + 2 * pad.x, text.y + 2 * pad.y);
    const ImVec2 pos = flow.place(size);
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::InvisibleButton("##choice", size) || enter_on_focused()) clicked = static_cast<int>(i);
    const bool on = static_cast<int>(i) == selected;
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 max(pos.x + size.x, pos.y + size.y);
    const ImU32 fill = on ? c.accent : hovered ? mix(c.page, c.accent, 0.12f) : c.page;
    draw->AddRectFilled(pos, max, fill, size.y * 0.5f);
    draw->AddRect(pos, max, on ? c.accent : c.border, size.y * 0.5f, 0, ui.px(1));
    if (ImGui::IsItemFocused())
      draw->AddRect(ImVec2(pos.x - ui.px(2), pos.y - ui.px(2)), ImVec2(max.x + ui.px(2), max.y + ui.px(2)), c.accent,
                    size.y * 0.5f + ui.px(2), 0, ui.px(2));
    draw->AddText(face, face->FontSize, ImVec2(pos.x + pad.x, pos.y + pad.y), on ? text_on(c.accent) : c.text,
                  labels[i].c_str());
    ImGui::PopID();
  }
  flow.end();
  ImGui::PopID();
  return clicked;
}

bool text_entry(const UiContext& ui, const TextEntry& entry, char* buffer, std::size_t size, float width) {
  const float button_w = text_size(font(ui, Face::body), entry.button).x + ui.px(24);
  const bool same_line = width >= ui.px(420);
  push_field_style(ui);
  ImGui::SetNextItemWidth(same_line ? std::min(width - button_w - ui.px(8), ui.px(entry.max_width)) : width);
  const bool entered =
      ImGui::InputTextWithHint(entry.field_id, entry.hint, buffer, size, ImGuiInputTextFlags_EnterReturnsTrue);
  pop_field_style();
  if (same_line) ImGui::SameLine(0, ui.px(8));
  const bool clicked = button(ui, (entry.button + entry.button_id).c_str(), entry.primary);
  return entered || clicked;
}

bool button(const UiContext& ui, const char* label, bool primary, ImVec2 size) {
  const Palette& c = ui.colors();
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ui.px(12), ui.px(6)));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, ui.px(6));
  ImGui::PushStyleColor(ImGuiCol_Button, primary ? c.accent : c.page);
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, mix(primary ? c.accent : c.page, c.text, 0.12f));
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, mix(primary ? c.accent : c.page, c.text, 0.22f));
  ImGui::PushStyleColor(ImGuiCol_Text, primary ? text_on(c.accent) : c.text);
  ImGui::PushStyleColor(ImGuiCol_Border, c.border);
  ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, primary ? 0.0f : ui.px(1));
  const bool clicked = ImGui::Button(label, size) || enter_on_focused();
  ImGui::PopStyleVar(3);
  ImGui::PopStyleColor(5);
  return clicked;
}

StepNav step_nav(const UiContext& ui, const char* back_label, const char* next_label, bool can_back, bool can_next) {
  StepNav nav;
  if (can_back) {
    if (button(ui, back_label)) nav.move = -1;
    nav.back = {true, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  } else {
    // The space button() would take: its label plus the padding it pushes (12 by 6 px).
    const ImVec2 label = ImGui::CalcTextSize(back_label, nullptr, true);
    ImGui::Dummy(ImVec2(label.x + 2 * ui.px(12), label.y + 2 * ui.px(6)));
  }
  ImGui::SameLine(0, ui.px(8));
  if (can_next) {
    if (button(ui, next_label, true)) nav.move = 1;
    nav.next = {true, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
    ImGui::SameLine(0, ui.px(8));
  }
  return nav;
}

void push_field_style(const UiContext& ui) {
  const Palette& c = ui.colors();
  ImGui::PushStyleColor(ImGuiCol_FrameBg, c.page);
  ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, mix(c.page, c.accent, 0.08f));
  ImGui::PushStyleColor(ImGuiCol_FrameBgActive, mix(c.page, c.accent, 0.14f));
  ImGui::PushStyleColor(ImGuiCol_Border, c.border);
  ImGui::PushStyleColor(ImGuiCol_SliderGrab, c.accent);
  ImGui::PushStyleColor(ImGuiCol_SliderGrabActive, mix(c.accent, c.text, 0.25f));
  ImGui::PushStyleColor(ImGuiCol_Text, c.text);
  ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, ui.px(1));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ui.px(8), ui.px(6)));
  ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, ui.px(16));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, ui.px(6));
}

void pop_field_style() {
  ImGui::PopStyleVar(4);
  ImGui::PopStyleColor(7);
}

void rule(const UiContext& ui, float width) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddLine(at, ImVec2(at.x + width, at.y), ui.colors().border, ui.px(1));
  ImGui::Dummy(ImVec2(width, ui.px(1)));
}

// [SECTION] Flow layout ------------------------------------------------------------------------

Flow::Flow(float width, float spacing_x, float spacing_y) : sx_(spacing_x), sy_(spacing_y) {
  const ImVec2 start = ImGui::GetCursorScreenPos();
  x0_ = x_ = start.x;
  y_ = start.y;
  right_ = start.x + width;
}

ImVec2 Flow::place(ImVec2 size) {
  if (x_ > x0_ && x_ + size.x > right_) newline();
  const ImVec2 pos(x_, y_);
  ImGui::SetCursorScreenPos(pos);
  x_ += size.x + sx_;
  line_h_ = std::max(line_h_, size.y);
  return pos;
}

void Flow::keep_together(float width) {
  if (x_ > x0_ && x_ + width > right_) newline();
}

void Flow::newline() {
  y_ += line_h_ + sy_;
  x_ = x0_;
  line_h_ = 0;
}

void Flow::end() {
  ImGui::SetCursorScreenPos(ImVec2(x0_, y_ + line_h_));
  ImGui::Dummy(ImVec2(0, 0));
}

// [SECTION] Draw-list helpers ------------------------------------------------------------------

void hatch(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color, float spacing, float thickness) {
  draw->PushClipRect(min, max, true);
  const float h = max.y - min.y;
  for (float x = min.x - h; x < max.x; x += spacing)  // 45° lines, bottom-left to top-right
    draw->AddLine(ImVec2(x, max.y), ImVec2(x + h, min.y), color, thickness);
  draw->PopClipRect();
}

void dashed_rect(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 color, float dash, float thickness) {
  auto edge = [&](ImVec2 a, ImVec2 b) {
    const float length = std::hypot(b.x - a.x, b.y - a.y);
    const ImVec2 dir((b.x - a.x) / length, (b.y - a.y) / length);
    for (float t = 0; t < length; t += 2 * dash) {
      const float e = std::min(t + dash, length);
      draw->AddLine(ImVec2(a.x + dir.x * t, a.y + dir.y * t), ImVec2(a.x + dir.x * e, a.y + dir.y * e), color,
                    thickness);
    }
  };
  edge(min, ImVec2(max.x, min.y));
  edge(ImVec2(max.x, min.y), max);
  edge(max, ImVec2(min.x, max.y));
  edge(ImVec2(min.x, max.y), min);
}

void text_up(ImDrawList* draw, ImFont* face, ImVec2 bottom_left, ImU32 color, const std::string& text) {
  // Lay the text out horizontally at the clip rectangle's corner (so ImGui's CPU clipping,
  // which runs before our rotation, keeps every glyph), then turn its vertices a quarter turn
  // counter-clockwise about that corner and move them to `bottom_left`.
  const ImVec2 origin = draw->GetClipRectMin();
  const int first = draw->VtxBuffer.Size;
  draw->AddText(face, face->FontSize, origin, color, text.c_str());
  for (int i = first; i < draw->VtxBuffer.Size; ++i) {
    ImDrawVert& v = draw->VtxBuffer[i];
    const float dx = v.pos.x - origin.x, dy = v.pos.y - origin.y;
    v.pos = ImVec2(bottom_left.x + dy, bottom_left.y - dx);
  }
}

ImU32 fade(ImU32 color, float alpha) {
  const auto a =
      static_cast<ImU32>(static_cast<float>((color >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(alpha, 0.0f, 1.0f));
  return (color & ~IM_COL32_A_MASK) | (a << IM_COL32_A_SHIFT);
}

ImU32 mix(ImU32 a, ImU32 b, float t) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  t = std::clamp(t, 0.0f, 1.0f);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, x.w + (y.w - x.w) * t));
}

}  // namespace neuralpath::ui::kit
