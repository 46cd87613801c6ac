// narration.cpp: one plain sentence per step (or per cell), from the step's own numbers.
// Every number is printed with format.h, and only numbers the step holds (result, inputs,
// scalar) are spoken, so a view showing the step shows the same strings the narrator says.
// The words are templates in the string catalogue ([narration] in lessons/strings/en.strings),
// keyed by step kind with named {placeholders}; this file picks the template and fills it.
#include "engine/trace/narration.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace neuralpath {

namespace {

std::string token(const Trace& trace, int t) { return quote_token(trace.labels[static_cast<std::size_t>(t)]); }
std::string col_label(const NamedMatrix& m, int c) { return m.col_labels[static_cast<std::size_t>(c)]; }
std::string head_phrase(const Step& s) {
  return s.head >= 0 ? tr("narration.in_head", {{"head", std::to_string(s.head + 1)}}) : "";
}
const Matrix& input(const Step& s, std::size_t i) { return s.inputs.at(i).values; }
std::string number(float v) { return format_number(v); }
std::string count(long long n) { return std::to_string(n); }

// "1.25 + 0.40", or "1.25 − 0.82" for a negative second term (a learner reads "+ -0.82" as a typo).
std::string sum_text(float a, float b) {
  const std::string shown_b = format_number(b);
  if (shown_b.front() == '-') return tr("narration.minus", {{"a", number(a)}, {"b", shown_b.substr(1)}});
  return tr("narration.plus", {{"a", number(a)}, {"b", shown_b}});
}

// 'A', 'A' and 'B', 'A', 'B' and 'C'
std::string and_list(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? tr("narration.list.and") : tr("narration.list.comma")) + items[i];
  return text;
}

// Weights the softmax made equal differ by float rounding at most. Weights that merely print
// the same ("0.25" for 0.2505 and 0.2487) look equal on the board, so the narrator calls them
// "about" even rather than naming one as the largest.
bool same_weight(float a, float b) { return std::abs(a - b) <= 1e-6f * std::max(1.0f, std::abs(a)); }

// The tokens a row gives weight to, and whether they all get the same share.
struct RowShares {
  std::vector<int> visible;  // columns with weight > 0
  std::vector<int> top;      // columns whose weight prints as the largest one does
  float best = 0.0f;
  bool exact = true;  // every visible weight equals the largest (not just in print)
  bool even() const { return visible.size() > 1 && top.size() == visible.size(); }
  std::string evenly() const { return tr(exact ? "narration.evenly" : "narration.about_evenly"); }
  std::string equally() const { return tr(exact ? "narration.equally" : "narration.almost_equally"); }
};
RowShares row_shares(const Matrix& w, int row) {
  RowShares r;
  r.best = w.row(row).maxCoeff();
  const std::string best = format_number(r.best);
  for (Index j = 0; j < w.cols(); ++j) {
    if (w(row, j) > 0.0f) {
      r.visible.push_back(static_cast<int>(j));
      r.exact = r.exact && same_weight(w(row, j), r.best);
    }
    if (r.best > 0.0f && format_number(w(row, j)) == best) r.top.push_back(static_cast<int>(j));
  }
  return r;
}

std::string token_list(const Trace& trace, const std::vector<int>& columns) {
  std::vector<std::string> names;
  for (const int c : columns) names.push_back(token(trace, c));
  return and_list(names);
}

std::string narrate_tokens(const Trace& trace) {
  std::vector<std::string> names;
  // Six named, the rest counted; never "and 1 more" where naming the seventh is as short.
  const std::size_t shown = trace.labels.size() <= 7 ? trace.labels.size() : 6;
  for (std::size_t t = 0; t < shown; ++t) names.push_back(token(trace, static_cast<int>(t)));
  // The rest is counted ("... and 3 more."): an ellipsis before the full stop read as "....".
  if (shown < trace.labels.size())
    names.push_back(tr("narration.list.more", {{"n", count(static_cast<long long>(trace.labels.size() - shown))}}));
  const auto n = static_cast<long long>(trace.labels.size());
  return tr_n("narration.tokens", n, {{"n", count(n)}, {"list", and_list(names)}});
}

