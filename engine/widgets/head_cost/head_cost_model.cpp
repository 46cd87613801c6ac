// head_cost_model.cpp: the cost readout's settings, commands, state and explanations
// (head_cost_model.h). Every figure is engine/core's multi_head_cost(); this file only picks the
// settings and words them.
#include "engine/widgets/head_cost/head_cost_model.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <cstdlib>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

std::string count(std::uint64_t n) { return format_count(n); }
std::string count(std::int64_t n) { return format_count(static_cast<std::uint64_t>(n)); }

constexpr HeadCostModel::Figure kFigures[] = {HeadCostModel::Figure::d_head,      HeadCostModel::Figure::parameters,
                                              HeadCostModel::Figure::projections, HeadCostModel::Figure::scores,
                                              HeadCostModel::Figure::total,       HeadCostModel::Figure::flops,
                                              HeadCostModel::Figure::grids};

}  // namespace

const char* HeadCostModel::figure_name(Figure figure) {
  switch (figure) {
    case Figure::d_head: return "d_head";
    case Figure::parameters: return "parameters";
    case Figure::projections: return "projections";
    case Figure::scores: return "scores";
    case Figure::total: return "total";
    case Figure::flops: return "flops";
    case Figure::grids: return "grids";
  }
  return "";
}

const std::vector<std::int64_t>& HeadCostModel::widths() const {
  // Widths of real layers (the lesson's 8 and 512, BERT's 768, GPT-2's 768 to 1,600, ...): the
  // slider walks these; a command may set any width.
  static const std::vector<std::int64_t> stops = {8,   16,   32,   64,   96,   128,  192,  256,  384,  512,
                                                  768, 1024, 1280, 1536, 1600, 2048, 4096, 8192, 12288};
  return stops;
}

// [SECTION] Settings ---------------------------------------------------------------------------

HeadCostModel::HeadCostModel(const HeadCostSettings& settings, const lesson::Inline& caption)
    : WidgetModelBase(settings, caption) {
  settings_.d_model = std::clamp<std::int64_t>(settings_.d_model, 1, kMaxCostDModel);
  settings_.tokens = std::clamp<std::int64_t>(settings_.tokens, 1, kMaxCostTokens);
  if (!heads_divide(settings_.d_model, settings_.heads))
    settings_.heads = nearest_head_count(settings_.d_model, settings_.heads);
  recount();
}

void HeadCostModel::recount() {
  cost_ = multi_head_cost(settings_.d_model, settings_.heads, settings_.tokens);
  by_heads_.clear();
  for (std::int64_t h : head_counts(settings_.d_model))
    by_heads_.push_back(multi_head_cost(settings_.d_model, h, settings_.tokens));
}

int HeadCostModel::heads_index() const {
  for (std::size_t i = 0; i < by_heads_.size(); ++i)
    if (by_heads_[i].heads == cost_.heads) return static_cast<int>(i);
  return 0;
}

int HeadCostModel::width_index() const {
  const auto& w = widths();
  int best = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (std::llabs(w[i] - cost_.d_model) < std::llabs(w[static_cast<std::size_t>(best)] - cost_.d_model))
      best = static_cast<int>(i);
  return best;
}

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<HeadCostModel::Command, CommandResult> HeadCostModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  const auto integer = [&](std::initializer_list<const char*> keys) -> std::optional<std::int64_t> {
    for (const char* key : keys)
      if (message.contains(key) && message[key].is_number_integer()) return message[key].get<std::int64_t>();
    return std::nullopt;
  };
  if (type == "setWidth") {
    const auto d = integer({"d_model", "width"});
    if (!d) return CommandResult(tr("head-cost.needs_width"));
    return Command(SetWidth{*d});
  }
  if (type == "setHeads") {
    const auto h = integer({"heads"});
    if (!h) return CommandResult(tr("head-cost.needs_heads"));
    return Command(SetHeads{*h});
  }
  if (type == "setLength") {
    const auto t = integer({"T", "length"});
    if (!t) return CommandResult(tr("head-cost.needs_length"));
    return Command(SetLength{*t});
  }
  if (type == "explain") {
    const std::string name = message.value("figure", std::string());
    for (Figure f : kFigures)
      if (name == figure_name(f)) return Command(Explain{f});
    return CommandResult(tr("head-cost.needs_figure"));
  }
  return CommandResult::not_taken(type);
}

