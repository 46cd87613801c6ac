// matrix_view.cpp: grids, token chips and probability bars.
//
// [SECTION] Helpers
// [SECTION] Matrix layout
// [SECTION] Matrix drawing
// [SECTION] Tokens and next-token bars
#include "matrix_view.h"

#include "engine/text/catalogue.h"

#include "engine/text/format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace neuralpath::ui::playback {

namespace {

// [SECTION] Helpers ----------------------------------------------------------------------------

bool same(Cell a, Cell b) { return a.row == b.row && a.col == b.col; }
bool contains(const std::vector<Cell>& cells, Cell c) {
  return std::any_of(cells.begin(), cells.end(), [&](const Cell& x) { return same(x, c); });
}

std::string short_label(const std::string& text, std::size_t max_chars) {
  // Count code points so a multi-byte character is never cut in half.
  std::size_t chars = 0, i = 0;
  for (; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && chars++ == max_chars) break;
  return i < text.size() ? text.substr(0, i) + "…" : text;
}

// The longest prefix of `text` (plus "…") that fits `width`: column labels never run together.
std::string fit_label(const Painter& p, ImFont* font, float size, const std::string& text, float width) {
  if (p.measure(font, size, text).x <= width) return text;
  for (std::size_t chars = 6; chars > 0; --chars) {
    const std::string shorter = short_label(text, chars);
    if (p.measure(font, size, shorter).x <= width) return shorter;
  }
  return short_label(text, 1);
}

std::string cell_name(const NamedMatrix& m, Cell c) {
  auto label = [](const std::vector<std::string>& labels, int i) {
    return i >= 0 && i < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(i)] : std::to_string(i);
  };
  // A one-column matrix (LayerNorm's mean and spread) is indexed by its row alone: "mean[Future]",
  // not "mean[Future, mean]", which on a phone is wider than the matrix it sits under.
  if (m.values.cols() == 1) return m.name + "[" + label(m.row_labels, c.row) + "]";
  return m.name + "[" + label(m.row_labels, c.row) + ", " + label(m.col_labels, c.col) + "]";
}

// The numbers printed under a matrix whose cells are too small for text, each wrapped to the
// matrix's own width: a long name ("position code[Future, quality] = 0.00") once ran into the
// matrix beside it on a phone.
std::vector<std::string> readout_lines(const Painter& p, const MatrixStyle& style, float width) {
  const NamedMatrix& m = *style.matrix;
  std::vector<std::string> lines;
  for (const Cell& s : style.spoken)
    for (std::string& line :
         p.wrap(p.small(), 0, cell_name(m, s) + " = " + format_number(m.values(s.row, s.col)), width))
      lines.push_back(std::move(line));
  return lines;
}
float legend_box(const Painter& p) { return p.small_size() * 0.8f; }
float legend_text_width(const Painter& p, float width) { return std::max(width - legend_box(p) - p.px(4), p.px(40)); }
std::string masked_legend() {
  return tr("playback.masked_legend", {{"value", format_number(-std::numeric_limits<float>::infinity())}});
}

struct Scale {
  float lo = 0, hi = 1, abs = 1;
};
Scale scale_of(const Matrix& m) {
  Scale s{std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(), 0};
  for (Index i = 0; i < m.size(); ++i) {
    const float v = m.data()[i];
    if (!std::isfinite(v)) continue;
    s.lo = std::min(s.lo, v);
    s.hi = std::max(s.hi, v);
    s.abs = std::max(s.abs, std::abs(v));
  }
  if (s.lo > s.hi) s = {0, 1, 1};
  if (s.abs == 0) s.abs = 1;
  return s;
}

bool has_minus_infinity(const Matrix& m) {
  for (Index i = 0; i < m.size(); ++i)
    if (std::isinf(m.data()[i]) && m.data()[i] < 0) return true;
  return false;
}

ImU32 cell_color(const Painter& p, Heat heat, const Scale& s, float v) {
  if (!std::isfinite(v)) return p.colors().masked;
  switch (heat) {
    case Heat::weights: return heat_color(p.ui.theme, v);
    case Heat::range: return heat_color(p.ui.theme, s.hi > s.lo ? (v - s.lo) / (s.hi - s.lo) : 0.5f);
    case Heat::signed_values: return signed_color(p.ui.theme, v / s.abs);
  }
  return p.colors().panel;
}

}  // namespace

// [SECTION] Matrix layout ----------------------------------------------------------------------

float number_cell_width(const Painter& p) { return p.measure(p.mono(), p.cell_text_size(), "-0.00").x + p.px(5); }

