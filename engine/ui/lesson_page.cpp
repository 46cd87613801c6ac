// lesson_page.cpp: layout, the reading flow, scrolling and the current section.
//
// [SECTION] Frame          root window, contents column or top bar, the reading column
// [SECTION] Reading flow   header, intro, sections
// [SECTION] Contents       side column, top bar, drawer
// [SECTION] Input          wheel, keys, drags (page, contents list, wide code and tables)
// [SECTION] Sections       goto, tracking the current section
#include "lesson_page.h"
#include "engine/text/catalogue.h"

#include "engine/ui/block_view.h"
#include "engine/ui/card.h"
#include "engine/ui/error_view.h"
#include "engine/ui/inline_text.h"
#include "engine/ui/prose_view.h"
#include "engine/ui/toc_view.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {
namespace {

constexpr ImGuiWindowFlags kPlainWindow = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse;

float top_padding(const UiContext& ui, bool narrow) { return ui.px(narrow ? 20 : 40); }

const std::map<const lesson::Block*, Widget*>& widgets_of(const LessonPage::Frame& frame) {
  static const std::map<const lesson::Block*, Widget*> none;
  return frame.widgets ? *frame.widgets : none;
}

}  // namespace

// [SECTION] Frame ---------------------------------------------------------------------------------

void LessonPage::draw(Frame& frame) {
  const UiContext& ui = frame.ui;
  reduced_motion_ = ui.reduced_motion;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  narrow_ = display.x / ui.scale < page_metrics::narrow_below;
  if (!narrow_ || !frame.session) contents_open_ = false;
  geometry_.clear();
  contents_window_ = nullptr;
  scroller_.update(frame.dt);

  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  // No background: the platform clears the screen to the page colour (WindowBg) before drawing,
  // and a full-screen quad on top of that cost software WebGL about a quarter of a training
  // frame (#10: the GPU process's CPU per frame at 1440x900 went from 67-72 to 48-52 ms).
  ImGui::Begin("##lesson", nullptr,
               kPlainWindow | ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar(2);

  // Contents: a side column on wide screens, a bar with a drawer button on phones.
  area_ = ImRect(ImVec2(0, 0), display);
  if (frame.session && !narrow_) {
    const float width = std::clamp(display.x * 0.26f, ui.px(220), ui.px(300));
    draw_contents_column(frame, ImRect(ImVec2(0, 0), ImVec2(width, display.y)));
    area_.Min.x = width;
  } else if (frame.session) {
    const ImRect bar(ImVec2(0, 0), ImVec2(display.x, ui.px(page_metrics::top_bar)));
    draw_top_bar(frame, bar);
    area_.Min.y = bar.Max.y;
  }

  // The reading column: centred, at most 760 CSS px, with margins on a phone.
  const float margin = ui.px(narrow_ ? page_metrics::margin_narrow : page_metrics::margin_wide);
  const float column_w = std::max(ui.px(120), std::min(ui.px(page_metrics::column_max), area_.GetWidth() - 2 * margin));
  const float column_x = std::floor(area_.Min.x + (area_.GetWidth() - column_w) * 0.5f);
  column_ = ImRect(ImVec2(column_x, area_.Min.y), ImVec2(column_x + column_w, area_.Max.y));
  ImGui::SetCursorScreenPos(column_.Min);
  ImGui::BeginChild("##page", column_.GetSize(), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
  std::vector<nlohmann::json> ignored;
  if (frame.session) {
    PageContext page{ui, *frame.session, geometry_, memory_, widgets_of(frame), frame.events ? *frame.events : ignored};
    page.time = frame.time;
    page.scroll_y = drawn_offset();
    page.content_top = area_.Min.y;
    draw_page(page, frame);
  } else {
    ImGui::SetCursorScreenPos(ImVec2(column_.Min.x, area_.Min.y + top_padding(ui, narrow_) - drawn_offset()));
    if (frame.errors && !frame.errors->empty()) draw_error_panel(ui, frame.lesson_id, *frame.errors, column_w);
    content_height_ = ImGui::GetCursorScreenPos().y + ui.px(40) - area_.Min.y + drawn_offset();
    natural_height_ = area_.Min.y + content_height_;
  }
  ImGui::EndChild();
  scroller_.set_max(content_height_ - area_.GetHeight());
  draw_scroll_indicator(ui);
  handle_input(frame);
  ImGui::End();

  if (contents_open_) draw_contents_drawer(frame);
  if (frame.session) {
    laid_out_ = true;
    if (pending_goto_) {
      const std::string anchor = *pending_goto_;
      pending_goto_.reset();
      goto_section(anchor, false, reduced_motion_);
    }
    hold_section_top();
    track_section(*frame.session);
  }
}

// [SECTION] Reading flow --------------------------------------------------------------------------

void LessonPage::draw_page(PageContext& page, const Frame& frame) {
  const UiContext& ui = page.ui;
  const float width = column_.GetWidth();
  const float x = column_.Min.x;
  ImGui::SetCursorScreenPos(ImVec2(x, area_.Min.y + top_padding(ui, narrow_) - drawn_offset()));
  if (!frame.notice.empty()) {
    InlineStyle warn;
    warn.color = page.colors().bad;
    warn.scale = 0.85f;
    draw_text(page, frame.notice, width, warn);
    vertical_gap(ui.px(10));
  }
  draw_header(page, width);
  const float gap = ui.px(page_metrics::block_gap);
  const lesson::Lesson& lesson = page.session.lesson();
  draw_blocks(page, lesson.intro, width, gap);
  for (const lesson::Section& section : lesson.sections) {
    ImGui::SetCursorScreenPos(ImVec2(x, ImGui::GetCursorScreenPos().y));
    geometry_.section_top[section.anchor] = page.page_y(ImGui::GetCursorScreenPos().y);
    draw_section_heading(page, section, width);
    draw_blocks(page, section.blocks, width, gap);
  }
  if (!lesson.sections.empty()) draw_finish(page, frame, width);
  // Room after the last section, so that every section's heading can reach the top — unless
  // the whole page fits (an embedding host sizes the canvas to natural_height()).
  const float natural = page.page_y(ImGui::GetCursorScreenPos().y) + ui.px(60);
  float last_top = 0;
  if (!lesson.sections.empty()) last_top = geometry_.section_top[lesson.sections.back().anchor];
  page_end_ = natural;
  content_height_ = natural <= area_.GetHeight() ? natural : std::max(natural, last_top + area_.GetHeight());
  natural_height_ = area_.Min.y + natural;
}

void LessonPage::draw_header(PageContext& page, float width) {
  const UiContext& ui = page.ui;
  const lesson::Lesson& lesson = page.session.lesson();
  const Fonts* f = ui.fonts;
  InlineStyle title;
  title.face = title.bold_face = f && f->heading ? f->heading : nullptr;
  title.line_height = 1.2f;  // the heading face at its own size: scaled glyphs blur at a DPR of 1
  draw_text(page, lesson.title, width, title);
  vertical_gap(ui.px(12));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 badge = draw_level_badge(page, lesson.level, at);
  // "Beginner · 9 sections · 3 checks": what the learner is about to take on.
  const lesson::ProgressSummary s = page.session.summary();
  std::string facts = tr_n("page.sections", s.sections, {{"n", std::to_string(s.sections)}});
  if (s.checks > 0) facts += " · " + tr_n("page.checks", s.checks, {{"n", std::to_string(s.checks)}});
  ImFont* small = f && f->small ? f->small : ImGui::GetFont();
  page.draw_list()->AddText(
      small, small->FontSize,
      ImVec2(at.x + badge.x + (badge.x > 0 ? ui.px(10) : 0), at.y + (badge.y - small->FontSize) * 0.5f),
      page.colors().muted, facts.c_str());
  vertical_gap(std::max(badge.y, small->FontSize) + ui.px(14));
  if (!lesson.summary.empty()) {
    InlineStyle summary;
    summary.color = page.colors().muted;
    draw_text(page, lesson.summary, width, summary);
    vertical_gap(ui.px(page_metrics::block_gap));
  }
}

void LessonPage::draw_section_heading(PageContext& page, const lesson::Section& section, float width) {
  const UiContext& ui = page.ui;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float rule_y = top.y + ui.px(22);
  page.draw_list()->AddLine(ImVec2(top.x, rule_y), ImVec2(top.x + width, rule_y), page.colors().border, ui.px(1));
  ImGui::SetCursorScreenPos(ImVec2(top.x, rule_y + ui.px(22)));
  const ImVec2 badge = draw_level_badge(page, section.level, ImGui::GetCursorScreenPos());
  if (badge.y > 0) vertical_gap(badge.y + ui.px(8));
  InlineStyle heading;
  heading.face = heading.bold_face = ui.fonts && ui.fonts->heading ? ui.fonts->heading : nullptr;
  heading.line_height = 1.25f;
  draw_inline(page, section.title_spans, width, heading, ImGui::GetID(section.anchor.c_str()));
  vertical_gap(ui.px(12));
}

// What finishing asks, and where to go next (#34: finishing a lesson said nothing, and the
// learner had to find the next lesson on the home page). The same summary as the contents.
void LessonPage::draw_finish(PageContext& page, const Frame& frame, float width) {
  const UiContext& ui = page.ui;
  const Palette& c = page.colors();
  const lesson::ProgressSummary s = page.session.summary();
  const auto n = [](int v) { return std::to_string(v); };
  const TextArgs counts = {{"sections", n(s.sections)},
                           {"visited", n(s.visited)},
                           {"checks", n(s.checks)},
                           {"answered", n(s.answered)},
                           {"correct", n(s.correct)}};
  const std::string heading = tr(s.completed ? "page.finish_done" : "page.finish_todo");
  const std::string text = tr_n(std::string(s.completed ? "page.finish_done_text" : "page.finish_todo_text") +
                                    (s.checks == 0 ? "_no_checks" : ""),
                                s.sections, counts);
  const float pad = ui.px(page_metrics::card_pad + 2);
  const ImU32 tone = s.completed ? c.good : c.accent;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const ImRect rect = draw_card(page, width, mix(c.page, tone, 0.08f), with_alpha(tone, 0.5f), [&] {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ImVec2(at.x + pad, at.y + pad));
    InlineStyle bold;
    bold.face = ui.fonts && ui.fonts->bold ? ui.fonts->bold : nullptr;
    bold.color = tone;
    draw_text(page, heading, width - 2 * pad, bold);
    vertical_gap(ui.px(4));
    draw_text(page, text, width - 2 * pad, InlineStyle{});
    if (!frame.next_href.empty()) {
      vertical_gap(ui.px(10));
      const bool last = frame.next_title.empty();
      const std::string label = last ? tr("page.all_lessons") : tr("page.next_lesson", {{"title", frame.next_title}});
      if (last) {
        draw_text(page, tr("page.last_lesson"), width - 2 * pad, InlineStyle{});
        vertical_gap(ui.px(8));
      }
      const ImVec2 button = ImGui::GetCursorScreenPos();
      if (text_button(page, "##next-lesson", label, button, s.completed))
        page.events.push_back({{"type", "openLink"}, {"url", frame.next_href}});
      geometry_.next_lesson = ImRect(button, button + text_button_size(page, label));
      move_cursor_to_y(button.y + text_button_size(page, label).y);
    }
    ImGui::SetCursorScreenPos(ImVec2(at.x, ImGui::GetCursorScreenPos().y + pad));
  });
  geometry_.finish = rect;
  ImGui::SetCursorScreenPos(ImVec2(top.x, rect.Max.y + ui.px(page_metrics::block_gap)));
}

// [SECTION] Contents --------------------------------------------------------------------------------

void LessonPage::pick_section(Frame& frame, const std::string& anchor) {
  if (anchor.empty() || !frame.session) return;
  frame.session->enter_section(anchor);
  goto_section(anchor, /*glide=*/true, frame.ui.reduced_motion);
  contents_open_ = false;
}

// The contents' scrolling list at `rect` (the column, or the drawer below its bar), as a child
// window whose scroll the page keeps in contents_window_: 16 px at the sides and `pad_y` above
// and below. A borderless child ignores WindowPadding unless asked; the scrollbar track stays
// quiet. The caller ends it with ImGui::EndChild().
void LessonPage::begin_contents_list(const UiContext& ui, const char* id, const ImRect& rect, float pad_y) {
  ImGui::SetCursorScreenPos(rect.Min);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(16), pad_y));
  ImGui::PushStyleColor(ImGuiCol_ScrollbarBg, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_ScrollbarGrab, with_alpha(ui.colors().muted, 0.35f));
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, ui.px(6));
  ImGui::BeginChild(id, rect.GetSize(), false, ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar(2);
  contents_window_ = ImGui::GetCurrentWindow();
  contents_rect_ = rect;
}

