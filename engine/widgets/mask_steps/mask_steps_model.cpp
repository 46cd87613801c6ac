// mask_steps_model.cpp: the mask steps' engine run, the mistakes (from engine/core), commands,
// state and explanations (mask_steps_model.h).
#include "engine/widgets/mask_steps/mask_steps_model.h"

#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"
#include "engine/widgets/command_result.h"
#include "engine/widgets/step_through.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

constexpr std::uint64_t kDemoSeed = 2024;  // seeds the unit-variance q and k of the "no √d_k" demo

StepKind step_for(MaskStage stage) {
  switch (stage) {
    case MaskStage::Raw: return StepKind::score;
    case MaskStage::Scaled: return StepKind::scale;
    case MaskStage::Masked: return StepKind::mask;
    case MaskStage::Softmax: return StepKind::softmax;
  }
  return StepKind::score;
}

}  // namespace

// [SECTION] The engine run and the mistakes ----------------------------------------------------

MaskStepsModel::MaskStepsModel(const MaskStepsSettings& settings, const lesson::Inline& caption, const ModelSpec& spec)
    : StepThroughModel(settings, caption, spec), stages_(settings.stages) {
  if (stages_.empty()) stages_ = kMaskStages.all();
  if (auto problem = run(settings.sentence)) error_ = *problem;
}

std::optional<std::string> MaskStepsModel::run(const std::string& sentence) {
  if (auto why = run_sentence(sentence, kMaxTokens, kKind)) return why;
  compute_mistakes();
  return std::nullopt;
}

const Step* MaskStepsModel::stage_step() const {
  return trace_ ? find_step(*trace_, step_for(stage()), head_) : nullptr;
}

void MaskStepsModel::compute_mistakes() {
  const Trace& t = *trace_;
  const Step* scale = find_step(t, StepKind::scale, head_);
  const Step* softmax = find_step(t, StepKind::softmax, head_);
  const Step* score = find_step(t, StepKind::score, head_);
  if (!scale || !softmax || !score) return;
  // 1. softmax over every key first, then the causal mask zeroes the future cells. The causal
  //    mask is used even when the block runs without one: the mistake needs a mask.
  after_softmax_ = mask_after_softmax(scale->result.values, Mask::causal_mask());
  correct_sums_ = softmax->result.values.rowwise().sum();
  // 2. the scaling left out, for d_k = 2 .. 1024 (one engine run per slider stop).
  scale_curve_.clear();
  const int keys = std::max<int>(static_cast<int>(t.tokens.size()), 2);
  for (int e = kMinLogD; e <= kMaxLogD; ++e) scale_curve_.push_back(scale_demo(1 << e, keys, kDemoSeed));
  // 3. Kᵀ passed where K belongs: the engine's shape error, unless T happens to equal d_k.
  transpose_ = wrong_transpose(score->inputs.at(0).values, score->inputs.at(1).values, t.mask, softmax->result.values);
}

const ScaleDemo& MaskStepsModel::scale_demo_now() const {
  return scale_curve_[static_cast<std::size_t>(log_d_ - kMinLogD)];
}

std::pair<float, float> MaskStepsModel::stage_range() const {
  if (const Step* step = stage_step()) return step_through::finite_range(step->result.values);
  return {std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest()};  // nothing shown: an empty range
}

bool MaskStepsModel::row_sum_whole(Index row) const {
  return format_number(after_softmax_.row_sums[row]) == format_number(1.0f);
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<MaskStepsModel::Command, CommandResult> MaskStepsModel::parse(const json& message) {
  if (auto common = step_through::parse_common<MaskStepsModel>(message, kMaskStages)) return *common;
  const std::string type = message.value("type", std::string());
  if (type == "mistake") {
    const std::string name = message.contains("mistake") && message["mistake"].is_string()
                                 ? message["mistake"].get<std::string>()
                                 : std::string();
    SetMistake m;
    const std::optional<Mistake> named = kMistakes.parse(name);
    if (!named) return CommandResult(tr("mask-steps.needs_mistake"));
    m.mistake = *named;
    if (const auto d = int_field(message, "d")) {
      int log_d = 0;
      while ((1 << log_d) < *d && log_d < kMaxLogD) ++log_d;
      if ((1 << log_d) != *d || log_d < kMinLogD) return CommandResult(tr("mask-steps.d_range"));
      m.log_d = log_d;
    }
    return Command(m);
  }
  return CommandResult::not_taken(type);
}

CommandResult MaskStepsModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) return run(c->text);
  if (!trace_) return tr("mask-steps.no_sentence", {{"error", error_}});
  if (const auto* c = std::get_if<SetStage>(&command)) {
    int index = c->index;
    if (c->stage)
      for (std::size_t i = 0; i < stages_.size(); ++i)
        if (stages_[i] == *c->stage) index = static_cast<int>(i);
    if (index < 0 || index >= static_cast<int>(stages_.size())) return tr("mask-steps.stage_range");
    stage_ = index;
    return {};
  }
  if (const auto* c = std::get_if<SetHead>(&command)) {
    if (auto why = refuse_head(c->head)) return *why;
    head_ = c->head;
    compute_mistakes();
    return {};
  }
  if (const auto* c = std::get_if<SelectCell>(&command)) {
    const int t = static_cast<int>(trace_->tokens.size());
    if (c->cell.row < 0 || c->cell.row >= t || c->cell.col < 0 || c->cell.col >= t)
      return tr("heatmap.cell_range", {{"last", std::to_string(t - 1)}});
    selected_ = c->cell;
    return {};
  }
  if (const auto* c = std::get_if<SetMistake>(&command)) {
    mistake_ = c->mistake;
    if (c->log_d) log_d_ = *c->log_d;
    return {};
  }
  if (const auto* c = std::get_if<SetLogD>(&command)) {
    log_d_ = std::clamp(c->log_d, kMinLogD, kMaxLogD);
    return {};
  }
  return {};
}

