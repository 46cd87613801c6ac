// board_view.cpp: the board's pictures — the flow diagram of the block, the step header, the
// stage with the current step's operands and result (shrunk to fit the frame, or one matrix
// zoomed to its numbers), and the caption.
//
// [SECTION] Flow diagram
// [SECTION] The step: which matrices, coloured how, joined by which operator
// [SECTION] Arranging a step's matrices in the stage
// [SECTION] Header, stage and zoom
// [SECTION] Caption
#include "board_paint.h"
#include "matrix_view.h"
#include "engine/widgets/playback/playback_steps.h"
#include "playback_view.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {

using namespace playback;
using namespace widgets::playback;
using nlohmann::json;

namespace {

// Under this width the flow diagram is a row of stage dots and the current stage's name.
bool compact(const Painter& p, float width) { return width < p.px(560); }

}  // namespace

// [SECTION] Flow diagram -----------------------------------------------------------------------

float PlaybackView::draw_flow(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, Asked& asked) {
  const Palette& c = p.colors();
  const Trace& trace = *m.trace();
  const Step* now = m.current_step();
  const int current = now ? static_cast<int>(stage_of(now->kind)) : -1;
  bool present[kStageCount] = {};
  for (int i : m.step_indices())
    present[static_cast<int>(stage_of(trace.steps[static_cast<std::size_t>(i)].kind))] = true;

  const float h = p.small_size() + p.px(14), gap = p.px(6);
  if (compact(p, width)) {
    // A phone: one dot per stage (each a 24 px target) and the lit stage's name after them, or
    // on a line of its own when the longest name would not fit there (never cut: "Tokens + posi").
    // Decided from every stage's name, so the frame keeps one height from step to step.
    const float dot = p.px(24);
    int dots = 0;
    float longest = 0;
    for (int stage = 0; stage < kStageCount; ++stage)
      if (present[stage]) {
        ++dots;
        longest = std::max(longest, p.measure(p.bold(), p.small_size(), stage_label(static_cast<Stage>(stage))).x);
      }
    const bool beside = static_cast<float>(dots) * dot + gap + longest <= width;
    float x = pos.x;
    for (int stage = 0; stage < kStageCount; ++stage) {
      if (!present[stage]) continue;
      const ImVec2 a(x, pos.y + (h - dot) * 0.5f), centre(x + dot * 0.5f, pos.y + h * 0.5f);
      const bool lit = stage == current, done = stage < current;
      p.draw->AddCircleFilled(centre, p.px(lit ? 6 : 4.5f),
                              lit    ? c.accent
                              : done ? mix(c.border, c.accent, 0.5f)
                                     : c.border);
      ImGui::SetCursorScreenPos(a);
      ImGui::PushID(stage);
      if (ImGui::InvisibleButton("stage", ImVec2(dot, dot))) asked.push_back(PlaybackModel::SeekStage{stage});
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("playback.jump_to", {{"stage", stage_label(static_cast<Stage>(stage))}}).c_str());
      ImGui::PopID();
      x += dot;
    }
    const ImVec2 label_at = beside ? ImVec2(x + gap, pos.y + (h - p.small_size()) * 0.5f) : ImVec2(pos.x, pos.y + h);
    if (current >= 0) {
      const std::string label = stage_label(static_cast<Stage>(current));
      // Where the name is and the room it has (a test checks that every name fits its room).
      json one = {{"text", label},
                  {"text_rect", css_rect(label_at, label_at + p.measure(p.bold(), p.small_size(), label))},
                  {"room", css_rect(label_at, ImVec2(pos.x + width, label_at.y + p.small_size()))}};
      layout_["stage_labels"] = json::array({std::move(one)});
      p.text(label_at, label, c.accent, p.bold(), p.small_size(), 0, false);
    }
    return beside ? h : h + p.small_size() + p.px(4);
  }
  const float arrow_w = p.measure(p.small(), 0, "→").x + 2 * gap;
  json labels = json::array();
  float x = pos.x, y = pos.y;
  bool first = true;
  for (int stage = 0; stage < kStageCount; ++stage) {
    if (!present[stage]) continue;
    const std::string label = stage_label(static_cast<Stage>(stage));
    const float w = p.measure(p.bold(), p.small_size(), label).x + p.px(16);  // the lit box is bold
    if (!first && x + arrow_w + w > pos.x + width) {
      x = pos.x;
      y += h + gap;
    }  // wrap to a new row
    else if (!first) {
      p.text(ImVec2(x + gap, y + (h - p.small_size()) * 0.5f), "→", c.muted, p.small(), 0, 0, false);
      x += arrow_w;
    }
    first = false;
    const ImVec2 a(x, y), b(x + w, y + h);
    const bool lit = stage == current, done = stage < current;
    p.draw->AddRectFilled(a, b, lit ? c.accent : done ? mix(c.panel, c.accent, 0.18f) : c.panel, p.px(5));
    p.draw->AddRect(a, b, lit ? c.accent : c.border, p.px(5));
    p.centered(a, b, label, lit ? text_on(c.accent) : c.text, lit ? p.bold() : p.small(), p.small_size());
    const ImVec2 text_w = p.measure(lit ? p.bold() : p.small(), p.small_size(), label);
    const ImVec2 text_at(std::floor(a.x + (w - text_w.x) * 0.5f), std::floor(a.y + (h - text_w.y) * 0.5f));
    labels.push_back({{"text", label}, {"text_rect", css_rect(text_at, text_at + text_w)}, {"room", css_rect(a, b)}});
    ImGui::SetCursorScreenPos(a);
    ImGui::PushID(stage);
    if (ImGui::InvisibleButton("stage", ImVec2(w, h))) asked.push_back(PlaybackModel::SeekStage{stage});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.jump_to", {{"stage", label}}).c_str());
    ImGui::PopID();
    x += w;
  }
  layout_["stage_labels"] = std::move(labels);
  return y + h - pos.y;
}

