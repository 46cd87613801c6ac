// split_join_model.cpp: the step-through's engine run, the matrix each stage shows, commands,
// state, narration and explanations (split_join_model.h). Every number is the trace's.
#include "engine/widgets/split_join/split_join_model.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/text/format_short.h"
#include "engine/trace/narration.h"
#include "engine/widgets/step_through.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

std::string n(long long value) { return std::to_string(value); }

// "1 word" or "9 words": a count in the narration with its plural form (key.one / key.other).
std::string counted(const char* key, long long count) { return tr_n(key, count, {{"n", n(count)}}); }

}  // namespace

// [SECTION] The engine run and what each stage shows -------------------------------------------

SplitJoinModel::SplitJoinModel(const SplitJoinSettings& settings, const lesson::Inline& caption, const ModelSpec& spec)
    : StepThroughModel(settings, caption, spec) {
  if (auto problem = run(settings.sentence)) error_ = *problem;
}

std::optional<std::string> SplitJoinModel::run(const std::string& sentence) {
  if (auto why = run_sentence(sentence, kMaxTokens, kKind)) return why;
  reshow();
  return std::nullopt;
}

bool SplitJoinModel::mistake_stage() const { return stage() == SplitStage::scale || stage() == SplitStage::softmax; }

bool SplitJoinModel::per_head() const {
  const SplitStage s = stage();
  return s != SplitStage::cut && s != SplitStage::concat && s != SplitStage::output;
}

const Step* SplitJoinModel::projection(Role role) const {
  const StepKind kind = role == Role::q   ? StepKind::project_q
                        : role == Role::k ? StepKind::project_k
                                          : StepKind::project_v;
  for (const Step& s : trace_->steps)
    if (s.kind == kind && s.layer == -1) return &s;
  return nullptr;
}

const Step* SplitJoinModel::step_for(SplitStage which) const {
  switch (which) {
    case SplitStage::cut: return projection(role_);
    case SplitStage::slice: return nullptr;  // three projections, sliced
    case SplitStage::scores: return find_step(*trace_, StepKind::score, head_);
    case SplitStage::scale: return find_step(*trace_, StepKind::scale, head_);
    case SplitStage::softmax: return find_step(*trace_, StepKind::softmax, head_);
    case SplitStage::mix: return find_step(*trace_, StepKind::blend, head_);
    case SplitStage::concat:
    case SplitStage::output: {
      const StepKind kind = which == SplitStage::concat ? StepKind::concat_heads : StepKind::output_projection;
      for (const Step& s : trace_->steps)
        if (s.kind == kind && s.layer == -1) return &s;
      return nullptr;
    }
  }
  return nullptr;
}

