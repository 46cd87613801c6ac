#include "code_panel.h"

#include "engine/text/catalogue.h"

#include <algorithm>
#include <string>

namespace neuralpath::ui::playback {

namespace {

float line_height(const Painter& p) { return p.mono()->FontSize * 0.85f + p.px(5); }
float code_size(const Painter& p) { return p.mono()->FontSize * 0.85f; }

ImU32 token_color(const Palette& c, lesson::CodeToken::Kind kind) {
  using K = lesson::CodeToken::Kind;
  switch (kind) {
    case K::Keyword: return c.code_keyword;
    case K::Builtin: return c.code_builtin;
    case K::String: return c.code_string;
    case K::Number: return c.code_number;
    case K::Comment: return c.code_comment;
    case K::Plain:
    case K::Operator: break;
  }
  return c.text;
}

}  // namespace

CodeWindow code_window(const lesson::CodeBlock& code, const std::vector<int>& lit, int max_lines) {
  const int n = static_cast<int>(code.lines.size());
  max_lines = std::max(max_lines, 1);
  if (n <= max_lines) return {1, n};
  int first = 1;
  if (!lit.empty()) {
    const auto [lo, hi] = std::minmax_element(lit.begin(), lit.end());
    const int span = *hi - *lo + 1;
    first = span >= max_lines ? *lo : *lo - (max_lines - span) / 2;
  }
  first = std::clamp(first, 1, n - max_lines + 1);
  return {first, first + max_lines - 1};
}

float code_panel_height(const Painter& p, const lesson::CodeBlock& code, CodeWindow window) {
  const bool title = !code.file.empty() || window.first > 1 || window.last < static_cast<int>(code.lines.size());
  return (title ? p.small_size() + p.px(6) : 0) + line_height(p) * static_cast<float>(window.last - window.first + 1) +
         p.px(16);
}

void draw_code_panel(const Painter& p, ImVec2 pos, float width, const lesson::CodeBlock& code,
                     const std::vector<int>& lit, CodeWindow window) {
  const Palette& c = p.colors();
  const int n = static_cast<int>(code.lines.size());
  window.first = std::clamp(window.first, 1, std::max(n, 1));
  window.last = std::clamp(window.last, window.first - 1, n);
  const float h = code_panel_height(p, code, window);
  const ImVec2 end(pos.x + width, pos.y + h);
  p.draw->AddRectFilled(pos, end, c.panel, p.px(6));
  p.draw->AddRect(pos, end, c.border, p.px(6));
  p.draw->PushClipRect(pos, end, true);  // long lines are cut at the panel's edge, not drawn over the board
  float y = pos.y + p.px(8);
  const bool partial = window.first > 1 || window.last < n;
  if (!code.file.empty() || partial) {
    std::string title = code.file;
    if (partial)
      title += (title.empty() ? "" : " · ") + tr("playback.code_lines", {{"first", std::to_string(window.first)},
                                                                         {"last", std::to_string(window.last)},
                                                                         {"n", std::to_string(n)}});
    p.text(ImVec2(pos.x + p.px(10), y), title, c.muted, p.small(), 0, 0, false);
    y += p.small_size() + p.px(6);
  }
  const float lh = line_height(p), size = code_size(p);
  const float gutter = p.measure(p.mono(), size, std::to_string(code.lines.size())).x + p.px(16);
  for (int number = window.first; number <= window.last; ++number) {
    const bool on = std::find(lit.begin(), lit.end(), number) != lit.end();
    if (on) {
      p.draw->AddRectFilled(ImVec2(pos.x + p.px(2), y - p.px(2)), ImVec2(end.x - p.px(2), y + lh - p.px(2)),
                            (c.accent & 0x00FFFFFF) | 0x38000000);
      p.draw->AddRectFilled(ImVec2(pos.x + p.px(2), y - p.px(2)), ImVec2(pos.x + p.px(5), y + lh - p.px(2)), c.accent);
    }
    p.text(ImVec2(pos.x + p.px(8), y), std::to_string(number), on ? c.accent : c.muted, p.mono(), size, 0, false);
    const lesson::CodeLine& line = code.lines[static_cast<std::size_t>(number - 1)];
    float x = pos.x + gutter;
    if (line.tokens.empty()) {
      p.text(ImVec2(x, y), line.text, c.text, p.mono(), size, 0, false);
    } else {
      for (const lesson::CodeToken& t : line.tokens) {
        const int b = std::clamp(t.begin, 0, static_cast<int>(line.text.size()));
        const int e = std::clamp(t.end, b, static_cast<int>(line.text.size()));
        const std::string_view piece(line.text.data() + b, static_cast<std::size_t>(e - b));
        x += p.text(ImVec2(x, y), piece, token_color(c, t.kind), p.mono(), size, 0, false).x;
      }
    }
    y += lh;
  }
  p.draw->PopClipRect();
}

}  // namespace neuralpath::ui::playback
