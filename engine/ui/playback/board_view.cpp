// board_view.cpp: the board's pictures — the flow diagram of the block, the current step's
// operands and result, and the caption.
//
// [SECTION] Flow diagram
// [SECTION] The step: which matrices, coloured how, joined by which operator
// [SECTION] The step view
// [SECTION] Caption
#include "board_paint.h"
#include "matrix_view.h"
#include "playback_steps.h"
#include "playback_widget.h"

#include "engine/core/catalogue.h"
#include "engine/core/format.h"
#include "engine/core/narration.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {

using namespace playback;

// [SECTION] Flow diagram -----------------------------------------------------------------------

float PlaybackWidget::draw_flow(const Painter& p, ImVec2 pos, float width) {
  const Palette& c = p.colors();
  const Step* now = current_step();
  const int current = now ? static_cast<int>(stage_of(now->kind)) : -1;
  bool present[kStageCount] = {};
  for (int i : steps_) present[static_cast<int>(stage_of(trace_->steps[static_cast<std::size_t>(i)].kind))] = true;

  const float h = p.small_size() + p.px(14), gap = p.px(6);
  const float arrow_w = p.measure(p.small(), 0, "→").x + 2 * gap;
  float x = pos.x, y = pos.y;
  bool first = true;
  for (int stage = 0; stage < kStageCount; ++stage) {
    if (!present[stage]) continue;
    const std::string label = stage_label(static_cast<Stage>(stage));
    const float w = p.measure(p.bold(), p.small_size(), label).x + p.px(16);  // the lit box is bold
    if (!first && x + arrow_w + w > pos.x + width) { x = pos.x; y += h + gap; }  // wrap to a new row
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
    ImGui::SetCursorScreenPos(a);
    ImGui::PushID(stage);
    if (ImGui::InvisibleButton("stage", ImVec2(w, h))) seek_stage(stage);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("playback.jump_to", {{"stage", label}}).c_str());
    ImGui::PopID();
    x += w;
  }
  return y + h - pos.y;
}

// [SECTION] The step: which matrices, coloured how, joined by which operator ------------------

namespace {

Heat heat_of(const Step& s, int input) {  // input -1 = the result
  const std::string& name = input < 0 ? s.result.name : s.inputs[static_cast<std::size_t>(input)].name;
  if (name.rfind("weights", 0) == 0) return Heat::weights;
  if (name == "scores" || name == "scaled" || name == "masked") return Heat::range;
  return Heat::signed_values;
}

// The operator drawn after input `k` (before the next input, or before the result).
std::string operator_after(const Step& s, std::size_t k) {
  const bool last = k + 1 == s.inputs.size();
  switch (s.kind) {
    case StepKind::positions:
    case StepKind::residual:          return last ? "=" : "+";
    case StepKind::project_q:
    case StepKind::project_k:
    case StepKind::project_v:
    case StepKind::blend:
    case StepKind::output_projection: return last ? "=" : "·";
    case StepKind::score:             return last ? "ᵀ =" : "·";
    case StepKind::scale:             return "× " + s.scalar_name + " =";
    case StepKind::mask:              return "+ mask →";
    case StepKind::softmax:           return "softmax →";
    case StepKind::concat_heads:      return last ? "=" : "|";
    case StepKind::layer_norm:        return last ? "LayerNorm →" : "";
    case StepKind::feed_forward:      return last ? "· W2 + b2 =" : "relu(x·W1 + b1) →";
    case StepKind::context_layer:     return last ? "→" : "";
    case StepKind::tokens:
    case StepKind::embedding:
    case StepKind::next_token:        break;
  }
  return last ? "→" : "";
}

// Steps whose result cells are sums of their terms, so a cell can be shown filling up term by
// term (the running dot product) while it is computed.
bool sums_terms(StepKind kind) {
  return kind == StepKind::score || kind == StepKind::project_q || kind == StepKind::project_k ||
         kind == StepKind::project_v || kind == StepKind::blend || kind == StepKind::output_projection;
}

}  // namespace

// [SECTION] The step view ----------------------------------------------------------------------