CommandResult HeadCostModel::apply(const Command& command) {
  if (const auto* c = std::get_if<SetWidth>(&command)) {
    if (c->d_model < 1 || c->d_model > kMaxCostDModel)
      return tr("head-cost.width_range", {{"max", count(kMaxCostDModel)}});
    note_.clear();
    if (!heads_divide(c->d_model, settings_.heads)) {
      // The old H no longer cuts the new width into whole slices: take the nearest count that does.
      const std::int64_t moved = nearest_head_count(c->d_model, settings_.heads);
      note_ = tr("head-cost.heads_moved",
                 {{"old", count(settings_.heads)}, {"d", count(c->d_model)}, {"new", count(moved)}});
      settings_.heads = moved;
    }
    settings_.d_model = c->d_model;
    recount();
    return {};
  }
  if (const auto* c = std::get_if<SetHeads>(&command)) {
    if (!heads_divide(settings_.d_model, c->heads)) {
      // Refused, with the counts either side that would divide.
      std::int64_t below = 1, above = settings_.d_model;
      for (std::int64_t h : head_counts(settings_.d_model)) {
        if (h < c->heads) below = h;
        if (h > c->heads && h < above) above = h;
      }
      if (c->heads > settings_.d_model) above = below;
      return tr("head-cost.heads_divide", {{"heads", std::to_string(c->heads)},
                                           {"d", count(settings_.d_model)},
                                           {"below", count(below)},
                                           {"above", count(above)}});
    }
    note_.clear();
    settings_.heads = c->heads;
    recount();
    return {};
  }
  if (const auto* c = std::get_if<SetLength>(&command)) {
    if (c->t < 1 || c->t > kMaxCostTokens) return tr("head-cost.length_range", {{"max", count(kMaxCostTokens)}});
    settings_.tokens = c->t;
    recount();
    return {};
  }
  if (const auto* c = std::get_if<Explain>(&command)) to_explain_ = explain(c->figure);
  return {};
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation HeadCostModel::explain(Figure figure) const {
  const MultiHeadCost& c = cost_;
  const std::pair<std::string, std::string> d = {"d_model", count(c.d_model)}, h = {"H", count(c.heads)},
                                            t = {"T", count(c.t)}, dh = {"d_head", count(c.d_head)};
  // Every figure is explained the same way: its value in the title, its formula, what goes into
  // it, and its text (head-cost.<figure>_title and _text).
  const std::string key = std::string("head-cost.") + figure_name(figure);
  const auto explained = [&](std::uint64_t value, std::string formula,
                             std::vector<std::pair<std::string, std::string>> inputs, const TextArgs& text_args = {}) {
    Explanation e;
    e.title = tr(key + "_title", {{"value", count(value)}});
    e.formula = std::move(formula);
    e.inputs = std::move(inputs);
    e.text = tr(key + "_text", text_args);
    return e;
  };
  switch (figure) {
    case Figure::d_head:
      return explained(c.d_head, "d_head = d_model / H", {d, h},
                       {{"d_head", count(c.d_head)}, {"d", count(c.d_model)}});
    case Figure::parameters:
      return explained(
          c.parameters, "4·d_model² + 4·d_model",
          {d, {tr("head-cost.input_weights"), count(c.weights)}, {tr("head-cost.input_biases"), count(c.biases)}});
    case Figure::projections: return explained(c.projection_mults, "4·T·d_model²", {t, d});
    case Figure::scores:
      return explained(c.score_mults + c.mix_mults, "H · 2·T²·d_head = 2·T²·d_model",
                       {h,
                        t,
                        dh,
                        {tr("head-cost.input_per_head"),
                         count((c.score_mults + c.mix_mults) / static_cast<std::uint64_t>(c.heads))}});
    case Figure::total:
      return explained(c.total_mults, "4·T·d_model² + 2·T²·d_model",
                       {{tr("head-cost.input_projections"), count(c.projection_mults)},
                        {tr("head-cost.input_scores"), count(c.score_mults + c.mix_mults)}});
    case Figure::flops:
      return explained(c.flops, "FLOPs = 2 × (4·T·d_model² + 2·T²·d_model)",
                       {{tr("head-cost.input_total"), count(c.total_mults)}});
    case Figure::grids: return explained(c.grid_cells, "H × T²", {h, t});
  }
  return {};
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json HeadCostModel::state() const {
  const MultiHeadCost& c = cost_;
  json by = json::array();
  for (const MultiHeadCost& b : by_heads_)
    by.push_back({{"heads", b.heads},
                  {"d_head", b.d_head},
                  {"parameters", b.parameters},
                  {"total_mults", b.total_mults},
                  {"grid_cells", b.grid_cells}});
  std::vector<std::int64_t> counts;
  for (const MultiHeadCost& b : by_heads_) counts.push_back(b.heads);
  return {{"kind", kKind},
          {"d_model", c.d_model},
          {"heads", c.heads},
          {"d_head", c.d_head},
          {"T", c.t},
          {"head_counts", counts},
          {"widths", widths()},
          {"weights", c.weights},
          {"biases", c.biases},
          {"parameters", c.parameters},
          {"projection_mults", c.projection_mults},
          {"score_mults", c.score_mults},
          {"mix_mults", c.mix_mults},
          {"total_mults", c.total_mults},
          {"flops", c.flops},
          {"grid_cells", c.grid_cells},
          {"by_heads", by},
          {"note", note_},
          {"summary", summary()},
          {"table", table().to_json()}};
}

json HeadCostModel::snapshot() const { return {{"d", cost_.d_model}, {"h", cost_.heads}, {"T", cost_.t}}; }

CommandResult HeadCostModel::restore(const json& snapshot) {
  const auto field = [&](const char* key) -> std::optional<std::int64_t> {
    if (snapshot.is_object() && snapshot.contains(key) && snapshot[key].is_number_integer())
      return snapshot[key].get<std::int64_t>();
    return std::nullopt;
  };
  const auto d = field("d"), h = field("h"), t = field("T");
  if (!d || !h || !t) return tr("widgets.bad_snapshot", {{"kind", kKind}});
  if (*d < 1 || *d > kMaxCostDModel || *t < 1 || *t > kMaxCostTokens || !heads_divide(*d, *h))
    return tr("widgets.bad_snapshot", {{"kind", kKind}});
  settings_.d_model = *d;
  settings_.heads = *h;
  settings_.tokens = *t;
  note_.clear();
  recount();
  return {};
}

std::string HeadCostModel::summary() const {
  const MultiHeadCost& c = cost_;
  // One head (d_head = d_model) is a stop on the slider: "1 head", not "1 heads".
  return tr_n("head-cost.summary", static_cast<long long>(c.heads),
              {{"d", count(c.d_model)},
               {"heads", count(c.heads)},
               {"d_head", count(c.d_head)},
               {"T", count(c.t)},
               {"parameters", count(c.parameters)},
               {"total", count(c.total_mults)},
               {"grids", count(c.grid_cells)}});
}

TextTable HeadCostModel::table() const {
  // One row per head count that divides d_model: the flat columns beside the shrinking one.
  TextTable table;
  table.caption = tr("head-cost.table_caption", {{"d", count(cost_.d_model)}, {"T", count(cost_.t)}});
  table.columns = {tr("head-cost.column_heads"), tr("head-cost.column_d_head"), tr("head-cost.column_parameters"),
                   tr("head-cost.column_mults"), tr("head-cost.column_grids")};
  for (const MultiHeadCost& b : by_heads_)
    table.rows.push_back(
        {count(b.heads), {count(b.d_head), count(b.parameters), count(b.total_mults), count(b.grid_cells)}});
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void HeadCostModel::describe(const HeadCostSettings& c, json& out) {
  out["d_model"] = c.d_model;
  out["heads"] = c.heads;
  out["T"] = c.tokens;
  json items = json::array();
  for (std::int64_t h : head_counts(c.d_model))
    items.push_back(choice(
        tr_n("head-cost.choice_heads", static_cast<int>(h), {{"n", format_count(static_cast<std::uint64_t>(h))}}),
        {{"type", "setHeads"}, {"heads", h}}, {{"heads", h}}));
  out["choices"] = choices(tr("head-cost.choices"), std::move(items));
}

const WidgetKind& head_cost_widget_kind() { return folder_widget_kind<HeadCostModel>(); }

}  // namespace neuralpath::widgets