void LessonPage::draw_contents_column(Frame& frame, const ImRect& rect) {
  const UiContext& ui = frame.ui;
  const Palette& c = ui.colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(rect.Min, rect.Max, c.panel);
  dl->AddLine(ImVec2(rect.Max.x - ui.px(1), rect.Min.y), ImVec2(rect.Max.x - ui.px(1), rect.Max.y), c.border, ui.px(1));
  begin_contents_list(ui, "##contents", rect, ui.px(24));
  std::vector<nlohmann::json> ignored;
  PageContext page{ui, *frame.session, geometry_, memory_, widgets_of(frame), frame.events ? *frame.events : ignored};
  const std::string picked = draw_toc(page, rect.GetWidth() - ui.px(32));
  ImGui::Dummy(ImVec2(0, ui.px(16)));  // the list's height, so ImGui can scroll it
  contents_scroll_ = ImGui::GetScrollY();
  ImGui::EndChild();
  pick_section(frame, picked);
}

void LessonPage::draw_top_bar(Frame& frame, const ImRect& bar) {
  const UiContext& ui = frame.ui;
  const Palette& c = ui.colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(bar.Min, bar.Max, c.panel);
  dl->AddLine(ImVec2(bar.Min.x, bar.Max.y - ui.px(1)), ImVec2(bar.Max.x, bar.Max.y - ui.px(1)), c.border, ui.px(1));
  std::vector<nlohmann::json> ignored;
  PageContext page{ui, *frame.session, geometry_, memory_, widgets_of(frame), frame.events ? *frame.events : ignored};
  // The drawer button: three bars and "Contents".
  ImFont* bold = ui.fonts && ui.fonts->bold ? ui.fonts->bold : ImGui::GetFont();
  const float size = page.body_size() * 0.94f;
  const std::string contents = tr("page.contents");
  const float label_w = bold->CalcTextSizeA(size, FLT_MAX, 0, contents.c_str()).x;
  const ImRect button(ImVec2(bar.Min.x + ui.px(6), bar.Min.y + ui.px(4)),
                      ImVec2(bar.Min.x + ui.px(6 + 22 + 16) + label_w, bar.Max.y - ui.px(4)));
  bool hovered = false;
  if (page_button(page, ImGui::GetID("##contents-button"), button, &hovered)) contents_open_ = !contents_open_;
  if (hovered) dl->AddRectFilled(button.Min, button.Max, with_alpha(c.accent, 0.1f), ui.px(6));
  const float cx = button.Min.x + ui.px(10), cy = button.GetCenter().y;
  for (int i = -1; i <= 1; ++i)
    dl->AddRectFilled(ImVec2(cx, cy + ui.px(5.0f * i - 1)), ImVec2(cx + ui.px(16), cy + ui.px(5.0f * i + 1)), c.text,
                      ui.px(1));
  dl->AddText(bold, size, ImVec2(cx + ui.px(24), cy - size * 0.5f), c.text, contents.c_str());
  // The current section, shortened with an ellipsis to fit.
  const lesson::Section* current = lesson::find_section(frame.session->lesson(), frame.session->section());
  if (current) {
    ImFont* body = ui.fonts && ui.fonts->body ? ui.fonts->body : ImGui::GetFont();
    ImGui::PushFont(body);
    const float x0 = button.Max.x + ui.px(12), x1 = bar.Max.x - ui.px(14);
    const ImVec2 text = ImGui::CalcTextSize(current->title.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(c.muted));
    if (x1 > x0)
      ImGui::RenderTextEllipsis(dl, ImVec2(x0, cy - text.y * 0.5f), ImVec2(x1, cy + text.y * 0.5f), x1, x1,
                                current->title.c_str(), nullptr, &text);
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
}

void LessonPage::draw_contents_drawer(Frame& frame) {
  const UiContext& ui = frame.ui;
  const Palette& c = ui.colors();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::Begin("##contents-drawer", nullptr, kPlainWindow | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar(2);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float width = std::min(display.x * 0.88f, ui.px(340));
  const ImRect panel(ImVec2(0, 0), ImVec2(width, display.y));
  dl->AddRectFilled(ImVec2(0, 0), display, IM_COL32(0, 0, 0, 110));  // dims the page behind
  dl->AddRectFilled(panel.Min, panel.Max, c.page);
  dl->AddLine(ImVec2(panel.Max.x, 0), ImVec2(panel.Max.x, display.y), c.border, ui.px(1));
  std::vector<nlohmann::json> ignored;
  PageContext page{ui, *frame.session, geometry_, memory_, widgets_of(frame), frame.events ? *frame.events : ignored};
  // Close button (✕) in the corner.
  const ImRect close(ImVec2(width - ui.px(52), ui.px(6)), ImVec2(width - ui.px(8), ui.px(50)));
  bool hovered = false;
  const bool closed = page_button(page, ImGui::GetID("##close-contents"), close, &hovered);
  if (hovered) dl->AddRectFilled(close.Min, close.Max, with_alpha(c.accent, 0.1f), ui.px(6));
  const ImVec2 m = close.GetCenter();
  const float k = ui.px(7);
  dl->AddLine(m - ImVec2(k, k), m + ImVec2(k, k), c.text, ui.px(2));
  dl->AddLine(m + ImVec2(-k, k), m + ImVec2(k, -k), c.text, ui.px(2));

  const ImRect list(ImVec2(0, ui.px(48)), ImVec2(width, display.y));
  begin_contents_list(ui, "##drawer-list", list, ui.px(8));
  const std::string picked = draw_toc(page, width - ui.px(32));
  ImGui::Dummy(ImVec2(0, ui.px(24)));
  // A finger's upright swipe on the list scrolls it (TouchGesture gave ImGui no press, so
  // nothing else would): on a phone the last sections and the checks' bar are below the fold
  // (#34). The page under the drawer stays where it is.
  if (touch_.scrolling() && list.Contains(touch_.start())) ImGui::SetScrollY(ImGui::GetScrollY() - touch_.scroll_dy());
  contents_scroll_ = ImGui::GetScrollY();
  ImGui::EndChild();
  // A tap on the dimmed page, Escape, or ✕ closes the drawer.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool outside =
      ImGui::IsMouseClicked(0) && mouse.x > panel.Max.x && ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows);
  if (closed || outside || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) contents_open_ = false;
  ImGui::End();
  pick_section(frame, picked);
}

void LessonPage::draw_scroll_indicator(const UiContext& ui) {
  if (scroller_.max() <= 0 || !scroll_thumb_) return;
  const Palette& c = ui.colors();
  // A thin thumb at the right edge: where the reader is, and a handle for a mouse. Only the
  // thumb takes presses, so a finger dragging near the edge still scrolls the page.
  const float view = area_.GetHeight(), total = view + scroller_.max();
  const float thumb_h = std::max(ui.px(32), view * view / total);
  const float travel = view - thumb_h;
  const float y = area_.Min.y + travel * scroller_.offset() / scroller_.max();
  const ImRect grip(ImVec2(area_.Max.x - ui.px(12), y), ImVec2(area_.Max.x, y + thumb_h));
  const ImRect thumb(ImVec2(area_.Max.x - ui.px(8), y + ui.px(2)),
                     ImVec2(area_.Max.x - ui.px(3), y + thumb_h - ui.px(2)));
  indicator_id_ = ImGui::GetID("##scroll-thumb");
  bool hovered = false, held = false;
  // On a phone the finger scrolls the page itself; a thumb there would only be in its way.
  if (!narrow_ && ImGui::ItemAdd(grip, indicator_id_)) {
    ImGui::ButtonBehavior(grip, indicator_id_, &hovered, &held);
    const float mouse_y = ImGui::GetIO().MousePos.y;
    if (ImGui::IsItemActivated()) indicator_grab_ = mouse_y - y;
    if (held && travel > 0) {
      scroller_.jump_to((mouse_y - indicator_grab_ - area_.Min.y) / travel * scroller_.max());
      release_section_lock();
    }
  }
  const float wide = hovered || held ? ui.px(3) : 0;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(thumb.Min.x - wide, thumb.Min.y), thumb.Max,
                                            with_alpha(c.muted, held      ? 0.8f
                                                                : hovered ? 0.6f
                                                                          : 0.35f),
                                            ui.px(4));
}