void SplitJoinModel::reshow() {
  const Trace& t = *trace_;
  const int d = t.d_model, dh = t.d_head;
  // The mistake for the current head: its raw scores ÷ √d_model, masked and softmaxed by the engine.
  wrong_ = scale_by_width(find_step(t, StepKind::score, head_)->result.values, d, t.mask);
  Shown s;
  const auto owner = [dh](int col) { return col / dh; };  // head h owns columns h·d_head .. (h+1)·d_head − 1
  switch (stage()) {
    case SplitStage::cut: {
      s.values = projection(role_)->result.values;
      for (int c = 0; c < d; ++c) {
        s.columns.push_back(role_name(role_) + n(c + 1));
        s.column_head.push_back(owner(c));
        s.lit.push_back(true);  // every head's columns, each in its colour
      }
      break;
    }
    case SplitStage::slice: {
      // Head h's columns of Q, K and V side by side, labelled with their place in the full matrix.
      const int first = head_ * dh;
      s.values.resize(static_cast<Index>(t.labels.size()), 3 * dh);
      int at = 0;
      for (Role r : {Role::q, Role::k, Role::v}) {
        s.values.middleCols(at, dh) = projection(r)->result.values.middleCols(first, dh);
        for (int c = 0; c < dh; ++c) {
          s.columns.push_back(role_name(r) + n(first + c + 1));
          s.column_head.push_back(head_);
          s.lit.push_back(true);
        }
        at += dh;
      }
      break;
    }
    case SplitStage::scores:
    case SplitStage::scale:
    case SplitStage::softmax: {
      s.values = step_for(stage())->result.values;
      if (mistake()) s.values = stage() == SplitStage::scale ? wrong_.scaled : wrong_.weights;
      s.columns = t.labels;
      s.column_head.assign(t.labels.size(), -1);
      s.lit.assign(t.labels.size(), true);
      s.weights = stage() == SplitStage::softmax;
      break;
    }
    case SplitStage::mix: {
      s.values = step_for(stage())->result.values;
      for (int c = 0; c < dh; ++c) {
        s.columns.push_back(n(head_ * dh + c + 1));  // where the column lands in the concat
        s.column_head.push_back(head_);
        s.lit.push_back(true);
      }
      break;
    }
    case SplitStage::concat:
    case SplitStage::output: {
      const Step* step = step_for(stage());
      s.values = step->result.values;
      for (int c = 0; c < d; ++c) {
        s.columns.push_back(stage() == SplitStage::concat ? n(c + 1)
                                                          : step->result.col_labels[static_cast<std::size_t>(c)]);
        s.column_head.push_back(stage() == SplitStage::concat ? owner(c) : -1);
        s.lit.push_back(stage() == SplitStage::output || owner(c) == head_);
      }
      break;
    }
  }
  shown_ = std::move(s);
}

std::pair<float, float> SplitJoinModel::shown_range() const { return step_through::finite_range(shown_.values); }

int SplitJoinModel::query_row() const {
  const Trace& t = *trace_;
  if (!settings_.query.empty())
    for (std::size_t i = 0; i < t.tokens.size(); ++i)
      if (t.tokens[i].key == settings_.query || t.labels[i] == settings_.query) return static_cast<int>(i);
  return t.focus_token;
}

int SplitJoinModel::heaviest_key(int head) const {
  const Matrix& w = find_step(*trace_, StepKind::softmax, head)->result.values;
  Index key = 0;
  w.row(query_row()).maxCoeff(&key);  // reading the trace's weights, not making them
  return static_cast<int>(key);
}

std::string SplitJoinModel::columns_of(int head) const {
  const int dh = trace_->d_head;
  return dh == 1 ? n(head * dh + 1) : n(head * dh + 1) + "–" + n(head * dh + dh);
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<SplitJoinModel::Command, CommandResult> SplitJoinModel::parse(const json& message) {
  if (auto common = step_through::parse_common<SplitJoinModel>(message, kSplitStages)) return *common;
  const std::string type = message.value("type", std::string());
  if (type == "next") return Command(Move{1});
  if (type == "back") return Command(Move{-1});
  if (type == "setRole") {
    std::string r = message.value("role", std::string());
    if (r.size() == 1) r[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(r[0])));  // "Q" or "q"
    if (const auto role = kRoles.parse(r)) return Command(SetRole{*role});
    return CommandResult(tr("split-join.needs_role"));
  }
  if (type == "numbers") {
    if (!message.contains("short") || !message["short"].is_boolean())
      return CommandResult(tr("split-join.needs_short"));
    return Command(SetShortNumbers{message["short"].get<bool>()});
  }
  if (type == "mistake") {
    if (!message.contains("on") || !message["on"].is_boolean()) return CommandResult(tr("split-join.needs_on"));
    return Command(SetMistake{message["on"].get<bool>()});
  }
  return CommandResult::not_taken(type);
}