std::string narrate_embedding(const Trace& trace, const Step& s, Cell c) {
  return tr(trace.known[static_cast<std::size_t>(c.row)] ? "narration.embedding.known" : "narration.embedding.seeded",
            {{"token", token(trace, c.row)},
             {"feature", col_label(s.result, c.col)},
             {"value", number(s.result.values(c.row, c.col))}});
}

std::string narrate_positions(const Trace& trace, const Step& s, Cell c) {
  // Without a position code, attention alone cannot tell order; a causal mask still can
  // (each position sees a different number of tokens), so the sentence depends on the mask.
  if (s.scalar == 0.0f)
    return tr(trace.mask.causal ? "narration.positions.none_causal" : "narration.positions.none",
              {{"token", token(trace, c.row)}, {"value", number(s.result.values(c.row, c.col))}});
  return tr("narration.positions", {{"position", count(c.row)},
                                    {"code", number(input(s, 1)(c.row, c.col))},
                                    {"feature", col_label(s.result, c.col)},
                                    {"token", token(trace, c.row)},
                                    {"before", number(input(s, 0)(c.row, c.col))},
                                    {"after", number(s.result.values(c.row, c.col))}});
}

// A weight from which one token gets "almost all" of a row (below it: "most", then "the largest share").
constexpr float kAlmostAll = 0.9f;

std::string narrate_context(const Trace& trace, const Step& s, Cell c) {
  const RowShares shares = row_shares(input(s, 1), c.row);  // head 1's weights
  const bool several_heads = s.inputs.size() > 2;
  const std::string who = tr(several_heads ? "narration.context.who_head" : "narration.context.who",
                             {{"layer", count(s.layer + 1)}, {"token", token(trace, c.row)}});
  if (shares.best <= 0.0f) return tr("narration.context.blind", {{"who", who}});
  TextArgs args = {{"who", who},
                   {"weight", number(shares.best)},
                   {"feature", col_label(s.result, c.col)},
                   {"before", number(input(s, 0)(c.row, c.col))},
                   {"after", number(s.result.values(c.row, c.col))}};
  if (shares.visible.size() == 1) {
    args.push_back({"other", token_list(trace, shares.visible)});
    return tr("narration.context.only", args);
  }
  if (shares.even()) {
    args.push_back({"evenly", shares.evenly()});
    args.push_back({"n", count(static_cast<long long>(shares.visible.size()))});
    return tr("narration.context.even", args);
  }
  if (shares.top.size() > 1) {
    args.push_back({"others", token_list(trace, shares.top)});
    return tr("narration.context.tied", args);
  }
  // "Almost all" and "most" only when the weight says so; a largest share of 0.30 is neither.
  args.push_back({"other", token_list(trace, shares.top)});
  return tr(shares.best >= kAlmostAll ? "narration.context.almost_all"
            : shares.best >= 0.5f     ? "narration.context.most"
                                      : "narration.context.largest",
            args);
}

std::string narrate_projection(const Trace& trace, const Step& s, Cell c) {
  return tr("narration.projection",
            {{"role", tr(std::string("narration.role.") + step_kind_name(s.kind))},
             {"token", token(trace, c.row)},
             {"entry", col_label(s.result, c.col)},
             {"value", number(s.result.values(c.row, c.col))},
             {"column", count(c.col + 1)},  // counted from 1, as its entry's name is (q1 is column 1)
             {"matrix", s.inputs.at(1).name}});
}

std::string narrate_score(const Trace& trace, const Step& s, Cell c) {
  return tr("narration.score", {{"row", token(trace, c.row)},
                                {"col", token(trace, c.col)},
                                {"value", number(s.result.values(c.row, c.col))},
                                {"in_head", head_phrase(s)},
                                {"n", count(input(s, 0).cols())}});
}

