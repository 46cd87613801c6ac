// mask_steps.cpp: one score matrix through raw -> scaled -> masked (−∞) -> softmax, one stage
// at a time, from the Trace's score/scale/mask/softmax steps; then three common mistakes made
// live with the engine's own functions applied the wrong way:
//   mask after softmax   softmax_rows(scaled), then the hidden cells zeroed: rows stop summing to 1
//   no √d_k              attention_naive's raw scores put through softmax_rows unscaled, for
//                        seeded unit-variance q and k of growing d: the weights go one-hot
//   wrong transpose      validate_attention_inputs(Q, Kᵀ, ...): the engine's shape error
//
// [SECTION] Model (engine runs on change; the mistakes computed once per sentence or d)
// [SECTION] Drawing: the four stages
// [SECTION] Drawing: the mistakes
// [SECTION] State and commands
#include "engine/core/attention.h"
#include "engine/core/block.h"
#include "engine/core/embedding.h"
#include "engine/core/error.h"
#include "engine/core/format.h"
#include "engine/core/narration.h"
#include "engine/core/softmax.h"
#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/grid.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/readout.h"
#include "engine/ui/widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <string_view>
#include <cmath>
#include <limits>

namespace neuralpath::ui {
namespace {

using nlohmann::json;
using lesson::MaskStage;

constexpr int kMaxGridTokens = 16;        // four stages of a T×T grid: keep them legible
constexpr int kMinLogD = 1, kMaxLogD = 10;  // the "no √d_k" slider: d_k = 2 .. 1024
constexpr std::uint64_t kDemoSeed = 2024;   // seeds the unit-variance q and k of that demo

enum class Mistake { after_softmax, no_scale, transpose };
const char* mistake_name(Mistake m) {
  switch (m) {
    case Mistake::after_softmax: return "mask-after-softmax";
    case Mistake::no_scale:      return "no-scale";
    case Mistake::transpose:     return "wrong-transpose";
  }
  return "";
}

StepKind step_for(MaskStage stage) {
  switch (stage) {
    case MaskStage::Raw:     return StepKind::score;
    case MaskStage::Scaled:  return StepKind::scale;
    case MaskStage::Masked:  return StepKind::mask;
    case MaskStage::Softmax: return StepKind::softmax;
  }
  return StepKind::score;
}

// The "no √d_k" demo at one d_k: one query against T keys, all entries unit variance.
struct ScaleDemo {
  int    d = 0;
  Vector with_scale;     // attention_naive's weights (scaled by 1/√d_k)
  Vector without_scale;  // softmax_rows of its raw scores: the mistake
  float  max_with = 0, max_without = 0;
};

ScaleDemo run_scale_demo(int d, int keys) {
  // q, k, v entries uniform in ±√3 have variance 1, like the unit-variance vectors the
  // "why divide by √d_k" argument assumes; the engine's seeded generator makes them.
  std::uint64_t state = kDemoSeed ^ static_cast<std::uint64_t>(d);
  const float a = std::sqrt(3.0f);
  Matrix q(1, d), k(keys, d);
  for (Index c = 0; c < d; ++c) q(0, c) = uniform_from(state, -a, a);
  for (Index r = 0; r < keys; ++r)
    for (Index c = 0; c < d; ++c) k(r, c) = uniform_from(state, -a, a);
  const AttentionResult r = attention_naive(q, k, k, Mask::none());
  ScaleDemo demo;
  demo.d = d;
  demo.with_scale = r.weights.row(0).transpose();
  demo.without_scale = softmax_rows(r.scores).row(0).transpose();  // the mistake: no 1/√d_k
  demo.max_with = demo.with_scale.maxCoeff();
  demo.max_without = demo.without_scale.maxCoeff();
  return demo;
}

class MaskStepsWidget final : public Widget {
 public:
  MaskStepsWidget(const lesson::MaskSteps& block, const ModelSpec& spec);

  const char* kind() const override { return "mask-steps"; }
  void draw(const UiContext& ui) override;
  json state() const override;
  std::optional<std::string> command(const json& message) override;
  std::vector<json> take_events() override { return explain_.take_events(); }

 private:
  std::optional<std::string> run(const std::string& sentence);
  void compute_mistakes();
  void set_log_d(int log_d);
  const Step* stage_step() const;

