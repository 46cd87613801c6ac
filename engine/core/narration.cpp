// narration.cpp: one plain sentence per step (or per cell), from the step's own numbers.
// Every number is printed with format.h, and only numbers the step holds (result, inputs,
// scalar) are spoken, so a view showing the step shows the same strings the narrator says.
#include "narration.h"

#include "format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace neuralpath {

namespace {

std::string token(const Trace& trace, int t) { return quote_token(trace.labels[static_cast<std::size_t>(t)]); }
std::string col_label(const NamedMatrix& m, int c) { return m.col_labels[static_cast<std::size_t>(c)]; }
std::string head_phrase(const Step& s) { return s.head >= 0 ? " in head " + std::to_string(s.head + 1) : ""; }
const Matrix& input(const Step& s, std::size_t i) { return s.inputs.at(i).values; }

// "1.25 + 0.40", or "1.25 − 0.82" for a negative second term (a learner reads "+ -0.82" as a typo).
std::string sum_text(float a, float b) {
    const std::string shown_b = format_number(b);
    if (shown_b.front() == '-') return format_number(a) + " − " + shown_b.substr(1);
    return format_number(a) + " + " + shown_b;
}

// 'A', 'A' and 'B', 'A', 'B' and 'C'
std::string and_list(const std::vector<std::string>& items) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
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
    bool  exact = true;        // every visible weight equals the largest (not just in print)
    bool even() const { return visible.size() > 1 && top.size() == visible.size(); }
    std::string evenly() const { return exact ? "evenly" : "about evenly"; }
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
    std::string list;
    const std::size_t shown = std::min<std::size_t>(trace.labels.size(), 6);
    for (std::size_t t = 0; t < shown; ++t) list += (t ? ", " : "") + token(trace, static_cast<int>(t));
    if (shown < trace.labels.size()) list += ", ...";
    const std::size_t n = trace.labels.size();
    return "The sentence becomes " + std::to_string(n) + (n == 1 ? " token: " : " tokens: ") + list + ".";
}

std::string narrate_embedding(const Trace& trace, const Step& s, Cell c) {
    const float v = s.result.values(c.row, c.col);
    const std::string feature = col_label(s.result, c.col);
    if (trace.known[static_cast<std::size_t>(c.row)])
        return token(trace, c.row) + " comes from the vocabulary: its " + feature + " is " + format_number(v) + ".";
    return token(trace, c.row) + " is not in the vocabulary, so it gets a seeded vector: its " + feature +
           " is " + format_number(v) + ".";
}