std::string narrate_scale(const Trace& trace, const Step& s, Cell c) {
  return tr("narration.scale", {{"row", token(trace, c.row)},
                                {"col", token(trace, c.col)},
                                {"score", number(input(s, 0)(c.row, c.col))},
                                {"sqrt", format_sqrt(trace.d_head)},
                                {"value", number(s.result.values(c.row, c.col))}});
}

std::string narrate_mask(const Trace& trace, const Step& s, Cell c) {
  const float v = s.result.values(c.row, c.col);
  const TextArgs args = {{"row", token(trace, c.row)},
                         {"col", token(trace, c.col)},
                         {"value", number(v)},
                         {"hidden", number(-std::numeric_limits<float>::infinity())}};
  if (std::isinf(v))
    return tr(trace.mask.causal && c.col > c.row ? "narration.mask.ahead" : "narration.mask.padding", args);
  if (s.masked_cells.empty()) return tr("narration.mask.none", args);
  const bool row_has_hidden =
      std::any_of(s.masked_cells.begin(), s.masked_cells.end(), [&](const Cell& m) { return m.row == c.row; });
  return tr(row_has_hidden ? "narration.mask.stays" : "narration.mask.stays_whole_row", args);
}

std::string narrate_softmax(const Trace& trace, const Step& s, Cell c) {
  const float w = s.result.values(c.row, c.col);
  TextArgs args = {{"row", token(trace, c.row)},
                   {"col", token(trace, c.col)},
                   {"value", number(w)},
                   {"in_head", head_phrase(s)},
                   {"zero", number(0.0f)}};
  if (s.result.values.row(c.row).maxCoeff() <= 0.0f) return tr("narration.softmax.blind", args);
  if (std::isinf(input(s, 0)(c.row, c.col))) return tr("narration.softmax.masked", args);
  const RowShares shares = row_shares(s.result.values, c.row);
  if (shares.visible.size() == 1) {
    args[1].second = token_list(trace, shares.visible);
    return tr("narration.softmax.only", args);
  }
  if (shares.even()) {
    args.push_back({"n", count(static_cast<long long>(shares.visible.size()))});
    args.push_back({"equally", shares.equally()});
    args.push_back({"evenly", shares.evenly()});
    return tr("narration.softmax.even", args);
  }
  return tr("narration.softmax", args);
}

// An entry of a blend is Σ_j w_ij·v_jc. "Mostly from" one token only when its term is at least
// half the entry and the other terms hardly pull the other way; terms of both signs are said to
// be so (the largest term may then be larger than the entry itself).
std::string narrate_blend(const Trace& trace, const Step& s, Cell c) {
  const Matrix& w = input(s, 0);
  const Matrix& v = input(s, 1);
  const Vector terms = w.row(c.row).transpose().cwiseProduct(v.col(c.col));  // w_ij·v_jc per key j
  Index from = 0;
  terms.cwiseAbs().maxCoeff(&from);
  const auto j = static_cast<int>(from);
  const float value = s.result.values(c.row, c.col);
  const float up = terms.cwiseMax(0.0f).sum(), down = -terms.cwiseMin(0.0f).sum();
  const float along = value >= 0.0f ? up : down, against = value >= 0.0f ? down : up;
  const char* key = against > 0.05f * (up + down)           ? "narration.blend.mixed"
                    : std::abs(terms(from)) >= 0.5f * along ? "narration.blend"
                                                            : "narration.blend.spread";
  return tr(key, {{"entry", col_label(s.result, c.col)},
                  {"token", token(trace, c.row)},
                  {"in_head", head_phrase(s)},
                  {"value", number(value)},
                  {"from", token(trace, j)},
                  {"weight", number(w(c.row, j))},
                  {"v", number(v(j, c.col))}});
}

