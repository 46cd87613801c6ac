// block_trace.cpp: the block's forward pass (engine/core/block.h) recorded step by step (order
// in block_trace.h): each step's matrices come from the activations, its words from the catalogue.
//
// [SECTION] Helpers (labels, per-cell terms)
// [SECTION] Trace accessors
// [SECTION] run_block: embeddings and positions
// [SECTION] run_block: context layers
// [SECTION] run_block: the shown attention layer
// [SECTION] run_block: residuals, LayerNorm, feed-forward, next token
#include "engine/trace/block_trace.h"

#include "engine/core/block.h"
#include "engine/core/embedding.h"
#include "engine/core/error.h"
#include "engine/core/layers.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace neuralpath {

namespace {

// [SECTION] Helpers (labels, per-cell terms) ---------------------------------------------------

// A step title's words (catalogue [steps]) with one more placeholder.
TextArgs with(TextArgs args, std::pair<std::string, std::string> more) {
  args.push_back(std::move(more));
  return args;
}

// The mask's name in the learner's language: "none", "causal", "padding", "causal+padding".
std::string mask_title(const Mask& mask) {
  std::string key = "steps.mask_" + mask.name();
  std::replace(key.begin(), key.end(), '+', '_');
  return tr(key);
}

// A matrix's or scalar's name on the board, in the learner's language ([matrices]).
std::string matrix_name(const std::string& key, TextArgs args = {}) { return tr("matrices." + key, args); }

// Column names counted from 1 (q1, q2, …), as the lessons and the split-join explorer count a
// head's columns ("head 1 owns columns 1–2"); positions still count from 0, as PE(pos) does.
std::vector<std::string> numbered(const std::string& prefix, Index n) {
  std::vector<std::string> labels;
  for (Index i = 1; i <= n; ++i) labels.push_back(prefix + std::to_string(i));
  return labels;
}

// The terms of C = A·B: cell (i, c) is Σ_k A(i,k)·B(k,c), one Term per k.
std::vector<CellTerms> product_terms(const Matrix& a, const Matrix& b) {
  std::vector<CellTerms> cells;
  cells.reserve(static_cast<std::size_t>(a.rows() * b.cols()));
  for (Index i = 0; i < a.rows(); ++i)
    for (Index c = 0; c < b.cols(); ++c) {
      CellTerms cell{{static_cast<int>(i), static_cast<int>(c)}, {}, 0.0f};
      for (Index k = 0; k < a.cols(); ++k) cell.terms.push_back({static_cast<int>(k), a(i, k), b(k, c)});
      cell.value = a.row(i).dot(b.col(c));
      cells.push_back(std::move(cell));
    }
  return cells;
}

Index argmax(const Eigen::Ref<const Eigen::RowVectorXf>& row) {
  Index best = 0;
  row.maxCoeff(&best);
  return best;
}

Index argmax_abs(const Eigen::Ref<const Eigen::RowVectorXf>& row) {
  Index best = 0;
  row.cwiseAbs().maxCoeff(&best);
  return best;
}

struct Builder {
  Trace& trace;
  bool record_terms;
  int f;  // focus token

  Step& add(StepKind kind, std::string title, int layer = -1, int head = -1) {
    Step s;
    s.kind = kind;
    s.title = std::move(title);
    s.layer = layer;
    s.head = head;
    trace.steps.push_back(std::move(s));
    return trace.steps.back();
  }
  NamedMatrix tokens_by(const std::string& name, const Matrix& m, std::vector<std::string> cols) const {
    return {name, m, trace.labels, std::move(cols)};
  }
  NamedMatrix by_features(const std::string& name, const Matrix& m) const {
    return tokens_by(name, m, trace.feature_labels);
  }
  NamedMatrix square(const std::string& name, const Matrix& m) const { return tokens_by(name, m, trace.labels); }
  // A [T][d] step whose result row f is the one narrated: focus on its largest entry.
  void focus_row_max(Step& s) const {
    s.tokens = {f};
    s.focus = {f, static_cast<int>(argmax_abs(s.result.values.row(f)))};
  }