std::string narrate_positions(const Trace& trace, const Step& s, Cell c) {
    if (s.scalar == 0.0f)
        return "No position code is added, so word order is invisible to attention: " + token(trace, c.row) +
               " keeps " + format_number(s.result.values(c.row, c.col)) + ".";
    return "Position " + std::to_string(c.row) + " adds " + format_number(input(s, 1)(c.row, c.col)) + " to the " +
           col_label(s.result, c.col) + " of " + token(trace, c.row) + ": " +
           format_number(input(s, 0)(c.row, c.col)) + " becomes " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_context(const Trace& trace, const Step& s, Cell c) {
    const RowShares shares = row_shares(input(s, 1), c.row);  // head 1's weights
    const bool several_heads = s.inputs.size() > 2;
    const std::string layer = "Context layer " + std::to_string(s.layer + 1) + ": " + token(trace, c.row) +
                              (several_heads ? " (in head 1)" : "");
    if (shares.best <= 0.0f) return layer + " can see no token and stays as it was.";
    std::string gathers;
    if (shares.visible.size() == 1)
        gathers = " can only see " + token_list(trace, shares.visible) + " (weight " + format_number(shares.best) + ")";
    else if (shares.even())
        gathers = " spreads its attention " + shares.evenly() + " over " + std::to_string(shares.visible.size()) +
                  " tokens (" + format_number(shares.best) + " each)";
    else if (shares.top.size() > 1)
        gathers = " gathers most from " + token_list(trace, shares.top) + " (weight " + format_number(shares.best) +
                  " each)";
    else
        gathers = " gathers most from " + token_list(trace, shares.top) + " (weight " + format_number(shares.best) + ")";
    return layer + gathers + ", so its " + col_label(s.result, c.col) + " goes from " +
           format_number(input(s, 0)(c.row, c.col)) + " to " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_projection(const Trace& trace, const Step& s, Cell c) {
    const char* role = s.kind == StepKind::project_q ? "query (what it looks for)"
                       : s.kind == StepKind::project_k ? "key (what it offers to be found by)"
                                                       : "value (what it hands over)";
    return "The " + std::string(role) + " of " + token(trace, c.row) + " has entry " +
           col_label(s.result, c.col) + " = " + format_number(s.result.values(c.row, c.col)) +
           ": its vector times column " + std::to_string(c.col) + " of " + s.inputs.at(1).name + ", summed.";
}

std::string narrate_score(const Trace& trace, const Step& s, Cell c) {
    return token(trace, c.row) + " scores " + token(trace, c.col) + " at " +
           format_number(s.result.values(c.row, c.col)) + head_phrase(s) + ": the query of " + token(trace, c.row) +
           " times the key of " + token(trace, c.col) + ", " + std::to_string(input(s, 0).cols()) +
           " products summed.";
}

std::string narrate_scale(const Trace& trace, const Step& s, Cell c) {
    const int d_head = trace.d_head;
    return token(trace, c.row) + " scores " + token(trace, c.col) + " at " + format_number(input(s, 0)(c.row, c.col)) +
           "; divided by " + format_sqrt(d_head) + " that is " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_mask(const Trace& trace, const Step& s, Cell c) {
    const bool hidden = std::isinf(s.result.values(c.row, c.col));
    if (hidden)
        return (trace.mask.causal && c.col > c.row
                    ? token(trace, c.row) + " may not look ahead at " + token(trace, c.col)
                    : token(trace, c.col) + " is padding, hidden from " + token(trace, c.row)) +
               ": its score becomes " + format_number(s.result.values(c.row, c.col)) + ", so its weight will be exactly 0.";
    if (s.masked_cells.empty())
        return "No mask (" + trace.mask.name() + "): " + token(trace, c.row) + " may look at every token; its score for " +
               token(trace, c.col) + " stays " + format_number(s.result.values(c.row, c.col)) + ".";
    const bool row_has_hidden = std::any_of(s.masked_cells.begin(), s.masked_cells.end(),
                                            [&](const Cell& m) { return m.row == c.row; });
    return token(trace, c.row) + " may look at " + token(trace, c.col) + ", so that score stays " +
           format_number(s.result.values(c.row, c.col)) +
           (row_has_hidden ? "; the tokens hidden from it are set to " +
                                 format_number(-std::numeric_limits<float>::infinity()) + "."
                           : "; nothing in its row is hidden.");
}

std::string narrate_softmax(const Trace& trace, const Step& s, Cell c) {
    const float w = s.result.values(c.row, c.col);
    if (s.result.values.row(c.row).maxCoeff() <= 0.0f)
        return token(trace, c.row) + " can see no token" + head_phrase(s) + ", so all its weights are " +
               format_number(0.0f) + " (defined that way; never NaN).";
    if (std::isinf(input(s, 0)(c.row, c.col)))
        return token(trace, c.col) + " is masked, so it gets exactly " + format_number(w) + " of the attention of " +
               token(trace, c.row) + ".";
    const RowShares shares = row_shares(s.result.values, c.row);
    if (shares.visible.size() == 1)
        return token(trace, c.row) + " can see only " + token_list(trace, shares.visible) + head_phrase(s) +
               ", so the softmax gives it all the weight: " + format_number(w) + ".";
    if (shares.even())
        return token(trace, c.row) + " scores all " + std::to_string(shares.visible.size()) +
               " tokens it can see " + (shares.exact ? "equally" : "almost equally") + head_phrase(s) +
               ", so the softmax spreads its weight " + shares.evenly() + ": " +
               format_number(w) + " each.";
    return "Softmax turns the scores of " + token(trace, c.row) + " into weights that sum to 1: " + token(trace, c.col) +
           " gets " + format_number(w) + head_phrase(s) + ".";
}

std::string narrate_blend(const Trace& trace, const Step& s, Cell c) {
    const Matrix& w = input(s, 0);
    const Matrix& v = input(s, 1);
    Index from = 0;
    (w.row(c.row).transpose().cwiseProduct(v.col(c.col))).cwiseAbs().maxCoeff(&from);
    const auto j = static_cast<int>(from);
    return "Entry " + col_label(s.result, c.col) + " of the new vector of " + token(trace, c.row) + head_phrase(s) +
           " is " + format_number(s.result.values(c.row, c.col)) + ", mostly from " + token(trace, j) + " (weight " +
           format_number(w(c.row, j)) + " times value " + format_number(v(j, c.col)) + ").";
}

std::string narrate_concat(const Trace& trace, const Step& s, Cell c) {
    const auto heads = s.inputs.size();
    const Index width = s.inputs.front().values.cols();
    const Index head = c.col / width;
    const std::string value = format_number(s.result.values(c.row, c.col));
    if (heads == 1)
        return "With one head there is nothing to join: the blend of " + token(trace, c.row) +
               " passes on unchanged, and its entry " + std::to_string(c.col) + " is " + value + ".";
    return "The " + std::to_string(heads) + " heads' outputs sit side by side: entry " + std::to_string(c.col) +
           " of the joined vector of " + token(trace, c.row) + " is entry " + std::to_string(c.col % width) +
           " of head " + std::to_string(head + 1) + ", " + value + ".";
}

std::string narrate_output_projection(const Trace& trace, const Step& s, Cell c) {
    const std::string what = "the " + col_label(s.result, c.col) + " of " + token(trace, c.row) + " is " +
                             format_number(s.result.values(c.row, c.col)) + ".";
    const Matrix& w_o = input(s, 1);
    if (w_o.rows() == w_o.cols() && w_o.isIdentity(0.0f))
        return "W_O is the identity here, so the heads' outputs pass through unmixed: " + what;
    return "W_O mixes the heads back into features: " + what;
}

std::string narrate_residual(const Trace& trace, const Step& s, Cell c) {
    return token(trace, c.row) + " keeps its own vector and adds what the " + s.inputs.at(1).name + " found: its " +
           col_label(s.result, c.col) + " is " + sum_text(input(s, 0)(c.row, c.col), input(s, 1)(c.row, c.col)) +
           " = " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_layer_norm(const Trace& trace, const Step& s, Cell c) {
    const float x = input(s, 0)(c.row, c.col), mean = input(s, 1)(c.row, 0), spread = input(s, 2)(c.row, 0);
    const float y = s.result.values(c.row, c.col);
    // With gain 1 and shift 0 the result is exactly (x - mean) / spread; otherwise say so.
    const bool gain_or_shift = std::abs(y - (x - mean) / spread) > 1e-4f * std::max(1.0f, std::abs(y));
    return "LayerNorm re-centres and rescales " + token(trace, c.row) + ": its " + col_label(s.result, c.col) + " " +
           format_number(x) + " minus the mean " + format_number(mean) + ", divided by the spread " +
           format_number(spread) + (gain_or_shift ? ", then the learned gain and shift, gives " : ", is ") +
           format_number(y) + ".";
}

std::string narrate_feed_forward(const Trace& trace, const Step& s, Cell c) {
    const Matrix& hidden = input(s, 1);
    const auto active = (hidden.row(c.row).array() > 0.0f).count();
    return "The feed-forward layer works on " + token(trace, c.row) + " alone: " + std::to_string(active) + " of its " +
           std::to_string(hidden.cols()) + " hidden units fire, and with the output bias they add " +
           format_number(s.result.values(c.row, c.col)) + " to its " + col_label(s.result, c.col) + ".";
}

std::string narrate_next_token(const Trace& trace, const Step& s, Cell c) {
    const std::string after = token(trace, static_cast<int>(trace.labels.size()) - 1);
    if (s.result.values.cols() == 0) return "The vocabulary is empty, so there is no next word to predict after " + after + ".";
    const auto& ranking = trace.next.ranking;
    const Matrix& p = s.result.values;
    const std::string shown = format_percent(p(0, c.col));
    // Words whose probability prints the same as this one's: a tie the learner would see.
    std::vector<std::string> tied;
    for (const int v : ranking)
        if (v != c.col && format_percent(p(0, v)) == shown) tied.push_back(quote_token(col_label(s.result, v)));
    const bool first = format_percent(p(0, ranking.front())) == shown;
    std::string text = "After " + after + " the model gives " + quote_token(col_label(s.result, c.col)) + " " + shown +
                       ", the softmax of its logit " + format_number(input(s, 0)(0, c.col)) +
                       " divided by the temperature " + format_number(s.scalar);
    const std::size_t named = std::min<std::size_t>(tied.size(), 3);
    std::vector<std::string> listed(tied.begin(), tied.begin() + static_cast<std::ptrdiff_t>(named));
    if (tied.size() > named) listed.push_back(std::to_string(tied.size() - named) + " more");
    if (!tied.empty())
        text += first ? "; it ties for first place with " + and_list(listed) : "; it ties with " + and_list(listed);
    else if (first && ranking.size() > 1)
        text += "; next is " + quote_token(col_label(s.result, ranking[1])) + " at " + format_percent(p(0, ranking[1]));
    return text + ".";
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
    if (!inside) return step.title + ".";
    switch (step.kind) {
        case StepKind::embedding:         return narrate_embedding(trace, step, cell);
        case StepKind::positions:         return narrate_positions(trace, step, cell);
        case StepKind::context_layer:     return narrate_context(trace, step, cell);
        case StepKind::project_q:
        case StepKind::project_k:
        case StepKind::project_v:         return narrate_projection(trace, step, cell);
        case StepKind::score:             return narrate_score(trace, step, cell);
        case StepKind::scale:             return narrate_scale(trace, step, cell);
        case StepKind::mask:              return narrate_mask(trace, step, cell);
        case StepKind::softmax:           return narrate_softmax(trace, step, cell);
        case StepKind::blend:             return narrate_blend(trace, step, cell);
        case StepKind::concat_heads:      return narrate_concat(trace, step, cell);
        case StepKind::output_projection: return narrate_output_projection(trace, step, cell);
        case StepKind::residual:          return narrate_residual(trace, step, cell);
        case StepKind::layer_norm:        return narrate_layer_norm(trace, step, cell);
        case StepKind::feed_forward:      return narrate_feed_forward(trace, step, cell);
        case StepKind::tokens:
        case StepKind::next_token:        break;  // handled above
    }
    return step.title + ".";
}

const char* step_kind_name(StepKind kind) {
    switch (kind) {
        case StepKind::tokens:            return "tokens";
        case StepKind::embedding:         return "embedding";
        case StepKind::positions:         return "positions";
        case StepKind::context_layer:     return "context_layer";
        case StepKind::project_q:         return "project_q";
        case StepKind::project_k:         return "project_k";
        case StepKind::project_v:         return "project_v";
        case StepKind::score:             return "score";
        case StepKind::scale:             return "scale";
        case StepKind::mask:              return "mask";
        case StepKind::softmax:           return "softmax";
        case StepKind::blend:             return "blend";
        case StepKind::concat_heads:      return "concat_heads";
        case StepKind::output_projection: return "output_projection";
        case StepKind::residual:          return "residual";
        case StepKind::layer_norm:        return "layer_norm";
        case StepKind::feed_forward:      return "feed_forward";
        case StepKind::next_token:        return "next_token";
    }
    return "unknown";
}

}  // namespace neuralpath