MatrixLayout layout_matrix(const Painter& p, const MatrixStyle& style, float max_width, float max_cell) {
  MatrixLayout l;
  const NamedMatrix& m = *style.matrix;
  const int rows = static_cast<int>(m.values.rows()), cols = static_cast<int>(m.values.cols());
  const float text_size = p.cell_text_size();
  const float number_w = number_cell_width(p);
  l.title_h = p.small_size() + p.px(4);
  const bool labelled = rows > 0 && !m.row_labels.empty();
  const auto labels_width = [&](float size) {
    float w = 0;
    for (const std::string& label : m.row_labels) w = std::max(w, p.measure(p.small(), size, short_label(label, 8)).x);
    return labelled ? w + p.px(6) : 0.0f;
  };
  const auto size_cells = [&] {
    const float room = std::max(max_width - l.label_w, p.px(40));
    l.cell_w = std::clamp(room / std::max(cols, 1), p.px(3), max_cell > 0 ? std::min(max_cell, number_w) : number_w);
    l.numbers = l.cell_w >= number_w;
    l.cell_h = l.numbers ? text_size + p.px(8) : std::clamp(l.cell_w, p.px(3), p.px(22));
  };
  l.label_size = p.small_size();
  l.label_w = labels_width(l.label_size);
  size_cells();
  // Rows shorter than a label (16 tokens in a phone's stage): smaller labels, not below the
  // floor; the narrower label column leaves the cells a little more room. Rows shorter still
  // are labelled every n-th (draw_matrix keeps the narrated rows').
  const float floor_size = std::min(p.small_size(), p.px(8));
  if (labelled && !l.numbers && l.cell_h < l.label_size + p.px(1)) {
    l.label_size = std::max(l.cell_h - p.px(1), floor_size);
    l.label_w = labels_width(l.label_size);
    size_cells();
  }
  l.label_every = std::max(1, static_cast<int>(std::ceil((l.label_size + p.px(1)) / l.cell_h - 0.01f)));
  l.header_h = l.numbers && !m.col_labels.empty() ? p.small_size() * 0.9f + p.px(3) : 0;
  const float title_w = p.measure(p.bold(), p.small_size(), m.name).x;
  l.size.x = std::max(l.label_w + l.cell_w * static_cast<float>(cols), title_w);
  if (!l.numbers) {
    std::size_t lines = readout_lines(p, style, l.size.x).size();
    if (has_minus_infinity(m.values))
      lines += p.wrap(p.small(), 0, masked_legend(), legend_text_width(p, l.size.x)).size();
    l.readout_h = static_cast<float>(lines) * (p.small_size() + p.px(2));
  }
  l.size.y = l.title_h + l.header_h + l.cell_h * static_cast<float>(rows) + l.readout_h;
  return l;
}

// [SECTION] Matrix drawing ---------------------------------------------------------------------