// [SECTION] Explanations -----------------------------------------------------------------------

std::string MaskStepsModel::stage_formula() const {
  const Trace& t = *trace_;
  switch (stage()) {
    case MaskStage::Raw: return tr("mask-steps.formula_raw");
    case MaskStage::Scaled:
      return tr("mask-steps.formula_scaled", {{"sqrt", format_sqrt(t.d_head)}, {"d", std::to_string(t.d_head)}});
    case MaskStage::Masked: return tr(t.mask.causal ? "mask-steps.formula_masked" : "mask-steps.formula_unmasked");
    case MaskStage::Softmax: return tr("mask-steps.formula_softmax");
  }
  return {};
}

Explanation MaskStepsModel::explain_stage_cell(Cell cell) const {
  const Step& step = *stage_step();
  Explanation e;
  e.title = step.title;
  e.text = narrate(*trace_, step, cell);
  if (const CellTerms* terms = find_terms(step, cell); terms && step.kind == StepKind::score)
    e.inputs.push_back({"q×k", products_text(*terms, 8) + " = " + format_number(terms->value)});
  return e;
}

Explanation MaskStepsModel::explain_stage_row_sum(int row) const {
  const Vector sums = stage_step()->result.values.rowwise().sum();
  return step_through::explain_row_sum(*trace_, row, sums[row], "mask-steps.");
}

Explanation MaskStepsModel::explain_after_softmax_row(int row) const {
  Explanation e;
  e.title = tr("mask-steps.row_title", {{"query", quote_token(trace_->labels[static_cast<std::size_t>(row)])},
                                        {"sum", format_number(after_softmax_.row_sums[row])}});
  e.formula = tr("mask-steps.after_row_formula");
  e.inputs.push_back({tr("mask-steps.after_row_input"), format_number(correct_sums_[row])});
  e.text = tr("mask-steps.after_row_text");
  return e;
}

Explanation MaskStepsModel::explain_bar(int key, float weight, bool scaled) const {
  const Trace& t = *trace_;
  const int n = static_cast<int>(scale_demo_now().with_scale.size());
  Explanation e;
  const std::string name = key < static_cast<int>(t.labels.size())
                               ? quote_token(t.labels[static_cast<std::size_t>(key)])
                               : tr("mask-steps.key_n", {{"n", std::to_string(key)}});
  e.title = tr(scaled ? "mask-steps.bar_title_scaled" : "mask-steps.bar_title_unscaled",
               {{"key", name}, {"weight", format_number(weight)}});
  e.formula = scaled ? "w = softmax(q·k / √d_k)" : tr("mask-steps.bar_formula_unscaled");
  e.text = tr(scaled ? "mask-steps.bar_text_scaled" : "mask-steps.bar_text_unscaled",
              {{"n", std::to_string(n)}, {"d", std::to_string(1 << log_d_)}});
  return e;
}

Explanation MaskStepsModel::explain_largest(bool scaled) const {
  const ScaleDemo& demo = scale_demo_now();
  Explanation e;
  e.title = tr(scaled ? "mask-steps.largest_title_with" : "mask-steps.largest_title_without",
               {{"d", std::to_string(demo.d)}, {"value", format_number(scaled ? demo.max_with : demo.max_without)}});
  e.inputs.push_back({tr("mask-steps.keys"), std::to_string(demo.with_scale.size())});
  for (const ScaleDemo& point : scale_curve_)
    e.inputs.push_back(
        {"d_k = " + std::to_string(point.d), format_number(scaled ? point.max_with : point.max_without)});
  e.text = tr(scaled ? "mask-steps.largest_text_with" : "mask-steps.largest_text_without");
  return e;
}