// [SECTION] Input -------------------------------------------------------------------------------

void LessonPage::handle_input(const Frame& frame) {
  const ImGuiIO& io = ImGui::GetIO();
  const UiContext& ui = frame.ui;
  ImGuiContext& g = *GImGui;
  if (contents_open_) {
    drag_ = Drag{};
    return;
  }
  // A finger's upright swipe (TouchGesture): ImGui saw no press, so nothing under the finger
  // took it; the page follows the finger, or the contents list when it started there.
  if (touch_.landed()) scroller_.stop();  // a finger on a coasting page stops it
  if (touch_.scrolling() || touch_.scroll_ended()) {
    const bool on_list = contents_window_ && contents_rect_.Contains(touch_.start());
    if (on_list && touch_.scrolling()) {
      ImGui::SetScrollY(contents_window_, contents_window_->Scroll.y - touch_.scroll_dy());
    } else if (touch_.scrolling()) {
      scroller_.drag_by(-touch_.scroll_dy(), frame.dt);
      release_section_lock();
    } else if (!on_list) {
      scroller_.release(ui.reduced_motion);
    }
  }
  const ImVec2 mouse = io.MousePos;
  const bool over_page = area_.Contains(mouse) || (contents_window_ && contents_rect_.Contains(mouse));

  // Wheel: the page, unless the pointer is over something that scrolls itself (the contents
  // list, a widget's own scrolling panel).
  ImGuiWindow* hovered = g.HoveredWindow;
  const bool scrolls_itself = hovered && (hovered->Flags & ImGuiWindowFlags_ChildWindow) && hovered->ScrollMax.y > 0 &&
                              !(hovered->Flags & ImGuiWindowFlags_NoScrollWithMouse);
  if (area_.Contains(mouse) && !scrolls_itself) {
    const float line = ui.px(80);
    const auto side = std::find_if(geometry_.side_scroll.begin(), geometry_.side_scroll.end(),
                                   [&](const PageGeometry::SideScroll& s) { return s.rect.Contains(mouse); });
    float sideways = io.MouseWheelH;
    float vertical = io.MouseWheel;
    if (io.KeyShift && side != geometry_.side_scroll.end()) std::swap(sideways, vertical);
    if (sideways != 0 && side != geometry_.side_scroll.end())
      memory_.side_offset[side->id] = std::clamp(memory_.side_offset[side->id] - sideways * ui.px(60), 0.0f, side->max);
    if (vertical != 0) {
      scroller_.scroll_by(-vertical * line);
      release_section_lock();
    }
  }

  // Keys, while no text field has them.
  if (!io.WantTextInput && !ImGui::IsAnyItemActive()) {
    auto pressed = [](ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), true); };
    const float view = area_.GetHeight();
    std::optional<float> target;
    const float base = scroller_.offset();
    if (pressed(ImGuiKey_DownArrow)) target = base + ui.px(48);
    if (pressed(ImGuiKey_UpArrow)) target = base - ui.px(48);
    if (pressed(ImGuiKey_PageDown) || (pressed(ImGuiKey_Space) && !io.KeyShift)) target = base + view * 0.88f;
    if (pressed(ImGuiKey_PageUp) || (pressed(ImGuiKey_Space) && io.KeyShift)) target = base - view * 0.88f;
    if (pressed(ImGuiKey_Home)) target = 0.0f;
    if (pressed(ImGuiKey_End)) {
      scroller_.glide_to_end(ui.reduced_motion);
      release_section_lock();
    } else if (target) {
      scroller_.glide_to(*target, ui.reduced_motion);
      release_section_lock();
    }
  }

  // Drags. A press on empty page space (or on a page button, or the contents list) may become
  // a scroll once it has moved far enough to be sure it is not a tap.
  if (ImGui::IsMouseClicked(0) && over_page && g.ActiveId != indicator_id_) {
    const ImGuiID hovered_id = g.HoveredId ? g.HoveredId : g.ActiveId;
    const bool on_tap =
        hovered_id && std::find(geometry_.taps.begin(), geometry_.taps.end(), hovered_id) != geometry_.taps.end();
    if (!hovered_id || on_tap) {
      drag_ = Drag{};
      drag_.pending = true;
      drag_.start = mouse;
      drag_.tap = on_tap ? hovered_id : 0;
      if (contents_window_ && contents_rect_.Contains(mouse)) drag_.list = contents_window_;
      for (const auto& s : geometry_.side_scroll)
        if (s.rect.Contains(mouse)) drag_.side = s.id;
      scroller_.stop();
    }
  }
  if (drag_.pending && io.MouseDown[0]) {
    const ImVec2 moved = mouse - drag_.start;
    if (!drag_.decided && std::fabs(moved.x) + std::fabs(moved.y) > ui.px(8)) {
      drag_.decided = true;
      drag_.sideways = drag_.side && std::fabs(moved.x) > std::fabs(moved.y);
      if (drag_.tap && g.ActiveId == drag_.tap) ImGui::ClearActiveID();  // a scroll, not a click
    }
    if (drag_.decided) {
      if (drag_.sideways) {
        for (const auto& s : geometry_.side_scroll)
          if (s.id == drag_.side)
            memory_.side_offset[s.id] = std::clamp(memory_.side_offset[s.id] - io.MouseDelta.x, 0.0f, s.max);
      } else if (drag_.list) {
        ImGui::SetScrollY(drag_.list, drag_.list->Scroll.y - io.MouseDelta.y);
      } else {
        scroller_.drag_by(-io.MouseDelta.y, frame.dt);
        release_section_lock();
      }
    }
  } else if (drag_.pending) {
    if (drag_.decided && !drag_.sideways && !drag_.list) scroller_.release(ui.reduced_motion);
    drag_ = Drag{};
  }
}