CommandResult SplitJoinModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetSentence>(&command)) return run(c->text);
  if (!trace_) return tr("split-join.no_sentence", {{"error", error_}});
  const int last = static_cast<int>(kSplitStages.size()) - 1;
  // A new matrix on screen: the old cell means something else there.
  const auto changed = [this]() -> CommandResult {
    selected_.reset();
    reshow();
    return {};
  };
  if (const auto* c = std::get_if<SetStage>(&command)) {
    const int index = c->stage ? static_cast<int>(*c->stage) : c->index;
    if (index < 0 || index > last) return tr("split-join.stage_range", {{"last", n(last)}});
    stage_ = index;
    return changed();
  }
  if (const auto* c = std::get_if<Move>(&command)) {
    const int to = stage_ + c->by;
    if (to < 0) return tr("split-join.at_first");
    if (to > last) return tr("split-join.at_last");
    stage_ = to;
    return changed();
  }
  if (const auto* c = std::get_if<SetHead>(&command)) {
    if (auto why = refuse_head(c->head)) return *why;
    head_ = c->head;
    return changed();
  }
  if (const auto* c = std::get_if<SetRole>(&command)) {
    role_ = c->role;
    return changed();
  }
  if (const auto* c = std::get_if<SetMistake>(&command)) {
    mistake_ = c->on;
    return changed();
  }
  if (const auto* c = std::get_if<SetShortNumbers>(&command)) {
    short_numbers_ = c->on;  // the same matrix, printed shorter: the selection still holds
    return {};
  }
  const Cell cell = std::get<SelectCell>(command).cell;
  const int rows = static_cast<int>(shown_.values.rows()), cols = static_cast<int>(shown_.values.cols());
  if (cell.row < 0 || cell.row >= rows || cell.col < 0 || cell.col >= cols)
    return tr("split-join.cell_range", {{"rows", n(rows - 1)}, {"cols", n(cols - 1)}});
  selected_ = cell;
  to_explain_ = explain_cell(cell);
  return {};
}

// [SECTION] Words: narration, formulas, explanations -------------------------------------------

std::string SplitJoinModel::narration() const {
  const Trace& t = *trace_;
  const int q = query_row(), k = heaviest_key(head_);
  const std::string head = n(head_ + 1), query = quote_token(t.labels[static_cast<std::size_t>(q)]),
                    key = quote_token(t.labels[static_cast<std::size_t>(k)]);
  const auto cell = [&](SplitStage s) { return number(step_for(s)->result.values(q, k), short_numbers_); };
  const auto share = [&](float w) { return weight(w, short_numbers_); };
  const std::string words = counted("split-join.words", static_cast<long long>(t.labels.size()));
  const std::string span = tr_n("split-join.span", t.d_head, {{"columns", columns_of(head_)}});
  if (mistake())
    return tr(stage() == SplitStage::scale ? "split-join.say_mistake_scale" : "split-join.say_mistake_softmax",
              {{"head", head},
               {"root", format_sqrt(t.d_head)},
               {"wrong", format_sqrt(t.d_model)},
               {"query", query},
               {"key", key},
               {"right_scaled", cell(SplitStage::scale)},
               {"wrong_scaled", number(wrong_.scaled(q, k), short_numbers_)},
               {"right_weight", share(step_for(SplitStage::softmax)->result.values(q, k))},
               {"wrong_weight", share(wrong_.weights(q, k))}});
  switch (stage()) {
    case SplitStage::cut: {
      std::string ranges;
      for (int h = 0; h < t.heads; ++h) {
        if (h > 0) ranges += h + 1 == t.heads ? tr("split-join.and") : ", ";
        ranges += tr_n("split-join.range", t.d_head, {{"columns", columns_of(h)}, {"head", n(h + 1)}});
      }
      return tr("split-join.say_cut",
                {{"role", tr(std::string("split-join.role_") + role_name(role_))},
                 {"words", words},
                 {"columns", counted("split-join.columns", t.d_model)},
                 {"cut", tr_n("split-join.cut_into", t.heads,
                              {{"n", n(t.heads)}, {"columns", counted("split-join.columns", t.d_head)}})},
                 {"ranges", ranges}});
    }
    case SplitStage::slice:
      return tr(
          "split-join.say_slice",
          {{"head", head}, {"span", span}, {"words", words}, {"numbers", counted("split-join.numbers", t.d_head)}});
    case SplitStage::scores:
      return tr("split-join.say_scores", {{"head", head},
                                          {"numbers", counted("split-join.numbers", t.d_head)},
                                          {"query", query},
                                          {"key", key},
                                          {"value", cell(SplitStage::scores)}});
    case SplitStage::scale:
      return tr("split-join.say_scale", {{"head", head},
                                         {"root", format_sqrt(t.d_head)},
                                         {"wrong", format_sqrt(t.d_model)},
                                         {"query", query},
                                         {"key", key},
                                         {"before", cell(SplitStage::scores)},
                                         {"after", cell(SplitStage::scale)}});
    case SplitStage::softmax:
      return tr("split-join.say_softmax", {{"head", head},
                                           {"query", query},
                                           {"key", key},
                                           {"weight", share(step_for(SplitStage::softmax)->result.values(q, k))}});
    case SplitStage::mix:
      return tr("split-join.say_mix", {{"head", head},
                                       {"words", words},
                                       {"numbers", counted("split-join.numbers", t.d_head)},
                                       {"query", query},
                                       {"key", key},
                                       {"span", span}});
    case SplitStage::concat:
      return tr("split-join.say_concat", {{"all_heads", counted("split-join.all_heads", t.heads)},
                                          {"words", words},
                                          {"width", counted("split-join.columns", t.d_model)},
                                          {"head", head},
                                          {"span", span}});
    case SplitStage::output: {
      const Matrix& w_o = step_for(SplitStage::output)->inputs.at(1).values;
      const bool identity = w_o.isIdentity(0.0f);  // reads the weights; nothing is computed from them
      return tr(identity ? "split-join.say_output_identity" : "split-join.say_output",
                {{"T", n(static_cast<long long>(t.labels.size()))}, {"d", n(t.d_model)}});
    }
  }
  return {};
}

