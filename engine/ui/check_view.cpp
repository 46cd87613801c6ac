// check_view.cpp: a knowledge check card, and a predict card (predict-then-reveal: the learner
// picks a guess and locks it in; only then the answer, the explanation and the engine's measured
// value appear, and the guess stays).
//
// [SECTION] Options     marker, text, colours by state; clicks answer or tick
// [SECTION] Feedback    what the chosen options say, the hint, the revealed answer
// [SECTION] Buttons     Check, Try again, Show hint, Show answer
#include "check_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/card.h"
#include "engine/ui/inline_text.h"
#include "engine/ui/measured_value.h"

#include <algorithm>

namespace neuralpath::ui {
namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// [SECTION] Options -------------------------------------------------------------------------------

enum class Mark { none, ticked, right, wrong, answer };

void draw_marker(PageContext& page, ImVec2 center, bool multiple, Mark mark, ImU32 tone) {
  ImDrawList* dl = page.draw_list();
  const Palette& c = page.colors();
  const float r = page.px(9);
  const ImU32 edge = mark == Mark::none ? c.muted : tone;
  if (multiple) {
    dl->AddRect(center - ImVec2(r, r), center + ImVec2(r, r), edge, page.px(3), 0, page.px(1.5f));
    if (mark != Mark::none) dl->AddRectFilled(center - ImVec2(r, r), center + ImVec2(r, r), tone, page.px(3));
  } else {
    dl->AddCircle(center, r, edge, 24, page.px(1.5f));
    if (mark != Mark::none) dl->AddCircleFilled(center, r, tone, 24);
  }
  // The shape inside says the same as the colour, for readers who cannot tell red from green.
  const ImU32 ink = text_on(tone);
  const float k = r * 0.55f;
  if (mark == Mark::right || mark == Mark::answer || (mark == Mark::ticked && multiple)) {
    const ImVec2 tick[] = {center + ImVec2(-k, 0), center + ImVec2(-k * 0.3f, k * 0.7f), center + ImVec2(k, -k * 0.6f)};
    dl->AddPolyline(tick, 3, ink, 0, page.px(2));
  } else if (mark == Mark::wrong) {
    dl->AddLine(center + ImVec2(-k, -k), center + ImVec2(k, k), ink, page.px(2));
    dl->AddLine(center + ImVec2(-k, k), center + ImVec2(k, -k), ink, page.px(2));
  } else if (mark == Mark::ticked) {
    dl->AddCircleFilled(center, r * 0.4f, ink, 16);
  }
}

void draw_options(PageContext& page, const lesson::Block& block, const lesson::Check& check, const CheckState& state,
                  float width) {
  const Palette& c = page.colors();
  const bool graded = state.grade.has_value();
  // A right answer stays until "Try again"; a committed prediction stays for good.
  const bool locked = graded && (state.grade->correct || check.predict);
  const float pad = page.px(12), marker_w = page.px(34);
  // In the learner's own order (LessonSession::option_order): a lesson written with its right
  // answer first does not show it first to everyone (#34). `rects` stays in the lesson's order,
  // as answers and commands count options.
  std::vector<ImRect>& rects = page.geometry.option_rect[block.id];
  rects.assign(check.options.size(), ImRect());
  for (const int option : page.session.option_order(block.id)) {
    const lesson::CheckOption& o = check.options[static_cast<std::size_t>(option)];
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float text_h = measure_inline(page, o.text, width - marker_w - 2 * pad, InlineStyle{});
    const ImRect rect(top, ImVec2(top.x + width, top.y + std::max(text_h + 2 * pad * 0.75f, page.px(46))));
    rects[static_cast<std::size_t>(option)] = rect;

    ImGui::PushID(option);
    bool hovered = false, held = false;
    if (page_button(page, ImGui::GetID("option"), rect, &hovered, &held) && !locked) {
      if (check.multiple || check.predict)  // a prediction is chosen, then locked in
        page.session.toggle_pending(block.id, option);
      else
        page.session.answer(block.id, {option});
    }
    const bool chosen = graded ? contains(state.chosen, option) : contains(state.pending, option);
    Mark mark = Mark::none;
    ImU32 tone = c.accent;
    if (chosen && graded) {
      mark = o.correct ? Mark::right : Mark::wrong;
      tone = o.correct ? c.good : c.bad;
    } else if (chosen) {
      mark = Mark::ticked;
    } else if (state.revealed && o.correct) {
      mark = Mark::answer;
      tone = c.good;
    }
    ImDrawList* dl = page.draw_list();
    const float rounding = page.px(page_metrics::rounding);
    ImU32 fill = c.page, border = c.border;
    if (mark != Mark::none) {
      fill = mix(c.page, tone, 0.1f);
      border = tone;
    }
    if (hovered && !locked) fill = mix(fill, c.accent, 0.08f);
    dl->AddRectFilled(rect.Min, rect.Max, fill, rounding);
    dl->AddRect(rect.Min, rect.Max, border, rounding, 0,
                page.px(mark != Mark::none || (held && !locked) ? 2.0f : 1.0f));
    const float line = page.body_size() * InlineStyle{}.line_height;
    draw_marker(page,
                ImVec2(rect.Min.x + pad + page.px(9), rect.Min.y + (rect.GetHeight() - text_h) * 0.5f + line * 0.5f),
                check.multiple, mark, tone);
    ImGui::SetCursorScreenPos(ImVec2(top.x + marker_w + pad * 0.5f, rect.Min.y + (rect.GetHeight() - text_h) * 0.5f));
    draw_inline(page, o.text, width - marker_w - 2 * pad, InlineStyle{}, ImGui::GetID("text"));
    ImGui::PopID();
    ImGui::SetCursorScreenPos(ImVec2(top.x, rect.Max.y + page.px(8)));
  }
}

// [SECTION] Feedback ------------------------------------------------------------------------------

// A tinted box with a bold first line and text beneath, across `width`.
void feedback_box(PageContext& page, ImU32 tone, std::string_view heading, const lesson::Inline& text, float width,
                  const char* id) {
  const float pad = page.px(12);
  const Fonts* f = page.ui.fonts;
  draw_card(page, width, mix(page.colors().page, tone, 0.1f), with_alpha(tone, 0.5f), [&] {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad * 0.8f));
    InlineStyle bold;
    bold.face = f && f->bold ? f->bold : nullptr;
    bold.color = tone;
    if (!heading.empty()) draw_text(page, heading, width - 2 * pad, bold);
    if (!text.empty()) draw_inline(page, text, width - 2 * pad, InlineStyle{}, ImGui::GetID(id));
    ImGui::SetCursorScreenPos(ImVec2(top.x, ImGui::GetCursorScreenPos().y + pad * 0.8f));
  });
}