  // `sublayer_key`: attention or feed_forward, the sublayer whose output is added.
  void residual(const Matrix& x, const Matrix& sublayer, const Matrix& sum, const std::string& sublayer_key) {
    Step& s = add(StepKind::residual,
                  tr(sublayer_key == "attention" ? "steps.residual_attention" : "steps.residual_feed_forward"));
    const std::string what = matrix_name(sublayer_key);
    s.inputs = {by_features("x", x), by_features(what, sublayer)};
    s.result = by_features(matrix_name("x_plus", {{"what", what}}), sum);
    s.term_a = "x";
    s.term_b = what;
    if (record_terms)
      for (Index i = 0; i < sum.rows(); ++i)
        for (Index c = 0; c < sum.cols(); ++c)
          s.cell_terms.push_back(
              {{static_cast<int>(i), static_cast<int>(c)}, {{0, x(i, c), 1.0f}, {1, sublayer(i, c), 1.0f}}, sum(i, c)});
    s.tokens = {f};
    s.focus = {f, static_cast<int>(argmax_abs(sublayer.row(f)))};
  }

  void norm(const Matrix& x, const LayerNormResult& ln, const LayerNormParams& p, const std::string& title) {
    Step& s = add(StepKind::layer_norm, title);
    s.inputs = {by_features("x", x), tokens_by(matrix_name("mean"), ln.mean, {matrix_name("mean")}),
                tokens_by(matrix_name("spread"), ln.stddev, {matrix_name("spread")})};
    s.result = by_features("LayerNorm(x)", ln.output);
    s.term_a = "x - mean";
    s.term_b = "gamma / spread";  // plus beta as a term with b = 1
    if (record_terms)
      for (Index i = 0; i < x.rows(); ++i)
        for (Index c = 0; c < x.cols(); ++c)
          s.cell_terms.push_back(
              {{static_cast<int>(i), static_cast<int>(c)},
               {{static_cast<int>(c), x(i, c) - ln.mean(i), p.gamma(c) / ln.stddev(i)}, {-1, p.beta(c), 1.0f}},
               ln.output(i, c)});
    s.scalar = p.eps;
    s.scalar_name = "eps";
    focus_row_max(s);
  }
};

}  // namespace

// [SECTION] Trace accessors --------------------------------------------------------------------

Matrix Trace::weights(int head) const {
  if (head < 0 || head >= static_cast<int>(attention.heads.size()))
    throw InputError("no head " + std::to_string(head) + " in the shown layer");
  return attention.heads[static_cast<std::size_t>(head)].weights;
}

Vector Trace::spotlight(int query, int head) const {
  const auto t = static_cast<int>(tokens.size());
  if (query < 0 || query >= t) throw InputError("no token " + std::to_string(query) + " to spotlight");
  if (head >= 0) return weights(head).row(query).transpose();
  Vector mean = Vector::Zero(t);
  for (const AttentionResult& h : attention.heads) mean += h.weights.row(query).transpose();
  return mean / static_cast<float>(attention.heads.size());
}

// [SECTION] run_block: embeddings and positions ------------------------------------------------

Trace run_block(const ModelSpec& spec, std::string_view sentence, const TraceOptions& options) {
  return run_block(spec, tokenize(sentence), options);
}

