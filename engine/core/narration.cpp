// narration.cpp: one plain sentence per step (or per cell), from the step's own numbers.
// Every number is printed with format.h, and only numbers the step holds (result, inputs,
// scalar) are spoken, so a view showing the step shows the same strings the narrator says.
#include "narration.h"

#include "format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace neuralpath {

namespace {

std::string token(const Trace& trace, int t) { return quote_token(trace.labels[static_cast<std::size_t>(t)]); }
std::string col_label(const NamedMatrix& m, int c) { return m.col_labels[static_cast<std::size_t>(c)]; }
std::string head_phrase(const Step& s) { return s.head >= 0 ? " in head " + std::to_string(s.head + 1) : ""; }
const Matrix& input(const Step& s, std::size_t i) { return s.inputs.at(i).values; }

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
    const Matrix& w = input(s, 1);  // head 1's weights
    Index from = 0;
    const float best = w.row(c.row).maxCoeff(&from);
    const std::string layer = "Context layer " + std::to_string(s.layer + 1);
    if (best <= 0.0f) return layer + ": " + token(trace, c.row) + " can see no token and stays as it was.";
    return layer + ": " + token(trace, c.row) + " gathers most from " + token(trace, static_cast<int>(from)) +
           " (weight " + format_number(best) + "), so its " + col_label(s.result, c.col) + " goes from " +
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
    return token(trace, c.row) + " may look at " + token(trace, c.col) + ", so that score stays " +
           format_number(s.result.values(c.row, c.col)) + "; later tokens are set to " +
           format_number(-std::numeric_limits<float>::infinity()) + ".";
}

std::string narrate_softmax(const Trace& trace, const Step& s, Cell c) {
    const float w = s.result.values(c.row, c.col);
    if (s.result.values.row(c.row).maxCoeff() <= 0.0f)
        return token(trace, c.row) + " can see no token" + head_phrase(s) + ", so all its weights are " +
               format_number(0.0f) + " (defined that way; never NaN).";
    if (std::isinf(input(s, 0)(c.row, c.col)))
        return token(trace, c.col) + " is masked, so it gets exactly " + format_number(w) + " of the attention of " +
               token(trace, c.row) + ".";
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
    return "The " + std::to_string(heads) + (heads == 1 ? " head's output becomes" : " heads' outputs sit side by side:") +
           " entry " + std::to_string(c.col % width) + " of head " + std::to_string(head + 1) + " for " +
           token(trace, c.row) + " is " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_output_projection(const Trace& trace, const Step& s, Cell c) {
    return "W_O mixes the heads back into features: the " + col_label(s.result, c.col) + " of " + token(trace, c.row) +
           " is " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_residual(const Trace& trace, const Step& s, Cell c) {
    return token(trace, c.row) + " keeps its own vector and adds what the " + s.inputs.at(1).name + " found: its " +
           col_label(s.result, c.col) + " is " + format_number(input(s, 0)(c.row, c.col)) + " + " +
           format_number(input(s, 1)(c.row, c.col)) + " = " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_layer_norm(const Trace& trace, const Step& s, Cell c) {
    return "LayerNorm re-centres " + token(trace, c.row) + " (mean " + format_number(input(s, 1)(c.row, 0)) +
           ", spread " + format_number(input(s, 2)(c.row, 0)) + "): its " + col_label(s.result, c.col) + " " +
           format_number(input(s, 0)(c.row, c.col)) + " becomes " + format_number(s.result.values(c.row, c.col)) + ".";
}

std::string narrate_feed_forward(const Trace& trace, const Step& s, Cell c) {
    const Matrix& hidden = input(s, 1);
    const auto active = (hidden.row(c.row).array() > 0.0f).count();
    return "The feed-forward layer works on " + token(trace, c.row) + " alone: " + std::to_string(active) + " of its " +
           std::to_string(hidden.cols()) + " hidden units fire, and they add " +
           format_number(s.result.values(c.row, c.col)) + " to its " + col_label(s.result, c.col) + ".";
}

std::string narrate_next_token(const Trace& trace, const Step& s, Cell c) {
    const std::string after = token(trace, static_cast<int>(trace.labels.size()) - 1);
    if (s.result.values.cols() == 0) return "The vocabulary is empty, so there is no next word to predict after " + after + ".";
    const auto& ranking = trace.next.ranking;
    std::string text = "After " + after + " the model gives " + quote_token(col_label(s.result, c.col)) + " " +
                       format_percent(s.result.values(0, c.col)) + " (logit " + format_number(input(s, 0)(0, c.col)) +
                       ", temperature " + format_number(s.scalar) + ")";
    if (c.col == ranking.front() && ranking.size() > 1)
        text += "; next is " + quote_token(col_label(s.result, ranking[1])) + " at " +
                format_percent(s.result.values(0, ranking[1]));
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