// [SECTION] Sections ------------------------------------------------------------------------------

void LessonPage::goto_section(const std::string& anchor, bool glide, bool reduced_motion) {
  locked_section_ = anchor;
  if (!laid_out_) {
    pending_goto_ = anchor;
    return;
  }
  auto it = geometry_.section_top.find(anchor);
  if (it == geometry_.section_top.end()) {
    pending_goto_ = anchor;  // drawn next frame (a lesson loaded since)
    return;
  }
  const float target = it->second;
  if (glide)
    scroller_.glide_to(target, reduced_motion);
  else
    scroller_.jump_to(target);
  hold_top_ = true;
}

void LessonPage::hold_section_top() {
  if (!hold_top_ || !locked_section_ || scroller_.moving()) return;  // a glide lands by itself
  auto it = geometry_.section_top.find(*locked_section_);
  if (it == geometry_.section_top.end()) return;
  const float target = std::clamp(it->second, 0.0f, std::max(0.0f, scroller_.max()));
  if (std::fabs(scroller_.offset() - target) > 0.5f) scroller_.jump_to(target);
}

void LessonPage::track_section(LessonSession& session) {
  const lesson::Lesson& lesson = session.lesson();
  if (lesson.sections.empty()) return;
  if (locked_section_) {
    if (session.section() != *locked_section_) session.enter_section(*locked_section_);
    return;
  }
  // The current section: the last one whose heading is above the top quarter of what the
  // learner sees (embedded, the host's viewport is only a band of the canvas). Embedded, the
  // host's page has no room after the lesson's end, so once that end is in sight the last
  // section whose heading shows is current: a last section too short to reach the top quarter
  // is still read, and counted as visited (#15: a learner who read an embedded lesson to its end
  // never completed it). On its own page the room is there, and the heading reaches the top.
  const float band_top = scroller_.offset() + (visible_band_ ? visible_band_->first : 0.0f);
  const float band_height = visible_band_ ? visible_band_->second : area_.GetHeight();
  const bool end_in_sight = visible_band_ && band_top + band_height >= page_end_ - 1.0f;
  const float line = end_in_sight ? band_top + band_height : band_top + band_height * 0.25f;
  std::string current = lesson.sections.front().anchor;
  for (const lesson::Section& section : lesson.sections) {
    auto it = geometry_.section_top.find(section.anchor);
    if (it != geometry_.section_top.end() && it->second <= line) current = section.anchor;
  }
  if (current != session.section()) session.enter_section(current);
}

}  // namespace neuralpath::ui