Trace run_block(const ModelSpec& unresolved, const std::vector<Token>& tokens, const TraceOptions& options) {
  const ModelSpec spec = resolve_model(unresolved);
  Trace trace;
  static_cast<BlockActivations&>(trace) = block_forward(spec, tokens, options.mask);  // the maths, all of it
  const int T = static_cast<int>(tokens.size());
  const int d = spec.d_model;
  trace.tokens = tokens;
  for (const Token& t : tokens) {
    trace.labels.push_back(t.text);
    trace.known.push_back(is_known_word(spec.vocabulary, t.key));
  }
  trace.feature_labels = spec.vocabulary.feature_names;
  for (int c = static_cast<int>(trace.feature_labels.size()); c < d; ++c)
    trace.feature_labels.push_back("d" + std::to_string(c));
  trace.mask = options.mask;
  trace.d_model = d;
  trace.heads = spec.attention.heads;
  trace.d_head = d / spec.attention.heads;
  trace.focus_token = options.focus_token < 0 ? T - 1 : options.focus_token;
  if (trace.focus_token >= T)
    throw InputError("focus token " + std::to_string(options.focus_token) + " is past the last token");
  const int f = trace.focus_token;
  Builder b{trace, T <= options.max_term_tokens, f};

  {  // tokens: the sentence as the rows every later matrix has
    Step& s = b.add(StepKind::tokens, tr("steps.tokens"));
    Matrix positions(1, T);
    for (int t = 0; t < T; ++t) positions(0, t) = static_cast<float>(t);
    s.result = {matrix_name("position"), positions, {matrix_name("position")}, trace.labels};
    s.scalar = static_cast<float>(T);
    s.scalar_name = matrix_name("tokens");
    s.focus = {0, f};
    s.tokens = {f};
  }
  {  // e = embed(tokens)                                         [T][d]
    Step& s = b.add(StepKind::embedding, tr("steps.embedding"));
    s.result = b.by_features(matrix_name("embedding"), trace.embeddings);
    b.focus_row_max(s);
  }
  {  // x_0 = e + positional_scale · PE                             [T][d]
    Step& s = b.add(StepKind::positions, tr("steps.positions"));
    s.inputs = {b.by_features(matrix_name("embedding"), trace.embeddings),
                b.by_features(matrix_name("position_code"), trace.positions)};
    s.result = b.by_features("x", trace.input);
    s.scalar = spec.positional_encoding ? spec.positional_scale : 0.0f;
    s.scalar_name = matrix_name("positional_scale");
    s.tokens = {f};
    s.focus = {f, static_cast<int>(argmax_abs(trace.positions.row(f)))};
  }

  // [SECTION] run_block: context layers ------------------------------------------------------
  for (std::size_t c = 0; c < trace.context.size(); ++c) {
    const Matrix& x = trace.context_input[c];
    const MultiHeadResult& mh = trace.context[c];  // MultiHead_c(x)
    const Matrix& after =
        c + 1 < trace.context.size() ? trace.context_input[c + 1] : trace.shown_input;  // x + MultiHead_c(x)
    Step& s =
        b.add(StepKind::context_layer, tr("steps.context_layer", {{"n", std::to_string(c + 1)}}), static_cast<int>(c));
    s.inputs = {b.by_features("x", x)};
    for (std::size_t h = 0; h < mh.heads.size(); ++h)
      s.inputs.push_back(
          b.square(matrix_name("weights") + tr("steps.in_head", {{"n", std::to_string(h + 1)}}), mh.heads[h].weights));
    s.result = b.by_features(matrix_name("x_plus", {{"what", matrix_name("context")}}), after);
    s.tokens = {f};
    s.focus = {f, static_cast<int>(argmax_abs(mh.output.row(f)))};
  }

  // [SECTION] run_block: the shown attention layer -------------------------------------------
  const AttentionLayer& layer = spec.attention;
  const Matrix& x = trace.shown_input;
  const MultiHeadResult& mh = trace.attention;
  const std::pair<StepKind, const Matrix*> projections[] = {
      {StepKind::project_q, &layer.w_q}, {StepKind::project_k, &layer.w_k}, {StepKind::project_v, &layer.w_v}};
  const char* names[] = {"Q", "K", "V"};
  const Matrix* results[] = {&mh.q, &mh.k, &mh.v};
  for (int p = 0; p < 3; ++p) {  // Q = X·W_Q, K = X·W_K, V = X·W_V
    const std::string n = names[p];
    Step& s = b.add(projections[p].first, tr("steps.projection", {{"name", n}}));
    s.inputs = {b.by_features("X", x),
                {"W_" + n, *projections[p].second, trace.feature_labels,
                 numbered(n == "Q"   ? "q"
                          : n == "K" ? "k"
                                     : "v",
                          d)}};
    s.result = b.tokens_by(n, *results[p], numbered(n == "Q" ? "q" : n == "K" ? "k" : "v", d));
    s.term_a = "x";
    s.term_b = "W_" + n;
    if (b.record_terms) s.cell_terms = product_terms(x, *projections[p].second);
    b.focus_row_max(s);
  }

  const auto qh = split_heads(mh.q, layer.heads);
  const auto kh = split_heads(mh.k, layer.heads);
  const auto vh = split_heads(mh.v, layer.heads);
  const int dh = trace.d_head;
  const std::string sqrt_name = "1/" + format_sqrt(dh);
  for (int h = 0; h < layer.heads; ++h) {
    const AttentionResult& a = mh.heads[static_cast<std::size_t>(h)];
    const std::string in_head = tr("steps.in_head", {{"n", std::to_string(h + 1)}});  // " (head 1)"
    const TextArgs head = {{"head", in_head}};
    // the key this head's focus query weighs most: the cell every narration of the head follows
    const int j = a.weights.row(f).maxCoeff() > 0.0f ? static_cast<int>(argmax(a.weights.row(f))) : f;
    std::vector<Cell> masked;
    for (int i = 0; i < T; ++i)
      for (int k = 0; k < T; ++k)
        if (trace.mask.hides(i, k)) masked.push_back({i, k});
    const auto dims = numbered("", dh);

    {  // scores = Q_h·K_hᵀ
      Step& s = b.add(StepKind::score, tr("steps.score", head), -1, h);
      s.inputs = {b.tokens_by("Q" + in_head, qh[h], dims), b.tokens_by("K" + in_head, kh[h], dims)};
      s.result = b.square(matrix_name("scores"), a.scores);
      s.term_a = "q";
      s.term_b = "k";
      if (b.record_terms) s.cell_terms = product_terms(qh[h], kh[h].transpose());
      s.tokens = {f, j};
      s.focus = {f, j};
    }
    {  // scaled = scores · scale, scale = 1/sqrt(d_head)
      Step& s = b.add(StepKind::scale, tr("steps.scale", with(head, {"sqrt", sqrt_name})), -1, h);
      s.inputs = {b.square(matrix_name("scores"), a.scores)};
      s.result = b.square(matrix_name("scaled"), a.scaled);
      s.scalar = a.scale;
      s.scalar_name = sqrt_name;
      s.term_a = "score";
      s.term_b = "scale";
      if (b.record_terms)
        for (int i = 0; i < T; ++i)
          for (int k = 0; k < T; ++k) s.cell_terms.push_back({{i, k}, {{k, a.scores(i, k), a.scale}}, a.scaled(i, k)});
      s.tokens = {f, j};
      s.focus = {f, j};
    }
    {  // masked = scaled, -inf where hidden
      Step& s = b.add(StepKind::mask, tr("steps.mask", with(head, {"mask", mask_title(trace.mask)})), -1, h);
      s.inputs = {b.square(matrix_name("scaled"), a.scaled)};
      s.result = b.square(matrix_name("masked"), a.masked);
      s.masked_cells = masked;
      // The mask teaches on a row it changes: the focus token's own row when something is
      // hidden from it, else the nearest earlier row that has a hidden cell (under a causal
      // mask the last token hides nothing, the one before it hides the last).
      const Cell* teaching = nullptr;
      for (const Cell& c : masked)
        if (c.row <= f && (!teaching || c.row > teaching->row)) teaching = &c;
      if (!teaching && !masked.empty()) teaching = &masked.front();
      s.focus = teaching ? *teaching : Cell{f, j};
      s.tokens = {s.focus.row};
    }
    {  // weights = softmax(masked), row by row
      Step& s = b.add(StepKind::softmax, tr("steps.softmax", head), -1, h);
      // Nothing hidden: the softmax's input is the scaled grid itself (a playback that
      // leaves the mask step out must not call it "masked").
      s.inputs = {b.square(matrix_name(masked.empty() ? "scaled" : "masked"), a.masked)};
      s.result = b.square(matrix_name("weights"), a.weights);
      s.masked_cells = masked;
      s.term_a = "exp(s - max)";
      s.term_b = "1 / sum";
      if (b.record_terms)
        for (int i = 0; i < T; ++i) {
          const float max = a.masked.row(i).maxCoeff();
          const float sum =
              max == -std::numeric_limits<float>::infinity() ? 0.0f : (a.masked.row(i).array() - max).exp().sum();
          for (int k = 0; k < T; ++k) {
            const float e = sum > 0.0f ? std::exp(a.masked(i, k) - max) : 0.0f;
            s.cell_terms.push_back({{i, k}, {{k, e, sum > 0.0f ? 1.0f / sum : 0.0f}}, a.weights(i, k)});
          }
        }
      s.tokens = {f, j};
      s.focus = {f, j};
    }
    {  // blend = weights·V_h
      Step& s = b.add(StepKind::blend, tr("steps.blend", head), -1, h);
      s.inputs = {b.square(matrix_name("weights"), a.weights), b.tokens_by("V" + in_head, vh[h], dims)};
      s.result = b.tokens_by(matrix_name("blend"), a.output, dims);
      s.term_a = "weight";
      s.term_b = "v";
      if (b.record_terms) s.cell_terms = product_terms(a.weights, vh[h]);
      s.tokens = {f, j};
      s.focus = {f, static_cast<int>(argmax_abs(a.output.row(f)))};
    }
  }
  {  // concat(head_1 .. head_H)
    Step& s = b.add(StepKind::concat_heads, tr("steps.concat_heads"));
    for (int h = 0; h < layer.heads; ++h)
      s.inputs.push_back(b.tokens_by(matrix_name("blend") + tr("steps.in_head", {{"n", std::to_string(h + 1)}}),
                                     mh.heads[static_cast<std::size_t>(h)].output, numbered("", dh)));
    s.result = b.tokens_by(matrix_name("concat"), mh.concat, numbered("", d));
    b.focus_row_max(s);
  }
  {  // · W_O
    Step& s = b.add(StepKind::output_projection, tr("steps.output_projection"));
    s.inputs = {b.tokens_by(matrix_name("concat"), mh.concat, numbered("", d)),
                {"W_O", layer.w_o, numbered("", d), trace.feature_labels}};
    s.result = b.by_features(matrix_name("attention"), mh.output);
    s.term_a = matrix_name("concat");
    s.term_b = "W_O";
    if (b.record_terms) s.cell_terms = product_terms(mh.concat, layer.w_o);
    b.focus_row_max(s);
  }

  // [SECTION] run_block: residuals, LayerNorm, feed-forward, next token ----------------------
  b.residual(x, mh.output, trace.after_attention, "attention");  // r_1 = x + a ([matrices] and [steps] key)
  b.norm(trace.after_attention, trace.norm_attention, spec.norm_attention, tr("steps.norm_attention"));

  if (spec.feed_forward.enabled) {
    const Matrix& h = trace.norm_attention.output;  // FFN(h) = relu(h·W1 + b1)·W2 + b2
    {
      Step& s = b.add(StepKind::feed_forward, tr("steps.feed_forward"));
      const int hidden = spec.feed_forward.hidden;
      s.inputs = {b.by_features("x", h),
                  b.tokens_by(matrix_name("hidden"), trace.feed_forward.hidden, numbered("h", hidden))};
      s.result = b.by_features(matrix_name("feed_forward"), trace.feed_forward.output);
      s.term_a = matrix_name("hidden");
      s.term_b = "W2";  // plus b2 (not a term: a constant per column)
      if (b.record_terms) s.cell_terms = product_terms(trace.feed_forward.hidden, spec.feed_forward.w2);
      b.focus_row_max(s);
    }
    b.residual(h, trace.feed_forward.output, trace.after_feed_forward, "feed_forward");  // r_2 = h + FFN(h)
    b.norm(trace.after_feed_forward, trace.norm_feed_forward, spec.norm_feed_forward, tr("steps.norm_feed_forward"));
  }

  std::vector<std::string> words;
  for (const auto& entry : spec.vocabulary.words) words.push_back(entry.first);
  trace.next = next_token(trace.output.row(T - 1).transpose(), spec.unembedding, words, spec.temperature);
  {  // p = softmax(U·h_last / temperature)
    Step& s = b.add(StepKind::next_token, tr("steps.next_token"));
    s.inputs = {{matrix_name("logits"), trace.next.logits.transpose(), {matrix_name("logit")}, words}};
    s.result = {matrix_name("probability"), trace.next.probabilities.transpose(), {matrix_name("probability")}, words};
    s.scalar = spec.temperature;
    s.scalar_name = matrix_name("temperature");
    s.tokens = {T - 1};
    s.focus = {0, trace.next.ranking.empty() ? -1 : trace.next.ranking.front()};
  }

  for (Step& s : trace.steps) s.narration = narrate(trace, s, s.focus);
  return trace;
}

}  // namespace neuralpath