// [SECTION] The step: which matrices, coloured how, joined by which operator ------------------

namespace {

// By what the matrix is in its step, not by its name (names are in the learner's language).
Heat heat_of(const Step& s, int input) {  // input -1 = the result
  const bool result = input < 0;
  switch (s.kind) {
    case StepKind::score: return result ? Heat::range : Heat::signed_values;  // Q·Kᵀ = scores
    case StepKind::scale:
    case StepKind::mask: return Heat::range;                                        // scores in, scores out
    case StepKind::softmax: return result ? Heat::weights : Heat::range;            // scores → weights
    case StepKind::blend: return input == 0 ? Heat::weights : Heat::signed_values;  // weights · V
    case StepKind::context_layer: return !result && input > 0 ? Heat::weights : Heat::signed_values;
    default: return Heat::signed_values;
  }
}

// The operator drawn after input `k` (before the next input, or before the result).
std::string operator_after(const Step& s, std::size_t k) {
  const bool last = k + 1 == s.inputs.size();
  switch (s.kind) {
    case StepKind::positions:
    case StepKind::residual: return last ? "=" : "+";
    case StepKind::project_q:
    case StepKind::project_k:
    case StepKind::project_v:
    case StepKind::blend:
    case StepKind::output_projection: return last ? "=" : "·";
    case StepKind::score: return last ? "ᵀ =" : "·";
    case StepKind::scale: return "× " + s.scalar_name + " =";
    case StepKind::mask: return tr("playback.op_mask");
    case StepKind::softmax: return "softmax →";
    case StepKind::concat_heads: return last ? "=" : "|";
    case StepKind::layer_norm: return last ? "LayerNorm →" : "";
    case StepKind::feed_forward: return last ? "· W2 + b2 =" : "relu(x·W1 + b1) →";
    case StepKind::context_layer: return last ? "→" : "";
    case StepKind::tokens:
    case StepKind::embedding:
    case StepKind::next_token: break;
  }
  return last ? "→" : "";
}

// Steps whose result cells are sums of their terms, so a cell can be shown filling up term by
// term (the running dot product) while it is computed.
bool sums_terms(StepKind kind) {
  return kind == StepKind::score || kind == StepKind::project_q || kind == StepKind::project_k ||
         kind == StepKind::project_v || kind == StepKind::blend || kind == StepKind::output_projection;
}

// The matrices of step `s` in drawing order (inputs, then the result), styled for fill `t`.
std::vector<MatrixStyle> step_items(const Step& s, float t) {
  const Matrix& r = s.result.values;
  const int total = static_cast<int>(r.size());
  const int revealed = t >= 1.0f ? total : static_cast<int>(std::floor(t * static_cast<float>(total)));
  const bool done = revealed >= total;
  // The result fills row by row while the cell the caption speaks about (the step's focus)
  // shows its running sum, with its operands lit: what is lit is what is said.
  const Cell computing = s.focus;
  float partial = NAN;
  const auto cell_index = static_cast<std::size_t>(computing.row * r.cols() + computing.col);
  if (!done && sums_terms(s.kind) && computing.row >= 0 && cell_index < s.cell_terms.size()) {
    const CellTerms& cell = s.cell_terms[cell_index];
    const auto n = static_cast<std::size_t>(std::ceil(t * static_cast<float>(cell.terms.size())));
    partial = 0;
    for (std::size_t k = 0; k < n && k < cell.terms.size(); ++k) partial += cell.terms[k].a * cell.terms[k].b;
  }
  std::vector<MatrixStyle> items;
  for (std::size_t k = 0; k < s.inputs.size(); ++k) {
    MatrixStyle m;
    m.matrix = &s.inputs[k];
    m.heat = heat_of(s, static_cast<int>(k));
    const InputFocus f = input_focus(s, k, computing);
    m.lit_row = f.row;
    m.lit_col = f.col;
    m.spoken = input_focus(s, k, s.focus).spoken;
    items.push_back(std::move(m));
  }
  MatrixStyle result;
  result.matrix = &s.result;
  result.heat = heat_of(s, -1);
  result.revealed = revealed;
  if (!done) {
    result.current = computing;
    result.partial = partial;
  }
  result.spoken = {s.focus};
  if (!s.masked_cells.empty() && (s.kind == StepKind::mask || s.kind == StepKind::softmax))
    result.masked = &s.masked_cells;
  items.push_back(std::move(result));
  return items;
}

// [SECTION] Arranging a step's matrices in the stage --------------------------------------------

// Where each matrix and operator of a step goes, left to right, wrapping onto new rows; offsets
// from the stage's top left.
struct Arrangement {
  std::vector<MatrixLayout> layouts;
  std::vector<ImVec2> at;     // each matrix
  std::vector<ImVec2> op_at;  // the operator after matrix k (x < 0: none)
  float height = 0;
  bool all_numbers = true;
};

Arrangement arrange(const Painter& p, const Step& s, const std::vector<MatrixStyle>& items, float width,
                    float max_cell) {
  Arrangement a;
  const float gap = p.px(10);
  float x = 0, y = 0, row_h = 0;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const MatrixLayout l = layout_matrix(p, items[k], width, max_cell);
    a.all_numbers = a.all_numbers && l.numbers;
    if (x > 0 && x + l.size.x > width) {
      x = 0;
      y += row_h + gap;
      row_h = 0;
    }
    a.layouts.push_back(l);
    a.at.emplace_back(x, y);
    x += l.size.x + gap;
    row_h = std::max(row_h, l.size.y);
    a.op_at.emplace_back(-1, 0);
    if (k + 1 == items.size()) continue;
    const std::string op = operator_after(s, k);
    if (op.empty()) continue;
    const ImVec2 size = p.measure(p.bold(), 0, op);
    if (x + size.x > width) {  // no room after the matrix: the operator gets a line of its own
      x = 0;
      y += row_h + gap * 0.5f;
      a.op_at.back() = ImVec2(0, y);
      y += size.y + gap * 0.5f;
      row_h = 0;
      continue;
    }
    a.op_at.back() = ImVec2(x, y + std::max(row_h, size.y * 2) * 0.5f);
    x += size.x + gap;
  }
  a.height = y + row_h;
  return a;
}