Cell draw_matrix(const Painter& p, ImVec2 pos, const MatrixStyle& style, const MatrixLayout& l,
                 std::vector<ImRect>* row_labels) {
  const NamedMatrix& m = *style.matrix;
  const Palette& c = p.colors();
  const int rows = static_cast<int>(m.values.rows()), cols = static_cast<int>(m.values.cols());
  const Scale scale = scale_of(m.values);
  const float text_size = p.cell_text_size();
  p.text(pos, m.name, c.text, p.bold(), p.small_size(), 0, false);

  const ImVec2 grid(pos.x + l.label_w, pos.y + l.title_h + l.header_h);
  if (l.header_h > 0)
    for (int j = 0; j < cols && j < static_cast<int>(m.col_labels.size()); ++j) {
      const ImVec2 a(grid.x + l.cell_w * j, pos.y + l.title_h), b(a.x + l.cell_w, grid.y);
      const float size = p.small_size() * 0.85f;
      p.centered(a, b, fit_label(p, p.small(), size, m.col_labels[static_cast<std::size_t>(j)], l.cell_w - p.px(2)),
                 j == style.lit_col ? c.accent : c.muted, p.small(), size);
    }
  // Row labels: where rows are too short for one each, every n-th, but always the lit row and
  // the narrated cells' rows (their neighbours give way).
  std::vector<int> kept;
  if (style.lit_row >= 0) kept.push_back(style.lit_row);
  for (const Cell& s : style.spoken) kept.push_back(s.row);
  for (int i = 0; i < rows && i < static_cast<int>(m.row_labels.size()); ++i) {
    const bool must = std::find(kept.begin(), kept.end(), i) != kept.end();
    const bool crowds =
        std::any_of(kept.begin(), kept.end(), [&](int k) { return k != i && std::abs(k - i) < l.label_every; });
    if (!must && (i % l.label_every != 0 || crowds)) continue;
    const float y = grid.y + l.cell_h * i + (l.cell_h - l.label_size) * 0.5f;
    const ImVec2 size = p.text(ImVec2(pos.x, y), short_label(m.row_labels[static_cast<std::size_t>(i)], 8),
                               i == style.lit_row ? c.accent : c.muted, p.small(), l.label_size, 0, false);
    if (row_labels) row_labels->emplace_back(ImVec2(pos.x, y), ImVec2(pos.x + size.x, y + size.y));
  }

  Cell hovered;
  const int total = rows * cols;
  const int revealed = style.revealed < 0 ? total : std::min(style.revealed, total);
  const float gap = l.cell_w > p.px(6) ? p.px(1) : 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const Cell cell{i, j};
      const ImVec2 a(grid.x + l.cell_w * j, grid.y + l.cell_h * i);
      const ImVec2 b(a.x + l.cell_w - gap, a.y + l.cell_h - gap);
      const bool is_current = same(cell, style.current);
      // The narrated cells show from the start: the caption may say their number at once.
      const bool shown = i * cols + j < revealed || contains(style.spoken, cell);
      const bool masked = style.masked && contains(*style.masked, cell);
      const float v = m.values(i, j);
      const float value = is_current && std::isfinite(style.partial) ? style.partial : v;
      if (shown || is_current) {
        p.draw->AddRectFilled(a, b, masked && !is_current ? c.masked : cell_color(p, style.heat, scale, value));
        if (l.numbers)
          p.centered(a, b, format_number(value), text_on(cell_color(p, style.heat, scale, value)), p.mono(), text_size);
      } else {
        p.draw->AddRect(a, b, c.border);  // not computed yet: an empty slot
      }
      const bool lit = i == style.lit_row || j == style.lit_col;
      if (lit && !is_current) p.draw->AddRectFilled(a, b, (c.accent & 0x00FFFFFF) | 0x30000000);
      if (is_current || contains(style.spoken, cell))
        p.draw->AddRect(a - ImVec2(1, 1), b + ImVec2(1, 1), c.accent, 0, 0, p.px(2));
      if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(a, b)) hovered = cell;
    }
  if (!l.numbers) {  // cells too small for text: the narrated numbers go underneath
    float y = grid.y + l.cell_h * rows + p.px(2);
    for (const std::string& line : readout_lines(p, style, l.size.x)) {
      p.text(ImVec2(pos.x, y), line, c.text, p.small());
      y += p.small_size() + p.px(2);
    }
    if (has_minus_infinity(m.values)) {  // the greyed cells' value, which the cells cannot print
      const float box = legend_box(p);
      p.draw->AddRectFilled(ImVec2(pos.x, y + p.px(2)), ImVec2(pos.x + box, y + p.px(2) + box), c.masked);
      p.draw->AddRect(ImVec2(pos.x, y + p.px(2)), ImVec2(pos.x + box, y + p.px(2) + box), c.border);
      for (const std::string& line : p.wrap(p.small(), 0, masked_legend(), legend_text_width(p, l.size.x))) {
        p.text(ImVec2(pos.x + box + p.px(4), y), line, c.muted, p.small());
        y += p.small_size() + p.px(2);
      }
    }
  }
  return hovered;
}

// [SECTION] Tokens and next-token bars ---------------------------------------------------------

namespace {
// Token chip t: as wide as the wider of its two lines, so "pos 0" under "AI" stays inside the card (#15).
float chip_width(const Painter& p, const std::string& label, const std::string& position) {
  return std::max({p.measure(p.bold(), 0, label).x, p.measure(p.small(), 0, position).x, p.px(18)}) + 2 * p.px(8);
}
std::string position_label(std::size_t t) { return tr("playback.position", {{"n", std::to_string(t)}}); }
}  // namespace

float tokens_height(const Painter& p, float width, const Trace& trace) {
  const float gap = p.px(8), h = p.body_size() + p.small_size() + p.px(14);
  float x = 0, y = 0;
  for (std::size_t t = 0; t < trace.labels.size(); ++t) {
    const float w = chip_width(p, trace.labels[t], position_label(t));
    if (x > 0 && x + w > width) {
      x = 0;
      y += h + gap;
    }
    x += w + gap;
  }
  return y + h;
}

