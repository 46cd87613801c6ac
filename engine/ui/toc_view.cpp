#include "toc_view.h"
#include "engine/text/catalogue.h"

#include "engine/ui/inline_text.h"
#include "engine/ui/prose_view.h"

#include <algorithm>
#include <variant>

namespace neuralpath::ui {
namespace {

struct SectionChecks {
  int total = 0, correct = 0;
};

SectionChecks checks_in(const PageContext& page, const lesson::Section& section) {
  SectionChecks out;
  lesson::for_each_block(section.blocks, [&](const lesson::Block& b) {
    if (!std::holds_alternative<lesson::Check>(b.content)) return;
    ++out.total;
    const CheckState* s = page.session.check_state(b.id);
    if (s && s->grade && s->grade->correct) ++out.correct;
  });
  return out;
}

}  // namespace

std::string draw_toc(PageContext& page, float width) {
  const Palette& c = page.colors();
  const Fonts* f = page.ui.fonts;
  const lesson::Lesson& lesson = page.session.lesson();
  std::string picked;
  const float x = ImGui::GetCursorScreenPos().x;

  InlineStyle title;
  title.face = f && f->bold ? f->bold : nullptr;
  title.scale = 1.05f;
  title.line_height = 1.3f;
  draw_text(page, lesson.title, width, title);
  vertical_gap(page.px(6));
  const ImVec2 badge = draw_level_badge(page, lesson.level, ImGui::GetCursorScreenPos());
  vertical_gap(badge.y + page.px(18));

  InlineStyle eyebrow;
  eyebrow.face = title.face;
  eyebrow.scale = 0.72f;
  eyebrow.color = c.muted;
  draw_text(page, tr("page.contents_eyebrow"), width, eyebrow);
  vertical_gap(page.px(4));

  const float pad = page.px(10);
  ImDrawList* dl = page.draw_list();
  for (const lesson::Section& section : lesson.sections) {
    const bool current = section.anchor == page.session.section();
    const SectionChecks checks = checks_in(page, section);
    const ImVec2 top = ImGui::GetCursorScreenPos();
    InlineStyle name;
    name.face = current && f && f->bold ? f->bold : nullptr;
    name.scale = 0.92f;
    name.line_height = 1.35f;
    name.color = current ? c.accent : c.text;
    const ImVec2 badge_size = draw_level_badge(page, section.level, top, /*measure_only=*/true);
    const float badge_row = badge_size.y > 0 ? badge_size.y + page.px(4) : 0;
    const float text_h = measure_inline(page, section.title_spans, width - 2 * pad, name);
    const ImRect rect(top, ImVec2(top.x + width, top.y + pad + badge_row + text_h + pad * 0.8f));

    ImGui::PushID(section.anchor.c_str());
    bool hovered = false;
    if (page_button(page, ImGui::GetID("entry"), rect, &hovered)) picked = section.anchor;
    const float rounding = page.px(6);
    if (current) {
      dl->AddRectFilled(rect.Min, rect.Max, with_alpha(c.accent, 0.1f), rounding);
      dl->AddRectFilled(rect.Min, ImVec2(rect.Min.x + page.px(3), rect.Max.y), c.accent, rounding,
                        ImDrawFlags_RoundCornersLeft);
    } else if (hovered) {
      dl->AddRectFilled(rect.Min, rect.Max, with_alpha(c.text, 0.05f), rounding);
    }
    if (badge_row > 0) draw_level_badge(page, section.level, ImVec2(top.x + pad, top.y + pad * 0.8f));
    if (checks.total > 0) {
      // Done checks show a tick; the rest a count, so the learner sees what is left.
      ImFont* small = f && f->small ? f->small : ImGui::GetFont();
      const bool done = checks.correct == checks.total;
      const std::string mark = done ? "✓ " + std::to_string(checks.total) + "/" + std::to_string(checks.total)
                                    : std::to_string(checks.correct) + "/" + std::to_string(checks.total);
      const float w = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, mark.c_str()).x;
      dl->AddText(small, small->FontSize, ImVec2(rect.Max.x - pad - w, top.y + pad * 0.8f), done ? c.good : c.muted,
                  mark.c_str());
    }
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad * 0.8f + badge_row));
    draw_inline(page, section.title_spans, width - 2 * pad, name, ImGui::GetID("title"));
    ImGui::PopID();
    ImGui::SetCursorScreenPos(ImVec2(x, rect.Max.y + page.px(2)));
  }

  // How far the learner is: checks answered correctly out of all of them.
  const lesson::ProgressSummary s = page.session.summary();
  if (s.checks > 0) {
    vertical_gap(page.px(16));
    InlineStyle small;
    small.scale = 0.82f;
    small.color = c.muted;
    draw_text(
        page,
        tr_n("page.checks_correct", s.checks, {{"n", std::to_string(s.correct)}, {"total", std::to_string(s.checks)}}),
        width, small);
    const ImVec2 bar = ImGui::GetCursorScreenPos();
    const float h = page.px(6);
    dl->AddRectFilled(bar, ImVec2(bar.x + width, bar.y + h), c.border, h * 0.5f);
    dl->AddRectFilled(bar,
                      ImVec2(bar.x + width * static_cast<float>(s.correct) / static_cast<float>(s.checks), bar.y + h),
                      c.good, h * 0.5f);
    vertical_gap(h + page.px(8));
  }
  return picked;
}

}  // namespace neuralpath::ui