// The largest cells (numbers printed, if they fit) with which the step fits `height`.
Arrangement fit(const Painter& p, const Step& s, const std::vector<MatrixStyle>& items, float width, float height) {
  float cell = number_cell_width(p);
  Arrangement a = arrange(p, s, items, width, cell);
  const float slack = p.px(1);  // the tallest step measured for the frame must fit it, rounding aside
  while (a.height > height + slack && cell > p.px(4)) {
    cell = std::max(cell * 0.85f, p.px(3));
    a = arrange(p, s, items, width, cell);
  }
  return a;
}

// The stage's room for the matrices: its height less the line that says a tap shows numbers.
float hint_height(const Painter& p) { return p.small_size() + p.px(6); }

}  // namespace

float PlaybackView::stage_natural_height(const Painter& p, const PlaybackModel& m, float width) const {
  const Trace& trace = *m.trace();
  float tallest = 0;
  for (int i : m.step_indices()) {
    const Step& s = trace.steps[static_cast<std::size_t>(i)];
    float h = 0;
    if (s.kind == StepKind::tokens)
      h = tokens_height(p, width, trace);
    else if (s.kind == StepKind::next_token)
      h = next_token_bars_height(p, s) + p.px(8) + ImGui::GetFrameHeight();
    else
      h = arrange(p, s, step_items(s, 1.0f), width, number_cell_width(p)).height;
    tallest = std::max(tallest, h);
  }
  return tallest + hint_height(p);
}