// Entries are named as the board names the columns (counted from 1: concat[Future, 3]).
std::string narrate_concat(const Trace& trace, const Step& s, Cell c) {
  const auto heads = static_cast<long long>(s.inputs.size());
  const Index width = s.inputs.front().values.cols();
  const NamedMatrix& head = s.inputs.at(static_cast<std::size_t>(c.col / width));
  const TextArgs args = {{"token", token(trace, c.row)},
                         {"entry", col_label(s.result, c.col)},
                         {"value", number(s.result.values(c.row, c.col))},
                         {"heads", count(heads)},
                         {"head_entry", col_label(head, static_cast<int>(c.col % width))},
                         {"head", count(c.col / width + 1)}};
  return tr(heads == 1 ? "narration.concat.one" : "narration.concat", args);
}

std::string narrate_output_projection(const Trace& trace, const Step& s, Cell c) {
  const Matrix& w_o = input(s, 1);
  const bool identity = w_o.rows() == w_o.cols() && w_o.isIdentity(0.0f);
  return tr(identity ? "narration.output.identity" : "narration.output",
            {{"feature", col_label(s.result, c.col)},
             {"token", token(trace, c.row)},
             {"value", number(s.result.values(c.row, c.col))}});
}

std::string narrate_residual(const Trace& trace, const Step& s, Cell c) {
  // The sublayer with its article ("the attention", "la atención"): the board's bare name
  // ("atención") does not fit every language's sentence.
  const bool feed_forward = s.inputs.at(1).name == tr("matrices.feed_forward");
  const std::string sublayer = tr(feed_forward ? "narration.sublayer.feed_forward" : "narration.sublayer.attention");
  return tr("narration.residual", {{"token", token(trace, c.row)},
                                   {"sublayer", sublayer},
                                   {"feature", col_label(s.result, c.col)},
                                   {"sum", sum_text(input(s, 0)(c.row, c.col), input(s, 1)(c.row, c.col))},
                                   {"value", number(s.result.values(c.row, c.col))}});
}

std::string narrate_layer_norm(const Trace& trace, const Step& s, Cell c) {
  const float x = input(s, 0)(c.row, c.col), mean = input(s, 1)(c.row, 0), spread = input(s, 2)(c.row, 0);
  const float y = s.result.values(c.row, c.col);
  // With gain 1 and shift 0 the result is exactly (x - mean) / spread; otherwise say so.
  const bool gain_or_shift = std::abs(y - (x - mean) / spread) > 1e-4f * std::max(1.0f, std::abs(y));
  return tr(gain_or_shift ? "narration.layer_norm.gain" : "narration.layer_norm",
            {{"token", token(trace, c.row)},
             {"feature", col_label(s.result, c.col)},
             {"x", number(x)},
             {"mean", number(mean)},
             {"spread", number(spread)},
             {"value", number(y)}});
}

std::string narrate_feed_forward(const Trace& trace, const Step& s, Cell c) {
  const Matrix& hidden = input(s, 1);
  const auto active = static_cast<long long>((hidden.row(c.row).array() > 0.0f).count());
  return tr("narration.feed_forward", {{"token", token(trace, c.row)},
                                       {"active", count(active)},
                                       {"hidden", count(hidden.cols())},
                                       {"value", number(s.result.values(c.row, c.col))},
                                       {"feature", col_label(s.result, c.col)}});
}