float PlaybackWidget::draw_step_view(const Painter& p, ImVec2 pos, float width) {
  const Step* s = current_step();
  if (!s) return 0;
  const Palette& c = p.colors();
  const float t = fill();
  float y = pos.y;
  const std::string header = tr("playback.step_header", {{"n", std::to_string(controller_.index() + 1)},
                                                         {"total", std::to_string(controller_.count())}, {"title", s->title}});
  y += p.text(ImVec2(pos.x, y), header, c.text, p.bold(), 0, width, false).y + p.px(8);

  if (s->kind == StepKind::tokens) {
    const int shown = static_cast<int>(std::ceil(t * static_cast<float>(trace_->labels.size())));
    return y + draw_tokens(p, ImVec2(pos.x, y), width, *trace_, std::max(shown, 1)) - pos.y;
  }
  if (s->kind == StepKind::next_token)
    return y + draw_next_token_bars(p, ImVec2(pos.x, y), width, *s, t) - pos.y;

  // The result fills row by row while the cell the caption speaks about (the step's focus)
  // shows its running sum, with its operands lit: what is lit is what is said.
  const Matrix& r = s->result.values;
  const int total = static_cast<int>(r.size());
  const int revealed = t >= 1.0f ? total : static_cast<int>(std::floor(t * static_cast<float>(total)));
  const bool done = revealed >= total;
  const Cell computing = s->focus;
  float partial = NAN;
  const auto cell_index = static_cast<std::size_t>(computing.row * r.cols() + computing.col);
  if (!done && sums_terms(s->kind) && computing.row >= 0 && cell_index < s->cell_terms.size()) {
    const CellTerms& cell = s->cell_terms[cell_index];
    const auto n = static_cast<std::size_t>(std::ceil(t * static_cast<float>(cell.terms.size())));
    partial = 0;
    for (std::size_t k = 0; k < n && k < cell.terms.size(); ++k) partial += cell.terms[k].a * cell.terms[k].b;
  }

  std::vector<MatrixStyle> items;
  for (std::size_t k = 0; k < s->inputs.size(); ++k) {
    MatrixStyle m;
    m.matrix = &s->inputs[k];
    m.heat = heat_of(*s, static_cast<int>(k));
    const InputFocus f = input_focus(*s, k, computing);
    m.lit_row = f.row;
    m.lit_col = f.col;
    m.spoken = input_focus(*s, k, s->focus).spoken;
    items.push_back(std::move(m));
  }
  MatrixStyle result;
  result.matrix = &s->result;
  result.heat = heat_of(*s, -1);
  result.revealed = revealed;
  if (!done) { result.current = computing; result.partial = partial; }
  result.spoken = {s->focus};
  if (!s->masked_cells.empty() && (s->kind == StepKind::mask || s->kind == StepKind::softmax)) result.masked = &s->masked_cells;
  items.push_back(std::move(result));

  // Lay the matrices out left to right with their operators, wrapping onto new rows.
  const float gap = p.px(10);
  float x = pos.x, row_h = 0;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const MatrixLayout l = layout_matrix(p, items[k], width);
    if (x > pos.x && x + l.size.x > pos.x + width) { x = pos.x; y += row_h + gap; row_h = 0; }
    const ImVec2 at(x, y);
    const Cell hovered = draw_matrix(p, at, items[k], l);
    if (hovered.row >= 0) {
      const bool is_result = k + 1 == items.size();
      const NamedMatrix& m = *items[k].matrix;
      ImGui::SetTooltip("%s", is_result ? narrate(*trace_, *s, hovered).c_str()
                                        : (m.name + " = " + format_number(m.values(hovered.row, hovered.col))).c_str());
    }
    x += l.size.x + gap;
    row_h = std::max(row_h, l.size.y);
    if (k + 1 < items.size()) {
      const std::string op = operator_after(*s, k);
      if (op.empty()) continue;
      const ImVec2 size = p.measure(p.bold(), 0, op);
      if (x + size.x > pos.x + width) {  // no room after the matrix: the operator gets a line of its own
        x = pos.x;
        y += row_h + gap * 0.5f;
        p.text(ImVec2(x, y), op, c.muted, p.bold());
        y += size.y + gap * 0.5f;
        row_h = 0;
        continue;
      }
      p.text(ImVec2(x, y + std::max(row_h, size.y * 2) * 0.5f), op, c.muted, p.bold());
      x += size.x + gap;
    }
  }
  return y + row_h - pos.y;
}

// [SECTION] Caption ----------------------------------------------------------------------------

float PlaybackWidget::draw_caption(const Painter& p, ImVec2 pos, float width) {
  const CaptionStep* caption = controller_.current();
  if (!caption) return 0;
  const Palette& c = p.colors();
  const float pad = p.px(12);
  const std::vector<std::string> lines = p.wrap(p.body(), 0, caption->caption, width - 2 * pad - p.px(4));
  const float line_h = p.body_size() * 1.25f;
  const ImVec2 end(pos.x + width, pos.y + line_h * static_cast<float>(lines.size()) + 2 * pad);
  p.draw->AddRectFilled(pos, end, c.panel, p.px(6));
  p.draw->AddRectFilled(pos, ImVec2(pos.x + p.px(4), end.y), c.accent, p.px(2));
  // The caption is what the narrator says; not recorded, so tests see what the rest of the board shows.
  for (std::size_t i = 0; i < lines.size(); ++i)
    p.text(ImVec2(pos.x + pad + p.px(4), pos.y + pad + line_h * static_cast<float>(i)), lines[i], c.text, p.body(), 0, 0, false);
  return end.y - pos.y;
}

}  // namespace neuralpath::ui