  void draw_stages(const UiContext& ui, float width);
  void draw_after_softmax(const UiContext& ui, float width);
  void draw_no_scale(const UiContext& ui, float width);
  void draw_transpose(const UiContext& ui, float width);
  void draw_bars(const UiContext& ui, const char* id, const Vector& weights, float width, bool scaled);

  lesson::MaskSteps       block_;
  ModelSpec               spec_;
  std::vector<MaskStage>  stages_;
  int                     stage_ = 0;      // index into stages_
  int                     head_ = 0;
  std::string             sentence_;
  std::optional<Trace>    trace_;
  std::string             error_;
  std::optional<Cell>     selected_, hovered_;
  float                   low_ = 0, high_ = 0;  // finite range of the current stage (colours)

  Mistake                 mistake_ = Mistake::after_softmax;
  Matrix                  after_softmax_;       // softmax first, mask second
  Vector                  after_softmax_sums_;
  Vector                  correct_sums_;
  int                     log_d_ = 6;           // d_k = 64
  std::vector<ScaleDemo>  scale_curve_;         // one per slider position
  std::string             transpose_error_;     // the engine's message, or empty
  float                   transpose_difference_ = 0;  // when T = d_k: no error, wrong weights
  Explainer               explain_;
};

// [SECTION] Model ------------------------------------------------------------------------------

MaskStepsWidget::MaskStepsWidget(const lesson::MaskSteps& block, const ModelSpec& spec)
    : block_(block), spec_(spec), stages_(block.stages) {
  if (stages_.empty()) stages_ = {MaskStage::Raw, MaskStage::Scaled, MaskStage::Masked, MaskStage::Softmax};
  if (auto problem = run(block.sentence)) error_ = *problem;
}

std::optional<std::string> MaskStepsWidget::run(const std::string& sentence) {
  std::vector<Token> tokens;
  try {
    tokens = tokenize(sentence);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  if (tokens.empty()) return std::string("Type a sentence first: the grid needs at least one word.");
  if (static_cast<int>(tokens.size()) > kMaxGridTokens)
    return "That sentence has " + std::to_string(tokens.size()) + " tokens; the mask steps show at most " +
           std::to_string(kMaxGridTokens) + ". Try a shorter one.";
  TraceOptions options;
  options.mask = block_.causal ? Mask::causal_mask() : Mask::none();
  try {
    Trace trace = run_block(spec_, tokens, options);
    trace_ = std::move(trace);
  } catch (const InputError& e) {
    return std::string("The engine could not run this sentence: ") + e.what();
  }
  sentence_ = sentence;
  head_ = std::clamp(head_, 0, trace_->heads - 1);
  selected_.reset();
  compute_mistakes();
  error_.clear();
  return std::nullopt;
}

const Step* MaskStepsWidget::stage_step() const {
  return trace_ ? find_step(*trace_, step_for(stages_[static_cast<std::size_t>(stage_)]), head_) : nullptr;
}

void MaskStepsWidget::compute_mistakes() {
  const Trace& t = *trace_;
  const Step* scale = find_step(t, StepKind::scale, head_);
  const Step* softmax = find_step(t, StepKind::softmax, head_);
  const Step* score = find_step(t, StepKind::score, head_);
  if (!scale || !softmax || !score) return;

  // Mistake 1: softmax over every key first, then the causal mask zeroes the future cells.
  // The causal mask is used even when the block runs without one: the mistake needs a mask.
  const Mask causal = Mask::causal_mask();
  after_softmax_ = softmax_rows(scale->result.values);
  for (Index i = 0; i < after_softmax_.rows(); ++i)
    for (Index j = 0; j < after_softmax_.cols(); ++j)
      if (causal.hides(i, j)) after_softmax_(i, j) = 0.0f;
  after_softmax_sums_ = after_softmax_.rowwise().sum();
  correct_sums_ = softmax->result.values.rowwise().sum();

  // Mistake 2: the scaling left out, for d_k = 2 .. 1024 (one engine run per slider stop).
  scale_curve_.clear();
  const int keys = std::max<int>(static_cast<int>(t.tokens.size()), 2);
  for (int e = kMinLogD; e <= kMaxLogD; ++e) scale_curve_.push_back(run_scale_demo(1 << e, keys));

  // Mistake 3: Kᵀ passed where K belongs. The engine's shape check names the problem unless
  // T happens to equal d_k, in which case the shapes line up and the weights are silently wrong.
  const Matrix& q = score->inputs.at(0).values;
  const Matrix& k = score->inputs.at(1).values;
  const Matrix kt = k.transpose();
  transpose_error_.clear();
  transpose_difference_ = 0;
  try {
    validate_attention_inputs(q, kt, kt, t.mask);
    const AttentionResult wrong = attention_naive(q, kt, kt, t.mask);
    transpose_difference_ = (wrong.weights - softmax->result.values).cwiseAbs().maxCoeff();
  } catch (const InputError& e) {
    transpose_error_ = e.what();
  }
}

void MaskStepsWidget::set_log_d(int log_d) { log_d_ = std::clamp(log_d, kMinLogD, kMaxLogD); }

// [SECTION] Drawing: the four stages -----------------------------------------------------------

void MaskStepsWidget::draw(const UiContext& ui) {
  ImGui::PushID(this);
  kit::Card card(ui, "mask-steps");
  const float width = card.inner_width();
  const Palette& c = ui.colors();
  if (!trace_) {
    kit::title(ui, "Mask steps");
    kit::wrapped(ui, "These steps cannot be shown: " + error_, c.bad);
  } else {
    draw_stages(ui, width);
    kit::gap(ui, 10);
    kit::rule(ui, width);
    kit::gap(ui, 4);
    kit::title(ui, "Three common mistakes, made live");
    const int picked = kit::segmented(ui, "mistake", {"Mask after softmax", "No √d_k", "Wrong transpose"},
                                      static_cast<int>(mistake_), width);
    if (picked >= 0) mistake_ = static_cast<Mistake>(picked);
    kit::gap(ui, 4);
    switch (mistake_) {
      case Mistake::after_softmax: draw_after_softmax(ui, width); break;
      case Mistake::no_scale:      draw_no_scale(ui, width); break;
      case Mistake::transpose:     draw_transpose(ui, width); break;
    }
  }
  const std::string caption = lesson::plain_text(block_.caption);
  if (!caption.empty()) {
    kit::gap(ui, 4);
    kit::wrapped(ui, caption, c.muted, kit::Face::small);
  }
  card.end();
  explain_.draw_popup(ui);
  ImGui::PopID();
}

void MaskStepsWidget::draw_stages(const UiContext& ui, float width) {
  const Trace& t = *trace_;
  const Palette& c = ui.colors();
  std::vector<std::string> labels;
  const char* names[] = {"Raw scores", "Scaled", "Masked", "Softmax"};
  for (std::size_t i = 0; i < stages_.size(); ++i)
    labels.push_back(std::to_string(i + 1) + " · " + names[static_cast<int>(stages_[i])]);
  const int picked = kit::segmented(ui, "stage", labels, stage_, width);
  if (picked >= 0) stage_ = picked;
  if (t.heads > 1) {
    std::vector<std::string> heads;
    for (int h = 0; h < t.heads; ++h) heads.push_back("Head " + std::to_string(h + 1));
    const int head = kit::segmented(ui, "head", heads, head_, width);
    if (head >= 0 && head != head_) {
      head_ = head;
      compute_mistakes();
    }
  }
  const Step* step = stage_step();
  if (!step) return;
  const MaskStage stage = stages_[static_cast<std::size_t>(stage_)];
  const std::string d = format_sqrt(t.d_head);
  const std::string formula[] = {"scores = Q·Kᵀ  (one dot product per query and key)",
                                 "scaled = scores / " + d + "  (d_k = " + std::to_string(t.d_head) + ")",
                                 t.mask.causal ? "masked = scaled, with −∞ wherever a key lies in the query's future"
                                               : "masked = scaled (this block has no mask: nothing is hidden)",
                                 "weights = softmax(masked), row by row: exp(s − max) / Σ exp(s − max)"};
  kit::wrapped(ui, formula[static_cast<int>(stage)], c.accent, kit::Face::mono);
  kit::gap(ui, 2);

  // Colours: the weights on their own 0..1 scale; scores on the stage's finite range.
  const Matrix& m = step->result.values;
  low_ = std::numeric_limits<float>::max();
  high_ = std::numeric_limits<float>::lowest();
  for (Index i = 0; i < m.size(); ++i)
    if (std::isfinite(m.data()[i])) {
      low_ = std::min(low_, m.data()[i]);
      high_ = std::max(high_, m.data()[i]);
    }
  GridSpec grid;
  grid.id = "stage-grid";
  grid.rows = grid.cols = t.labels;
  grid.selected = selected_;
  grid.cell = [&](int r, int k) {
    GridCell cell;
    const float v = m(r, k);
    const bool hidden = stage >= MaskStage::Masked && t.mask.hides(r, k);
    cell.blocked = hidden;
    cell.text = format_number(v);
    cell.fallback = hidden ? "⊘" : "";
    const float level = stage == MaskStage::Softmax ? v : high_ > low_ ? (v - low_) / (high_ - low_) : 0.5f;
    cell.fill = heat_color(ui.theme, level);
    return cell;
  };
  if (stage == MaskStage::Softmax) {
    const Vector sums = m.rowwise().sum();
    grid.row_end_title = "row sum";
    for (Index r = 0; r < sums.size(); ++r) {
      grid.row_end.push_back(format_number(sums[r]));
      grid.row_end_color.push_back(c.good);
    }
    grid.explain_row_end = [this, sums](int r) {
      Explanation e;
      e.title = "Row of " + quote_token(trace_->labels[static_cast<std::size_t>(r)]) + " sums to " + format_number(sums[r]);
      e.formula = "Σ_j softmax(s)_j = 1";
      e.text = "The mask came before the softmax, so the hidden keys were already −∞: exp(−∞) = 0, and the "
               "visible keys share the whole row.";
      return e;
    };
  }
  const GridResult result = draw_grid(ui, grid, width, explain_);
  hovered_ = result.hovered;
  if (result.picked) {
    selected_ = result.picked;
    explain_.open([&] {
      Explanation e;
      e.title = step->title;
      e.text = narrate(t, *step, *selected_);
      if (const CellTerms* terms = find_terms(*step, *selected_); terms && step->kind == StepKind::score)
        e.inputs.push_back({"q×k", products_text(*terms, 8) + " = " + format_number(terms->value)});
      return e;
    }());
  }
  const std::optional<Cell> shown = hovered_ ? hovered_ : selected_;
  kit::gap(ui, 4);
  kit::wrapped(ui, shown ? narrate(t, *step, *shown) : step->narration, c.text, kit::Face::small);

  ImGui::PushID("nav");
  if (stage_ > 0) {
    if (kit::button(ui, "◀ Back")) --stage_;
    ImGui::SameLine(0, ui.px(8));
  }
  if (stage_ + 1 < static_cast<int>(stages_.size())) {
    if (kit::button(ui, "Next ▶", true)) ++stage_;
  }
  ImGui::PopID();
}

// [SECTION] Drawing: the mistakes --------------------------------------------------------------

void MaskStepsWidget::draw_after_softmax(const UiContext& ui, float width) {
  const Trace& t = *trace_;
  const Palette& c = ui.colors();
  kit::wrapped(ui, "wrong:  weights = softmax(scaled), then zero the future   →   rows no longer sum to 1",
               c.bad, kit::Face::mono);
  GridSpec grid;
  grid.id = "after-softmax";
  grid.rows = grid.cols = t.labels;
  const Mask causal = Mask::causal_mask();
  grid.cell = [&](int r, int k) {
    GridCell cell;
    cell.blocked = causal.hides(r, k);
    cell.text = format_number(after_softmax_(r, k));
    cell.fallback = cell.blocked ? "⊘" : "";
    cell.fill = heat_color(ui.theme, after_softmax_(r, k));
    return cell;
  };
  grid.row_end_title = "row sum";
  for (Index r = 0; r < after_softmax_sums_.size(); ++r) {
    const bool whole = format_number(after_softmax_sums_[r]) == format_number(1.0f);
    grid.row_end.push_back(format_number(after_softmax_sums_[r]));
    grid.row_end_color.push_back(whole ? c.good : c.bad);
  }
  grid.explain_row_end = [this](int r) {
    Explanation e;
    e.title = "Row of " + quote_token(trace_->labels[static_cast<std::size_t>(r)]) + " sums to " +
              format_number(after_softmax_sums_[r]);
    e.formula = "Σ_j w_ij over the visible keys only";
    e.inputs.push_back({"with the mask before softmax", format_number(correct_sums_[r])});
    e.text = "Softmax shared the row among all keys, future ones included; zeroing the future afterwards "
             "throws their share away, so what is left sums to less than 1.";
    return e;
  };
  draw_grid(ui, grid, width, explain_);
  kit::wrapped(ui, "Fix: add −∞ to the hidden scores before the softmax (stage 3), so the visible keys share the whole row.",
               c.muted, kit::Face::small);
}

void MaskStepsWidget::draw_bars(const UiContext& ui, const char* id, const Vector& weights, float width, bool scaled) {
  const Trace& t = *trace_;
  const Palette& c = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int n = static_cast<int>(weights.size());
  const float gap = ui.px(3);
  const float bar_w = std::max(ui.px(6), (width - gap * static_cast<float>(n - 1)) / static_cast<float>(n));
  const float bar_h = ui.px(64);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::PushID(id);
  for (int j = 0; j < n; ++j) {
    const float w = weights[j];
    const ImVec2 min(origin.x + (bar_w + gap) * static_cast<float>(j), origin.y);
    const ImVec2 max(min.x + bar_w, origin.y + bar_h);
    draw->AddRectFilled(min, max, c.page, ui.px(2));
    draw->AddRectFilled(ImVec2(min.x, max.y - bar_h * std::clamp(w, 0.0f, 1.0f)), max, heat_color(ui.theme, w), ui.px(2));
    ImGui::PushID(j);
    explain_.area(ui, "##bar", min, max, [&, j, w] {
      Explanation e;
      const std::string key = j < static_cast<int>(t.labels.size()) ? quote_token(t.labels[static_cast<std::size_t>(j)])
                                                                      : "key " + std::to_string(j);
      e.title = "Weight of " + key + ": " + format_number(w) + (scaled ? " (scaled by 1/√d_k)" : " (no scaling)");
      e.formula = scaled ? "w = softmax(q·k / √d_k)" : "w = softmax(q·k)   ← the mistake";
      e.text = "One query and " + std::to_string(n) + " keys with unit-variance entries, d_k = " +
               std::to_string(1 << log_d_) + ". The dot products spread like √d_k; " +
               (scaled ? "dividing by √d_k brings them back to spread 1, so several keys keep a share."
                       : "left unscaled, the largest one dominates the exponent and takes nearly everything.");
      return e;
    });
    ImGui::PopID();
    if (bar_w >= kit::text_size(small, "0.00").x + ui.px(2)) {
      const std::string text = format_number(w);
      draw->AddText(small, small->FontSize,
                    ImVec2(min.x + (bar_w - kit::text_size(small, text).x) * 0.5f, max.y + ui.px(2)), c.muted,
                    text.c_str());
    }
  }
  ImGui::PopID();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + bar_h + small->FontSize + ui.px(6)));
  ImGui::Dummy(ImVec2(width, 0));
}

void MaskStepsWidget::draw_no_scale(const UiContext& ui, float width) {
  const Palette& c = ui.colors();
  const ScaleDemo& demo = scale_curve_[static_cast<std::size_t>(log_d_ - kMinLogD)];
  kit::wrapped(ui, "wrong:  weights = softmax(Q·Kᵀ)   — the 1/√d_k left out", c.bad, kit::Face::mono);
  ImGui::PushID("d");
  int log_d = log_d_;
  ImGui::SetNextItemWidth(std::min(width, ui.px(360)));
  const std::string label = "d_k = " + std::to_string(demo.d);
  kit::push_field_style(ui);
  if (ImGui::SliderInt("##logd", &log_d, kMinLogD, kMaxLogD, label.c_str())) set_log_d(log_d);
  kit::pop_field_style();
  ImGui::PopID();
  const auto readout = [&](const char* id, const std::string& lead, float value, ImU32 color, bool scaled) {
    kit::Flow flow(width, ui.px(5), ui.px(2));
    ImFont* body = kit::font(ui, kit::Face::body);
    flow.place(kit::text_size(body, lead));
    ImGui::TextUnformatted(lead.c_str());
    const std::string text = format_number(value);
    flow.place(kit::text_size(kit::font(ui, kit::Face::bold), text));
    NumberStyle style;
    style.bold = true;
    style.color = color;
    explain_.number(ui, id, text, [&, scaled] {
      Explanation e;
      e.title = std::string("Largest weight ") + (scaled ? "with" : "without") + " 1/√d_k at d_k = " +
                std::to_string(demo.d) + ": " + format_number(value);
      e.inputs.push_back({"keys", std::to_string(demo.with_scale.size())});
      for (const ScaleDemo& point : scale_curve_)
        e.inputs.push_back({"d_k = " + std::to_string(point.d),
                            format_number(scaled ? point.max_with : point.max_without)});
      e.text = scaled ? "With the scaling the largest weight stays moderate at every d_k."
                      : "Without it the largest weight climbs towards 1 as d_k grows: the softmax saturates "
                        "into a near one-hot choice and its gradients vanish.";
      return e;
    }, style);
    flow.end();
  };
  readout("##with", "with ÷√d_k, largest weight:", demo.max_with, c.good, true);
  draw_bars(ui, "with", demo.with_scale, width, true);
  readout("##without", "without it, largest weight:", demo.max_without, c.bad, false);
  draw_bars(ui, "without", demo.without_scale, width, false);
  kit::wrapped(ui, "Drag d_k up: the unscaled weights collapse onto one key while the scaled ones stay spread. "
                   "(Seeded random unit-variance q and k, one query against one key per token.)",
               c.muted, kit::Face::small);
}

void MaskStepsWidget::draw_transpose(const UiContext& ui, float /*width*/) {
  const Trace& t = *trace_;
  const Palette& c = ui.colors();
  const Step* score = find_step(t, StepKind::score, head_);
  if (!score) return;
  const Matrix& q = score->inputs.at(0).values;
  const Matrix& k = score->inputs.at(1).values;
  kit::wrapped(ui, "right:  scores = Q @ K.T   # " + shape_text(q.rows(), q.cols()) + " @ " +
                       shape_text(k.cols(), k.rows()) + " → " + shape_text(q.rows(), k.rows()),
               c.good, kit::Face::mono);
  kit::wrapped(ui, "wrong:  scores = Q @ K     # " + shape_text(q.rows(), q.cols()) + " @ " +
                       shape_text(k.rows(), k.cols()),
               c.bad, kit::Face::mono);
  kit::gap(ui, 4);
  if (!transpose_error_.empty()) {
    kit::wrapped(ui, "Passing Kᵀ where the kernel expects K, the engine stops with:", c.text, kit::Face::small);
    kit::wrapped(ui, "InputError: " + transpose_error_, c.bad, kit::Face::mono);
    kit::wrapped(ui, "NumPy and PyTorch stop the same way at the matmul: the inner sizes " + std::to_string(q.cols()) +
                         " and " + std::to_string(k.rows()) + " differ. With a batch the shapes read like (1, " +
                         std::to_string(q.rows()) + ", " + std::to_string(q.cols()) + ") @ (1, " +
                         std::to_string(k.rows()) + ", " + std::to_string(k.cols()) +
                         "): transpose the last two axes, K.transpose(-2, -1), never the batch axis.",
                 c.muted, kit::Face::small);
  } else {
    kit::wrapped(ui, "No error here: T = d_k = " + std::to_string(q.cols()) +
                         ", so the shapes line up by accident and the weights are silently wrong.",
                 c.bad, kit::Face::small);
    ImGui::TextUnformatted("largest change in a weight:");
    ImGui::SameLine();
    explain_.number(ui, "##diff", format_number(transpose_difference_), [this] {
      Explanation e;
      e.title = "max |w_wrong − w_right| = " + format_number(transpose_difference_);
      e.text = "attention_naive run with Kᵀ in place of K, compared cell by cell with the trace's softmax "
               "weights. Square shapes hide this bug; a test with T ≠ d_k would have caught it.";
      return e;
    });
  }
}

// [SECTION] State and commands -----------------------------------------------------------------

json MaskStepsWidget::state() const {
  json stages = json::array();
  for (MaskStage s : stages_) stages.push_back(lesson::mask_stage_name(s));
  json s = {{"kind", "mask-steps"}, {"stages", stages}, {"stage_index", stage_},
            {"stage", lesson::mask_stage_name(stages_[static_cast<std::size_t>(stage_)])},
            {"causal", block_.causal}, {"mistake", mistake_name(mistake_)}, {"explained", explain_.state()}};
  if (!error_.empty()) s["error"] = error_;
  const Step* step = stage_step();
  if (!trace_ || !step) return s;
  const auto rows = [](const Matrix& m) {
    json out = json::array();
    for (Index i = 0; i < m.rows(); ++i) {
      json row = json::array();
      for (Index j = 0; j < m.cols(); ++j) row.push_back(std::isfinite(m(i, j)) ? json(m(i, j)) : json(nullptr));
      out.push_back(row);
    }
    return out;
  };
  s["sentence"] = sentence_;
  s["tokens"] = trace_->labels;
  s["head"] = head_;
  s["heads"] = trace_->heads;
  s["matrix"] = rows(step->result.values);  // −∞ (masked) as null
  json masked = json::array();
  for (const Cell& cell : step->masked_cells) masked.push_back({cell.row, cell.col});
  s["masked"] = masked;
  if (step->kind == StepKind::softmax) {
    const Vector sums = step->result.values.rowwise().sum();
    s["row_sums"] = std::vector<float>(sums.data(), sums.data() + sums.size());
  }
  const ScaleDemo& demo = scale_curve_[static_cast<std::size_t>(log_d_ - kMinLogD)];
  json curve = json::array();
  for (const ScaleDemo& p : scale_curve_) curve.push_back({{"d", p.d}, {"with", p.max_with}, {"without", p.max_without}});
  s["mistakes"] = {
      {"mask_after_softmax", {{"weights", rows(after_softmax_)},
                              {"row_sums", std::vector<float>(after_softmax_sums_.data(),
                                                              after_softmax_sums_.data() + after_softmax_sums_.size())}}},
      {"no_scale", {{"d", demo.d}, {"max_with", demo.max_with}, {"max_without", demo.max_without},
                    {"with", std::vector<float>(demo.with_scale.data(), demo.with_scale.data() + demo.with_scale.size())},
                    {"without", std::vector<float>(demo.without_scale.data(),
                                                   demo.without_scale.data() + demo.without_scale.size())},
                    {"curve", curve}}},
      {"wrong_transpose", {{"error", transpose_error_}, {"max_difference", transpose_difference_}}}};
  return s;
}

constexpr std::string_view kCommands[] = {"setSentence", "stage", "mistake", "setHead"};

std::optional<std::string> MaskStepsWidget::command(const json& message) {
  const std::string type = message.value("type", std::string());
  // Anything else gets the base reply ("this widget does not take ..."), so the App tries the
  // next widget.
  if (std::find(std::begin(kCommands), std::end(kCommands), type) == std::end(kCommands))
    return Widget::command(message);
  if (type == "setSentence") {
    if (!message.contains("text") || !message["text"].is_string()) return std::string("setSentence needs a string \"text\"");
    return run(message["text"].get<std::string>());
  }
  if (!trace_) return "the mask steps have no sentence to work on: " + error_;
  if (type == "stage") {
    const json& v = message.contains("stage") ? message["stage"] : json();
    int index = -1;
    if (v.is_number_integer()) index = v.get<int>();
    if (v.is_string())
      if (const auto stage = lesson::parse_mask_stage(v.get<std::string>()))
        for (std::size_t i = 0; i < stages_.size(); ++i)
          if (stages_[i] == *stage) index = static_cast<int>(i);
    if (index < 0 || index >= static_cast<int>(stages_.size()))
      return std::string("\"stage\" is one of this widget's stages (raw, scaled, masked, softmax) or its index");
    stage_ = index;
    return std::nullopt;
  }
  if (type == "mistake") {
    const std::string name = message.contains("mistake") && message["mistake"].is_string()
                                 ? message["mistake"].get<std::string>() : std::string();
    bool found = false;
    for (Mistake m : {Mistake::after_softmax, Mistake::no_scale, Mistake::transpose})
      if (name == mistake_name(m)) {
        mistake_ = m;
        found = true;
      }
    if (!found) return std::string("\"mistake\" is mask-after-softmax, no-scale or wrong-transpose");
    if (const auto d = int_field(message, "d")) {
      int log_d = 0;
      while ((1 << log_d) < *d && log_d < kMaxLogD) ++log_d;
      if ((1 << log_d) != *d || log_d < kMinLogD) return std::string("\"d\" is a power of two from 2 to 1024");
      set_log_d(log_d);
    }
    return std::nullopt;
  }
  if (type == "setHead") {
    const int head = int_field(message, "head").value_or(-1);
    if (head < 0 || head >= trace_->heads) return "\"head\" must be 0.." + std::to_string(trace_->heads - 1);
    head_ = head;
    compute_mistakes();
    return std::nullopt;
  }
  return Widget::command(message);
}

}  // namespace

std::unique_ptr<Widget> make_mask_steps_widget(const lesson::MaskSteps& block, const ModelSpec& spec) {
  return std::make_unique<MaskStepsWidget>(block, spec);
}

}  // namespace neuralpath::ui