Explanation MaskStepsModel::explain_transpose_difference() const {
  Explanation e;
  e.title = "max |w_wrong − w_right| = " + format_number(transpose_.max_difference);
  e.text = tr("mask-steps.transpose_difference_text");
  return e;
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json MaskStepsModel::state() const {
  json stages = json::array();
  for (MaskStage s : stages_) stages.push_back(kMaskStages.name(s));
  json s = {{"kind", kKind},
            {"stages", stages},
            {"stage_index", stage_},
            {"stage", kMaskStages.name(stage())},
            {"causal", settings_.causal},
            {"mistake", kMistakes.name(mistake_)}};
  if (!error_.empty()) s["error"] = error_;
  const Step* step = stage_step();
  if (!trace_ || !step) return s;
  const auto rows = matrix_rows;
  const auto list = [](const Vector& v) { return std::vector<float>(v.data(), v.data() + v.size()); };
  s["sentence"] = sentence_;
  s["tokens"] = trace_->labels;
  s["head"] = head_;
  s["heads"] = trace_->heads;
  s["matrix"] = rows(step->result.values);  // −∞ (masked) as null
  json masked = json::array();
  for (const Cell& cell : step->masked_cells) masked.push_back({cell.row, cell.col});
  s["masked"] = masked;
  if (step->kind == StepKind::softmax) s["row_sums"] = list(step->result.values.rowwise().sum());
  const ScaleDemo& demo = scale_demo_now();
  json curve = json::array();
  for (const ScaleDemo& p : scale_curve_)
    curve.push_back({{"d", p.d}, {"with", p.max_with}, {"without", p.max_without}});
  s["mistakes"] = {
      {"mask_after_softmax", {{"weights", rows(after_softmax_.weights)}, {"row_sums", list(after_softmax_.row_sums)}}},
      {"no_scale",
       {{"d", demo.d},
        {"max_with", demo.max_with},
        {"max_without", demo.max_without},
        {"with", list(demo.with_scale)},
        {"without", list(demo.without_scale)},
        {"curve", curve}}},
      {"wrong_transpose", {{"error", transpose_.error}, {"max_difference", transpose_.max_difference}}}};
  s["summary"] = summary();
  s["table"] = table(*step).to_json();
  return s;
}

json MaskStepsModel::snapshot() const {
  json s = step_through::snapshot_common(trace_ ? sentence_ : settings_.sentence, stage_, head_);
  s["m"] = kMistakes.name(mistake_);
  s["d"] = 1 << log_d_;
  return s;
}

CommandResult MaskStepsModel::restore(const json& snapshot) {
  if (CommandResult common = step_through::restore_common(*this, snapshot); !common.done()) return common;
  auto mistake =
      parse({{"type", "mistake"}, {"mistake", snapshot.value("m", std::string())}, {"d", snapshot.value("d", 64)}});
  if (auto* c = std::get_if<Command>(&mistake)) (void)apply(*c);
  return {};
}

std::string MaskStepsModel::summary() const {
  const std::string name = kMaskStages.name(stage());
  return tr("mask-steps.summary", {{"n", std::to_string(stage_ + 1)},
                                   {"total", std::to_string(stages_.size())},
                                   {"stage", tr("mask-steps.stage." + name)},
                                   {"sentence", quoted(sentence_)}});
}

TextTable MaskStepsModel::table(const Step& step) const {
  const Trace& t = *trace_;
  const bool weights = step.kind == StepKind::softmax;
  const std::string name = kMaskStages.name(stage());
  TextTable table;
  table.caption = weights ? tr("heatmap.table_caption", {{"rows", tr("widgets.table_rows")}})
                          : tr("mask-steps.table_caption",
                               {{"stage", tr("mask-steps.stage." + name)}, {"rows", tr("widgets.table_rows")}});
  table.columns.push_back("");
  for (const std::string& label : t.labels) table.columns.push_back(label);
  const Matrix& m = step.result.values;
  for (Index r = 0; r < m.rows(); ++r) {
    TextTable::Row row{t.labels[static_cast<std::size_t>(r)], {}};
    for (Index c = 0; c < m.cols(); ++c) {
      const bool hidden = t.mask.hides(r, c) && (weights || !std::isfinite(m(r, c)));
      row.cells.push_back(hidden    ? tr("widgets.masked_cell")
                          : weights ? format_percent(m(r, c))
                                    : format_number(m(r, c)));
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void MaskStepsModel::describe(const MaskStepsSettings& w, json& out) {
  step_through::describe_stages(out, w, w.stages, kMaskStages, "widgets.stage.");
}

const WidgetKind& mask_steps_widget_kind() { return folder_widget_kind<MaskStepsModel>(); }

}  // namespace neuralpath::widgets