float draw_tokens(const Painter& p, ImVec2 pos, float width, const Trace& trace, int shown) {
  const Palette& c = p.colors();
  const float pad = p.px(8), gap = p.px(8), h = p.body_size() + p.small_size() + p.px(14);
  float x = pos.x, y = pos.y;
  for (std::size_t t = 0; t < trace.labels.size() && static_cast<int>(t) < shown; ++t) {
    const std::string& label = trace.labels[t];
    const std::string position = position_label(t);
    const float w = chip_width(p, label, position);
    if (x > pos.x && x + w > pos.x + width) {
      x = pos.x;
      y += h + gap;
    }
    const ImVec2 a(x, y), b(x + w, y + h);
    p.draw->AddRectFilled(a, b, trace.known[t] ? c.panel : mix(c.panel, c.tip, 0.25f), p.px(6));
    p.draw->AddRect(a, b, c.border, p.px(6));
    p.text(ImVec2(x + pad, y + p.px(4)), label, c.text, p.bold());
    p.text(ImVec2(x + pad, y + p.px(6) + p.body_size()), position, c.muted, p.small());
    x += w + gap;
  }
  return y + h - pos.y;
}

float next_token_bars_height(const Painter& p, const Step& step) {
  const Index shown = std::min<Index>(step.result.values.cols(), 8);
  if (shown == 0) return p.body_size();
  return p.small_size() + p.px(6) + static_cast<float>(shown) * (p.body_size() + p.px(8));
}

float draw_next_token_bars(const Painter& p, ImVec2 pos, float width, const Step& step, float fill) {
  const Palette& c = p.colors();
  const Matrix& probs = step.result.values;
  if (probs.cols() == 0) {
    p.text(pos, tr("playback.empty_vocabulary"), c.muted, p.body());
    return p.body_size();
  }
  std::vector<int> order(static_cast<std::size_t>(probs.cols()));
  for (int i = 0; i < static_cast<int>(order.size()); ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return probs(0, a) > probs(0, b); });
  order.resize(std::min<std::size_t>(order.size(), 8));
  // The focus word is always among the bars (the narration names it).
  if (step.focus.col >= 0 && std::find(order.begin(), order.end(), step.focus.col) == order.end())
    order.back() = step.focus.col;

  const Matrix* logits = step.inputs.empty() ? nullptr : &step.inputs.front().values;
  float word_w = 0;
  for (int j : order)
    word_w = std::max(word_w, p.measure(p.body(), 0, step.result.col_labels[static_cast<std::size_t>(j)]).x);
  const float number_w = p.measure(p.mono(), p.cell_text_size(), "100.0%").x + p.px(10);
  const float logit_w = logits ? p.measure(p.small(), 0, tr("playback.logit", {{"value", "-00.00"}})).x + p.px(8) : 0;
  const float bar_w = std::max(width - word_w - number_w - logit_w - p.px(16), p.px(30));
  const float row_h = p.body_size() + p.px(8);
  float y = pos.y;
  p.text(ImVec2(pos.x, y), step.scalar_name + " " + format_number(step.scalar), c.muted, p.small());
  y += p.small_size() + p.px(6);
  for (int j : order) {
    const float prob = probs(0, j);
    const bool focus = j == step.focus.col;
    p.text(ImVec2(pos.x, y + p.px(3)), step.result.col_labels[static_cast<std::size_t>(j)], focus ? c.accent : c.text,
           focus ? p.bold() : p.body());
    const ImVec2 a(pos.x + word_w + p.px(8), y + p.px(3)), b(a.x + bar_w, y + row_h - p.px(3));
    p.draw->AddRectFilled(a, b, c.panel, p.px(3));
    const float filled = std::clamp(prob, 0.0f, 1.0f) * std::clamp(fill, 0.0f, 1.0f);
    if (filled > 0)
      p.draw->AddRectFilled(a, ImVec2(a.x + bar_w * filled, b.y), focus ? c.accent : heat_color(p.ui.theme, 0.6f),
                            p.px(3));
    p.text(ImVec2(b.x + p.px(8), y + p.px(4)), format_percent(prob), c.text, p.mono(), p.cell_text_size());
    if (logits && j < logits->cols())
      p.text(ImVec2(b.x + p.px(8) + number_w, y + p.px(4)),
             tr("playback.logit", {{"value", format_number((*logits)(0, j))}}), c.muted, p.small());
    y += row_h;
  }
  return y - pos.y;
}

}  // namespace neuralpath::ui::playback