void draw_feedback(PageContext& page, const lesson::Block& block, const lesson::Check& check, const CheckState& state,
                   float width) {
  const Palette& c = page.colors();
  if (state.grade) {
    const bool right = state.grade->correct;
    std::string heading = check.predict ? tr(right ? "page.predict_right" : "page.predict_wrong")
                                        : tr(right ? "page.correct" : "page.not_quite");
    if (!right && state.attempts > 1)
      heading = tr("page.attempt", {{"verdict", heading}, {"n", std::to_string(state.attempts)}});
    const std::vector<FeedbackLine> lines = page.session.feedback(block.id);
    // Single answer: the chosen option's own feedback. Several: one line per chosen option.
    lesson::Inline text;
    for (const FeedbackLine& line : lines) {
      if (!text.empty()) {
        lesson::Span br;
        br.kind = lesson::Span::Kind::Break;
        text.push_back(br);
      }
      if (line.option >= 0) {
        const lesson::CheckOption& o = check.options[static_cast<std::size_t>(line.option)];
        if (check.multiple) {
          lesson::Span lead;
          lead.text = std::string(o.correct ? "✓ " : "✕ ");
          lead.bold = true;
          text.push_back(lead);
          for (lesson::Span s : o.text) {
            s.bold = true;
            text.push_back(s);
          }
          lesson::Span colon;
          colon.text = ": ";
          text.push_back(colon);
        }
        text.insert(text.end(), o.feedback.begin(), o.feedback.end());
      } else {
        lesson::Span note;
        note.text = line.text;
        note.italic = true;
        text.push_back(note);
      }
    }
    feedback_box(page, right ? c.good : c.bad, heading, text, width, "feedback");
    vertical_gap(page.px(10));
  }
  if (state.hint_shown && !check.hint.empty()) {
    feedback_box(page, c.tip, tr("page.hint"), check.hint, width, "hint");
    vertical_gap(page.px(10));
  }
  if (state.revealed) {
    lesson::Inline text;
    lesson::Span br;
    br.kind = lesson::Span::Kind::Break;
    for (const int option : page.session.option_order(block.id)) {  // as the options are shown
      const lesson::CheckOption& o = check.options[static_cast<std::size_t>(option)];
      if (!o.correct) continue;
      if (!text.empty()) text.push_back(br);
      for (lesson::Span s : o.text) {
        s.bold = true;
        text.push_back(s);
      }
      if (check.predict) continue;  // its explanation follows
      lesson::Span dash;
      dash.text = " — ";
      text.push_back(dash);
      text.insert(text.end(), o.feedback.begin(), o.feedback.end());
    }
    if (check.predict && !check.explanation.empty()) {
      text.push_back(br);
      text.insert(text.end(), check.explanation.begin(), check.explanation.end());
    }
    if (check.predict && check.measured) {  // the engine's own number, live
      text.push_back(br);
      for (lesson::Span s : check.measured->label) {
        s.bold = true;
        text.push_back(s);
      }
      lesson::Span value;
      const std::optional<std::string> now = measured_text(*check.measured, page.session.lesson(), page.widgets);
      value.text = now ? ": " + *now : ": " + tr("page.predict_not_measured");
      value.italic = !now;
      text.push_back(value);
    }
    feedback_box(page, c.good, tr(check.multiple ? "page.the_answers" : "page.the_answer"), text, width, "answer");
    vertical_gap(page.px(10));
  }
}