std::string SplitJoinModel::number(float value, bool short_numbers) {
  return short_numbers ? format_short(value) : format_number(value);
}

std::string SplitJoinModel::weight(float fraction, bool short_numbers) {
  return short_numbers ? format_percent_short(fraction) : format_percent(fraction);
}

std::string SplitJoinModel::formula() const {
  const Trace& t = *trace_;
  const std::string h = n(head_ + 1);
  switch (stage()) {
    case SplitStage::cut:
      return tr("split-join.formula_cut", {{"d_head", n(t.d_head)}, {"d", n(t.d_model)}, {"heads", n(t.heads)}});
    case SplitStage::slice: return tr("split-join.formula_slice", {{"head", h}, {"columns", columns_of(head_)}});
    case SplitStage::scores: return tr("split-join.formula_scores", {{"head", h}});
    case SplitStage::scale:
      if (mistake())
        return tr("split-join.formula_mistake", {{"head", h},
                                                 {"wrong", format_sqrt(t.d_model)},
                                                 {"factor", format_number(wrong_.factor)},
                                                 {"root", format_sqrt(t.d_head)}});
      return tr("split-join.formula_scale", {{"head", h},
                                             {"root", format_sqrt(t.d_head)},
                                             {"factor", format_number(step_for(SplitStage::scale)->scalar)},
                                             {"wrong", format_sqrt(t.d_model)}});
    case SplitStage::softmax: return tr("split-join.formula_softmax", {{"head", h}});
    case SplitStage::mix: return tr("split-join.formula_mix", {{"head", h}});
    case SplitStage::concat: return tr("split-join.formula_concat", {{"heads", n(t.heads)}});
    case SplitStage::output: return tr("split-join.formula_output");
  }
  return {};
}