// [SECTION] Header, stage and zoom ---------------------------------------------------------------

namespace {
std::string header_text(const PlaybackModel& m, int k) {
  const Trace* trace = m.trace();
  if (!trace) return {};  // never drawn without a trace; says so to GCC's -Wnull-dereference too
  const Step& s = trace->steps[static_cast<std::size_t>(m.step_indices()[static_cast<std::size_t>(k)])];
  return tr("playback.step_header",
            {{"n", std::to_string(k + 1)}, {"total", std::to_string(m.controller().count())}, {"title", s.title}});
}
}  // namespace

float PlaybackView::header_height(const Painter& p, const PlaybackModel& m, float width) const {
  std::size_t lines = 1;
  for (int k = 0; k < m.controller().count(); ++k)
    lines = std::max(lines, p.wrap(p.bold(), 0, header_text(m, k), width).size());
  return static_cast<float>(lines) * p.body_size() * 1.2f;
}

float PlaybackView::draw_header(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, float height) {
  const std::vector<std::string> lines = p.wrap(p.bold(), 0, header_text(m, m.controller().index()), width);
  for (std::size_t i = 0; i < lines.size(); ++i)
    p.text(ImVec2(pos.x, pos.y + static_cast<float>(i) * p.body_size() * 1.2f), lines[i], p.colors().text, p.bold());
  return height;
}

void PlaybackView::draw_stage(const Painter& p, const PlaybackModel& m, ImRect stage, Asked& asked) {
  const Step* s = m.current_step();
  if (!s) return;
  const Trace& trace = *m.trace();
  const Palette& c = p.colors();
  const float t = fill(m);
  const float width = stage.GetWidth();
  p.draw->PushClipRect(stage.Min, stage.Max, true);
  if (s->kind == StepKind::tokens) {
    const int shown = static_cast<int>(std::ceil(t * static_cast<float>(trace.labels.size())));
    draw_tokens(p, stage.Min, width, trace, std::max(shown, 1));
    zoom_.clear();
  } else if (s->kind == StepKind::next_token) {
    const float bars = draw_next_token_bars(p, stage.Min, width, *s, t);
    draw_temperature(p, m, ImVec2(stage.Min.x, stage.Min.y + bars + p.px(8)), width, asked);
    zoom_.clear();
  } else {
    const std::vector<MatrixStyle> items = step_items(*s, t);
    // A zoom stays open while the steps that follow show the same matrix (X through Q, K, V).
    const auto zoomed =
        std::find_if(items.begin(), items.end(), [&](const MatrixStyle& i) { return i.matrix->name == zoom_; });
    if (zoomed == items.end()) zoom_.clear();
    if (!zoom_.empty()) {
      draw_zoom(p, m, *zoomed, stage);
    } else {
      const Arrangement a = fit(p, *s, items, width, stage.GetHeight() - hint_height(p));
      nlohmann::json matrices = nlohmann::json::array();
      for (std::size_t k = 0; k < items.size(); ++k) {
        const ImVec2 at = stage.Min + a.at[k];
        std::vector<ImRect> labels;
        const Cell hovered = draw_matrix(p, at, items[k], a.layouts[k], &labels);
        nlohmann::json label_rects = nlohmann::json::array();
        for (const ImRect& r : labels) label_rects.push_back(css_rect(r.Min, r.Max));
        matrices.push_back({{"name", items[k].matrix->name},
                            {"rect", css_rect(at, at + a.layouts[k].size)},
                            {"numbers", a.layouts[k].numbers},
                            {"label_size", a.layouts[k].label_size / scale_},
                            {"row_labels", std::move(label_rects)}});
        if (hovered.row >= 0) {
          const bool is_result = k + 1 == items.size();
          const NamedMatrix& mat = *items[k].matrix;
          ImGui::SetTooltip(
              "%s", is_result ? narrate(trace, *s, hovered).c_str()
                              : (mat.name + " = " + format_number(mat.values(hovered.row, hovered.col))).c_str());
        }
        // A tap on a matrix shows it alone with its numbers and labels (a phone has no hover).
        if (p.tapped(at, at + a.layouts[k].size)) zoom_ = items[k].matrix->name;
        if (a.op_at[k].x >= 0) p.text(stage.Min + a.op_at[k], operator_after(*s, k), c.muted, p.bold());
      }
      layout_["matrices"] = std::move(matrices);
      const std::string hint = tr(a.all_numbers ? "playback-ui.zoom_hint_numbers" : "playback-ui.zoom_hint");
      p.text(ImVec2(stage.Min.x, stage.Max.y - hint_height(p) + p.px(4)), hint, c.muted, p.small(), 0, 0, false);
    }
  }
  p.draw->PopClipRect();
}