// [SECTION] Buttons -------------------------------------------------------------------------------

void draw_buttons(PageContext& page, const lesson::Block& block, const lesson::Check& check, const CheckState& state,
                  float width) {
  struct Action {
    const char* id;
    std::string label;
    bool primary;
    int what;
  };
  std::vector<Action> actions;
  const bool graded = state.grade.has_value();
  if (check.predict) {  // one button until the guess is in; nothing after it
    if (!graded) actions.push_back({"submit", tr("page.predict_commit"), !state.pending.empty(), 0});
  } else if (check.multiple && !state.pending.empty() && !graded)
    actions.push_back({"submit", tr("page.check_answer"), true, 0});
  if (graded && !state.grade->correct && !check.predict) actions.push_back({"retry", tr("page.try_again"), false, 1});
  if (!check.hint.empty() && !state.hint_shown && !(graded && state.grade->correct))
    actions.push_back({"hint", tr("page.show_hint"), false, 2});
  // Answered correctly, the answer is on screen already: neither hint nor answer is offered.
  if (!state.revealed && !(graded && state.grade->correct) && !check.predict)
    actions.push_back({"reveal", tr("page.show_answer"), false, 3});
  if (actions.empty()) return;
  // Buttons flow left to right and wrap on a narrow screen.
  const ImVec2 start = ImGui::GetCursorScreenPos();
  float x = start.x, y = start.y, row_h = 0;
  const float gap = page.px(8);
  for (const Action& a : actions) {
    const ImVec2 size = text_button_size(page, a.label);
    if (x > start.x && x + size.x > start.x + width) {
      x = start.x;
      y += row_h + gap;
      row_h = 0;
    }
    if (text_button(page, a.id, a.label, ImVec2(x, y), a.primary)) {
      if (a.what == 0)
        page.session.submit_pending(block.id);
      else if (a.what == 1)
        page.session.retry(block.id);
      else if (a.what == 2)
        page.session.show_hint(block.id);
      else
        page.session.reveal_answer(block.id);
    }
    x += size.x + gap;
    row_h = std::max(row_h, size.y);
  }
  ImGui::SetCursorScreenPos(ImVec2(start.x, y + row_h));
}

}  // namespace

void draw_check(PageContext& page, const lesson::Block& block, const lesson::Check& check, float width) {
  const CheckState* found = page.session.check_state(block.id);
  if (!found) return;
  const CheckState state = *found;  // a copy: a click below changes the session mid-draw
  const Palette& c = page.colors();
  const Fonts* f = page.ui.fonts;
  const float pad = page.px(page_metrics::card_pad + 2);
  const ImRect rect = draw_card(page, width, c.panel, c.border, [&] {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float inner = width - 2 * pad;
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad));
    InlineStyle eyebrow;
    eyebrow.face = f && f->bold ? f->bold : nullptr;
    eyebrow.scale = 0.76f;
    eyebrow.color = c.accent;
    draw_text(page,
              tr(check.predict    ? "page.predict_eyebrow"
                 : check.multiple ? "page.check_eyebrow_multiple"
                                  : "page.check_eyebrow"),
              inner, eyebrow);
    vertical_gap(page.px(4));
    InlineStyle question;
    question.face = f && f->bold ? f->bold : nullptr;
    draw_inline(page, check.question, inner, question, ImGui::GetID("question"));
    vertical_gap(page.px(12));
    draw_options(page, block, check, state, inner);
    vertical_gap(page.px(4));
    draw_feedback(page, block, check, state, inner);
    draw_buttons(page, block, check, state, inner);
    ImGui::SetCursorScreenPos(ImVec2(top.x, ImGui::GetCursorScreenPos().y + pad));
  });
  page.geometry.check_rect[block.id] = rect;
}

}  // namespace neuralpath::ui