Explanation SplitJoinModel::explain_cell(Cell cell) const {
  const Trace& t = *trace_;
  Explanation e;
  const Step* step = nullptr;
  Cell at = cell;
  if (stage() == SplitStage::slice) {
    // Column c of the slice is column (head·d_head + c mod d_head) of Q, K or V.
    const int dh = t.d_head;
    const Role role = static_cast<Role>(cell.col / dh);
    step = projection(role);
    at = {cell.row, head_ * dh + cell.col % dh};
    e.title = tr("split-join.slice_title", {{"head", n(head_ + 1)},
                                            {"name", shown_.columns[static_cast<std::size_t>(cell.col)]},
                                            {"token", quote_token(t.labels[static_cast<std::size_t>(cell.row)])},
                                            {"value", format_number(shown_.values(cell.row, cell.col))}});
  } else if (mistake()) {
    // The mistake's numbers are not in the trace: say how they were made, beside the right one.
    const bool weights = stage() == SplitStage::softmax;
    const float wrong = weights ? wrong_.weights(cell.row, cell.col) : wrong_.scaled(cell.row, cell.col);
    const float right = step_for(stage())->result.values(cell.row, cell.col);
    e.title = tr("split-join.mistake_title", {{"query", quote_token(t.labels[static_cast<std::size_t>(cell.row)])},
                                              {"key", quote_token(t.labels[static_cast<std::size_t>(cell.col)])},
                                              {"value", weights ? format_percent(wrong) : format_number(wrong)}});
    e.formula = weights ? "softmax(s ÷ " + format_sqrt(t.d_model) + ")" : "s ÷ " + format_sqrt(t.d_model);
    e.inputs.push_back({tr("split-join.input_score"),
                        format_number(find_step(t, StepKind::score, head_)->result.values(cell.row, cell.col))});
    e.inputs.push_back({tr("split-join.input_right", {{"root", format_sqrt(t.d_head)}}),
                        weights ? format_percent(right) : format_number(right)});
    e.text = tr("split-join.mistake_text", {{"root", format_sqrt(t.d_head)}, {"wrong", format_sqrt(t.d_model)}});
    return e;
  } else {
    step = step_for(stage());
    e.title = step->title;
  }
  e.text = narrate(t, *step, at);
  if (const CellTerms* terms = find_terms(*step, at); terms && !terms->terms.empty()) {
    switch (step->kind) {
      case StepKind::project_q:
      case StepKind::project_k:
      case StepKind::project_v:
      case StepKind::score:
      case StepKind::blend:
      case StepKind::output_projection:
        e.inputs.push_back(
            {step->term_a + "×" + step->term_b, products_text(*terms, 8) + " = " + format_number(terms->value)});
        break;
      case StepKind::scale:
        e.inputs.push_back({tr("split-join.input_score"), format_number(terms->terms.front().a)});
        e.inputs.push_back({"1/" + format_sqrt(t.d_head), format_number(terms->terms.front().b)});
        break;
      case StepKind::softmax:
        e.inputs.push_back({"exp(s − max)", format_number(terms->terms.front().a)});
        e.inputs.push_back({"1 / Σ", format_number(terms->terms.front().b)});
        break;
      default: break;
    }
  }
  if (stage() == SplitStage::concat) e.inputs.push_back({tr("split-join.input_from_head"), n(cell.col / t.d_head + 1)});
  return e;
}