// One matrix alone: every number printed, with its row and column labels. Columns that do not
// fit the width go on under the first ones, in blocks, each with its own labels.
namespace {
// A small button of the zoomed view ("← All matrices", a block of columns): drawn around its
// text, tappable over at least 44 × 28 px; `on` marks the block shown.
struct ZoomButton {
  bool clicked = false;
  ImVec2 min, max;   // where it is drawn
  float height = 0;  // of the tappable area
};
ZoomButton zoom_button(const Painter& p, const char* id, ImVec2 at, const std::string& text, bool on) {
  const Palette& c = p.colors();
  const ImVec2 size = p.measure(p.small(), 0, text) + ImVec2(p.px(16), p.px(10));
  const ImVec2 hit(std::max(size.x, p.px(44)), std::max(size.y, p.px(28)));
  ZoomButton b;
  ImGui::SetCursorScreenPos(at);
  b.clicked = ImGui::InvisibleButton(id, hit);
  const bool hovered = ImGui::IsItemHovered();
  b.min = at;
  b.max = at + size;
  b.height = hit.y;
  p.draw->AddRectFilled(b.min, b.max,
                        on        ? mix(c.panel, c.accent, 0.25f)
                        : hovered ? mix(c.panel, c.accent, 0.18f)
                                  : c.panel,
                        p.px(5));
  p.draw->AddRect(b.min, b.max, on ? c.accent : c.border, p.px(5));
  p.text(ImVec2(at.x + p.px(8), at.y + p.px(5)), text, c.text, p.small(), 0, 0, false);
  return b;
}
}  // namespace