std::string narrate_next_token(const Trace& trace, const Step& s, Cell c) {
  const std::string after = token(trace, static_cast<int>(trace.labels.size()) - 1);
  if (s.result.values.cols() == 0) return tr("narration.next.empty", {{"after", after}});
  const auto& ranking = trace.next.ranking;
  const Matrix& p = s.result.values;
  const std::string shown = format_percent(p(0, c.col));
  // Words whose probability prints the same as this one's: a tie the learner would see.
  std::vector<std::string> tied;
  for (const int v : ranking)
    if (v != c.col && format_percent(p(0, v)) == shown) tied.push_back(quote_token(col_label(s.result, v)));
  const bool first = format_percent(p(0, ranking.front())) == shown;
  const std::size_t named = std::min<std::size_t>(tied.size(), 3);
  std::vector<std::string> listed(tied.begin(), tied.begin() + static_cast<std::ptrdiff_t>(named));
  if (tied.size() > named)
    listed.push_back(tr("narration.list.more", {{"n", count(static_cast<long long>(tied.size() - named))}}));
  std::string rest;
  if (!tied.empty())
    rest = tr(first ? "narration.next.tie_first" : "narration.next.tie", {{"words", and_list(listed)}});
  else if (first && ranking.size() > 1)
    rest = tr("narration.next.runner_up",
              {{"word", quote_token(col_label(s.result, ranking[1]))}, {"percent", format_percent(p(0, ranking[1]))}});
  // The softmax weighs this word's logit against every word's: {n} says how many.
  std::string sentence = tr("narration.next", {{"after", after},
                                               {"word", quote_token(col_label(s.result, c.col))},
                                               {"percent", shown},
                                               {"logit", number(input(s, 0)(0, c.col))},
                                               {"temperature", number(s.scalar)},
                                               {"rest", rest},
                                               {"n", count(p.cols())}});
  // Following another word ("AI"), the learner would otherwise hear of "Future" with no reason.
  const int last = static_cast<int>(trace.labels.size()) - 1;
  if (trace.focus_token >= 0 && trace.focus_token < last)
    sentence += " " + tr("narration.next.from_last", {{"followed", token(trace, trace.focus_token)}, {"after", after}});
  return sentence;
}

}  // namespace

std::string narrate(const Trace& trace, const Step& step, Cell cell) {
  if (cell.row < 0 || cell.col < 0) cell = step.focus;
  const Matrix& r = step.result.values;
  const bool inside = cell.row >= 0 && cell.col >= 0 && cell.row < r.rows() && cell.col < r.cols();
  if (step.kind == StepKind::tokens) return narrate_tokens(trace);
  if (step.kind == StepKind::next_token) {
    if (r.cols() == 0) return narrate_next_token(trace, step, cell);
    if (!inside) cell = {0, trace.next.ranking.front()};
    return narrate_next_token(trace, step, cell);
  }
  if (!inside) return tr("narration.step", {{"title", step.title}});
  switch (step.kind) {
    case StepKind::embedding: return narrate_embedding(trace, step, cell);
    case StepKind::positions: return narrate_positions(trace, step, cell);
    case StepKind::context_layer: return narrate_context(trace, step, cell);
    case StepKind::project_q:
    case StepKind::project_k:
    case StepKind::project_v: return narrate_projection(trace, step, cell);
    case StepKind::score: return narrate_score(trace, step, cell);
    case StepKind::scale: return narrate_scale(trace, step, cell);
    case StepKind::mask: return narrate_mask(trace, step, cell);
    case StepKind::softmax: return narrate_softmax(trace, step, cell);
    case StepKind::blend: return narrate_blend(trace, step, cell);
    case StepKind::concat_heads: return narrate_concat(trace, step, cell);
    case StepKind::output_projection: return narrate_output_projection(trace, step, cell);
    case StepKind::residual: return narrate_residual(trace, step, cell);
    case StepKind::layer_norm: return narrate_layer_norm(trace, step, cell);
    case StepKind::feed_forward: return narrate_feed_forward(trace, step, cell);
    case StepKind::tokens:
    case StepKind::next_token: break;  // handled above
  }
  return tr("narration.step", {{"title", step.title}});
}

const char* step_kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::tokens: return "tokens";
    case StepKind::embedding: return "embedding";
    case StepKind::positions: return "positions";
    case StepKind::context_layer: return "context_layer";
    case StepKind::project_q: return "project_q";
    case StepKind::project_k: return "project_k";
    case StepKind::project_v: return "project_v";
    case StepKind::score: return "score";
    case StepKind::scale: return "scale";
    case StepKind::mask: return "mask";
    case StepKind::softmax: return "softmax";
    case StepKind::blend: return "blend";
    case StepKind::concat_heads: return "concat_heads";
    case StepKind::output_projection: return "output_projection";
    case StepKind::residual: return "residual";
    case StepKind::layer_norm: return "layer_norm";
    case StepKind::feed_forward: return "feed_forward";
    case StepKind::next_token: return "next_token";
  }
  return "unknown";
}

}  // namespace neuralpath