Explanation SplitJoinModel::explain_row_sum(int row) const {
  const Vector sums = shown_.values.rowwise().sum();  // the trace's weights, added for the row's end
  return step_through::explain_row_sum(*trace_, row, sums[row], "split-join.");
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json SplitJoinModel::state() const {
  json stages = json::array();
  for (const auto& [stage, name] : kSplitStages.entries) stages.push_back(name);
  json s = {{"kind", kKind}, {"stages", stages},        {"stage_index", stage_}, {"stage", kSplitStages.name(stage())},
            {"head", head_}, {"role", role_name(role_)}};
  if (!error_.empty()) s["error"] = error_;
  if (!trace_) return s;
  const Trace& t = *trace_;
  const Matrix& m = shown_.values;
  json lit = json::array();
  for (std::size_t c = 0; c < shown_.lit.size(); ++c)
    if (shown_.lit[c]) lit.push_back(c);
  const Step* scale = find_step(t, StepKind::scale, head_);
  s["sentence"] = sentence_;
  s["tokens"] = t.labels;
  s["heads"] = t.heads;
  s["d_model"] = t.d_model;
  s["d_head"] = t.d_head;
  s["scale"] = {{"d_head", t.d_head},
                {"d_model", t.d_model},
                {"factor", scale ? scale->scalar : 0.0f},
                {"root", format_sqrt(t.d_head)}};
  s["matrix"] = matrix_rows(m);
  s["columns"] = shown_.columns;
  s["column_heads"] = shown_.column_head;
  s["lit_columns"] = lit;
  if (shown_.weights) {
    const Vector sums = m.rowwise().sum();
    s["row_sums"] = std::vector<float>(sums.data(), sums.data() + sums.size());
  }
  s["query"] = t.labels[static_cast<std::size_t>(query_row())];
  s["short_numbers"] = short_numbers_;
  const int q = query_row(), k = heaviest_key(head_);
  s["mistake"] = {{"on", mistake()},
                  {"width", wrong_.width},
                  {"root", format_sqrt(t.d_model)},
                  {"factor", wrong_.factor},
                  {"right", find_step(t, StepKind::softmax, head_)->result.values(q, k)},
                  {"wrong", wrong_.weights(q, k)}};
  s["formula"] = formula();
  s["narration"] = narration();
  s["selected"] = selected_ ? json{selected_->row, selected_->col} : json(nullptr);
  s["summary"] = summary();
  s["table"] = table().to_json();
  return s;
}

json SplitJoinModel::snapshot() const {
  json s = step_through::snapshot_common(trace_ ? sentence_ : settings_.sentence, stage_, head_);
  s["r"] = role_name(role_);
  s["m"] = mistake_;
  return s;
}

CommandResult SplitJoinModel::restore(const json& snapshot) {
  if (CommandResult common = step_through::restore_common(*this, snapshot); !common.done()) return common;
  auto role = parse({{"type", "setRole"}, {"role", snapshot.value("r", std::string("q"))}});
  if (auto* c = std::get_if<Command>(&role)) (void)apply(*c);
  if (snapshot.contains("m") && snapshot["m"].is_boolean()) (void)apply(SetMistake{snapshot["m"].get<bool>()});
  return {};
}

std::string SplitJoinModel::summary() const {
  if (!trace_) return {};
  return tr("split-join.summary", {{"n", n(stage_ + 1)},
                                   {"total", n(static_cast<long long>(kSplitStages.size()))},
                                   {"stage", tr(std::string("split-join.stage.") + kSplitStages.name(stage()))},
                                   {"narration", narration()}});
}

TextTable SplitJoinModel::table() const {
  TextTable table;
  if (!trace_) return table;
  const Trace& t = *trace_;
  table.caption = tr("split-join.table_caption",
                     {{"stage", tr(std::string("split-join.stage.") + kSplitStages.name(stage()))},
                      {"rows", tr(shown_.column_head.front() < 0 ? "widgets.table_rows" : "split-join.table_rows")}});
  table.columns.push_back("");
  for (const std::string& c : shown_.columns) table.columns.push_back(c);
  const Matrix& m = shown_.values;
  for (Index r = 0; r < m.rows(); ++r) {
    TextTable::Row row{t.labels[static_cast<std::size_t>(r)], {}};
    for (Index c = 0; c < m.cols(); ++c)
      row.cells.push_back(shown_.weights ? format_percent(m(r, c)) : format_number(m(r, c)));
    table.rows.push_back(std::move(row));
  }
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void SplitJoinModel::describe(const SplitJoinSettings& w, json& out) {
  step_through::describe_stages(out, w, kSplitStages.all(), kSplitStages, "split-join.stage.");
}

const WidgetKind& split_join_widget_kind() { return folder_widget_kind<SplitJoinModel>(); }

}  // namespace neuralpath::widgets