void PlaybackView::draw_zoom(const Painter& p, const PlaybackModel& m, const MatrixStyle& item, ImRect stage) {
  const Step& s = *m.current_step();
  const NamedMatrix& whole = *item.matrix;
  const float width = stage.GetWidth();
  float y = stage.Min.y;
  // "← all matrices": back to the step.
  const ZoomButton back = zoom_button(p, "unzoom", ImVec2(stage.Min.x, y), tr("playback-ui.zoom_back"), false);
  if (back.clicked) zoom_.clear();
  layout_["unzoom"] = css_rect(back.min, back.max);
  y += back.height + p.px(6);

  const int cols = static_cast<int>(whole.values.cols());
  MatrixStyle probe = item;
  const float label_w = layout_matrix(p, probe, width).label_w;  // the row labels' column
  const int per_block = std::clamp(static_cast<int>((width - label_w) / number_cell_width(p)), 1, std::max(cols, 1));
  const int blocks = (cols + per_block - 1) / std::max(per_block, 1);
  const bool is_result = &whole == &s.result;
  const auto column_label = [&](int j) {
    return j < static_cast<int>(whole.col_labels.size()) ? whole.col_labels[static_cast<std::size_t>(j)]
                                                         : std::to_string(j);
  };
  // Stacked, the column blocks may not fit the board's fixed frame (#15 walk: at 375 px the
  // second block of W_V showed one row of eight): then one block shows at a time, picked by a
  // row of chips, starting with the one that holds the column being spoken of.
  const float block_h = layout_matrix(p, probe, width).size.y;  // the rows are the same in every block
  const bool one_at_a_time = blocks > 1 && y + static_cast<float>(blocks) * (block_h + p.px(10)) > stage.Max.y;
  int shown = -1;
  if (one_at_a_time) {
    const std::string chosen_for = whole.name + "@" + s.title;
    if (zoom_block_for_ != chosen_for || zoom_block_ < 0 || zoom_block_ >= blocks) {
      zoom_block_for_ = chosen_for;
      const int spoken = item.lit_col >= 0 ? item.lit_col : item.spoken.empty() ? 0 : item.spoken.front().col;
      zoom_block_ = std::clamp(spoken / per_block, 0, blocks - 1);
    }
    shown = zoom_block_;
    float x = stage.Min.x, row_height = 0;
    json chips = json::array();
    for (int b = 0; b < blocks; ++b) {
      const int first = b * per_block, last = std::min(cols, first + per_block) - 1;
      ImGui::PushID(b);
      // A block of one column is named by that column alone (#34: "k8–k8").
      const std::string name =
          first == last ? tr("playback-ui.zoom_block_one", {{"column", column_label(first)}})
                        : tr("playback-ui.zoom_block", {{"first", column_label(first)}, {"last", column_label(last)}});
      const ZoomButton chip = zoom_button(p, "zoom_block", ImVec2(x, y), name, b == shown);
      ImGui::PopID();
      if (chip.clicked) zoom_block_ = b;
      chips.push_back(css_rect(chip.min, chip.max));
      x = chip.max.x + p.px(6);
      row_height = std::max(row_height, chip.height);
    }
    layout_["zoom_blocks"] = std::move(chips);
    layout_["zoom_block"] = shown;
    y += row_height + p.px(6);
  }
  for (int first = 0; first < cols; first += per_block) {
    if (shown >= 0 && first / per_block != shown) continue;
    const int n = std::min(per_block, cols - first);
    NamedMatrix block{whole.name, whole.values.middleCols(first, n), whole.row_labels, {}};
    for (int j = first; j < first + n; ++j) block.col_labels.push_back(column_label(j));
    MatrixStyle style = item;
    style.matrix = &block;
    style.revealed = -1;  // numbers on demand show the finished values
    style.current = {};
    style.partial = NAN;
    style.lit_col = item.lit_col >= first && item.lit_col < first + n ? item.lit_col - first : -1;
    style.spoken.clear();
    for (const Cell& cell : item.spoken)
      if (cell.col >= first && cell.col < first + n) style.spoken.push_back({cell.row, cell.col - first});
    style.masked = nullptr;
    if (cols > per_block)  // which columns this block holds
      block.name += " · " + tr("playback-ui.zoom_columns",
                               {{"first", block.col_labels.front()}, {"last", block.col_labels.back()}});
    // Wide enough for every number of the block, even where the labels took a little more.
    const MatrixLayout l =
        layout_matrix(p, style, std::max(width, label_w + number_cell_width(p) * static_cast<float>(n) + p.px(1)));
    const Cell hovered = draw_matrix(p, ImVec2(stage.Min.x, y), style, l);
    if (hovered.row >= 0) {
      const Cell original{hovered.row, hovered.col + first};
      ImGui::SetTooltip(
          "%s", is_result ? narrate(*m.trace(), s, original).c_str()
                          : (whole.name + " = " + format_number(whole.values(original.row, original.col))).c_str());
    }
    y += l.size.y + p.px(10);
  }
  layout_["zoom"] = css_rect(stage.Min, ImVec2(stage.Max.x, y - p.px(10)));  // what the numbers took
}

// [SECTION] Caption ----------------------------------------------------------------------------

namespace {
float caption_box_height(const Painter& p, const std::string& caption, float width) {
  const std::size_t lines = p.wrap(p.body(), 0, caption, width - 2 * p.px(12) - p.px(4)).size();
  return p.body_size() * 1.25f * static_cast<float>(lines) + 2 * p.px(12);
}
}  // namespace

float PlaybackView::caption_height(const Painter& p, const PlaybackModel& m, float width) const {
  const Trace* trace = m.trace();
  if (!trace) return 0;
  float tallest = 0;
  for (int i : m.step_indices())
    tallest = std::max(tallest, caption_box_height(p, trace->steps[static_cast<std::size_t>(i)].narration, width));
  return tallest;
}

float PlaybackView::draw_caption(const Painter& p, const PlaybackModel& m, ImVec2 pos, float width, float height) {
  const widgets::playback::CaptionStep* caption = m.controller().current();
  if (!caption) return 0;
  const Palette& c = p.colors();
  const float pad = p.px(12);
  const std::vector<std::string> lines = p.wrap(p.body(), 0, caption->caption, width - 2 * pad - p.px(4));
  const float line_h = p.body_size() * 1.25f;
  const ImVec2 end(pos.x + width, pos.y + height);
  p.draw->AddRectFilled(pos, end, c.panel, p.px(6));
  p.draw->AddRectFilled(pos, ImVec2(pos.x + p.px(4), end.y), c.accent, p.px(2));
  // The caption is what the narrator says; not recorded, so tests see what the rest of the board shows.
  for (std::size_t i = 0; i < lines.size(); ++i)
    p.text(ImVec2(pos.x + pad + p.px(4), pos.y + pad + line_h * static_cast<float>(i)), lines[i], c.text, p.body(), 0,
           0, false);
  return height;
}

}  // namespace neuralpath::ui
