// model_spec.cpp: lesson data -> ModelSpec, widget runs, and the engine-backed checks.
//
// [SECTION] Conversion   Grid -> Matrix, vocabulary and weights -> ModelSpec
// [SECTION] Widgets      run_sentence, spotlight_weights, step_kinds
// [SECTION] Checks       check_with_engine
#include "engine/lesson/model_spec.h"

#include "engine/core/error.h"
#include "engine/core/tokenizer.h"
#include "engine/lesson/limits.h"
#include "engine/lesson/limits.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::lesson {

namespace {

// [SECTION] Conversion --------------------------------------------------------------------------

neuralpath::Matrix to_matrix(const Grid& g) {
  const auto rows = static_cast<Index>(g.size());
  const auto cols = rows ? static_cast<Index>(g.front().size()) : 0;
  neuralpath::Matrix m(rows, cols);
  for (Index r = 0; r < rows; ++r)
    for (Index c = 0; c < cols; ++c) m(r, c) = g[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
  return m;
}

neuralpath::AttentionLayer to_layer(const LayerData& l) {
  neuralpath::AttentionLayer out;
  out.heads = l.heads;
  if (auto* m = l.find("W_Q")) out.w_q = to_matrix(m->rows);
  if (auto* m = l.find("W_K")) out.w_k = to_matrix(m->rows);
  if (auto* m = l.find("W_V")) out.w_v = to_matrix(m->rows);
  if (auto* m = l.find("W_O")) out.w_o = to_matrix(m->rows);
  return out;
}

}  // namespace

bool trace_is_finite(const neuralpath::Trace& trace) {
  for (const neuralpath::Step& step : trace.steps) {
    const auto& v = step.result.values;
    if (v.hasNaN()) return false;
    // The mask step writes −∞ into the cells it hides; any other infinity is an overflow.
    if (step.kind != neuralpath::StepKind::mask && !v.allFinite()) return false;
  }
  return trace.next.probabilities.size() == 0 || trace.next.probabilities.allFinite();
}

neuralpath::ModelSpec model_spec_for(const Lesson& lesson) {
  if (!lesson.vocabulary) return neuralpath::default_model_spec();
  neuralpath::ModelSpec spec;
  spec.vocabulary.feature_names = lesson.vocabulary->features;
  // The engine names dimensions only to show them (board columns, narration): a label wins.
  for (std::size_t i = 0; i < lesson.vocabulary->labels.size() && i < spec.vocabulary.feature_names.size(); ++i)
    if (!lesson.vocabulary->labels[i].empty()) spec.vocabulary.feature_names[i] = lesson.vocabulary->labels[i];
  for (const auto& w : lesson.vocabulary->words) spec.vocabulary.words[w.word] = w.values;
  if (!lesson.weights) return spec;

  const WeightsData& w = *lesson.weights;
  spec.d_model = w.d_model;
  spec.positional_encoding = w.positions;
  spec.positional_scale = w.position_scale;
  for (const auto& l : w.context) spec.context_layers.push_back(to_layer(l));
  spec.attention = to_layer(w.attention);
  spec.feed_forward.enabled = w.feed_forward;
  spec.feed_forward.hidden = w.hidden;
  for (const auto& m : w.feed_forward_matrices) {
    if (m.name == "W1")
      spec.feed_forward.w1 = to_matrix(m.rows);
    else if (m.name == "W2")
      spec.feed_forward.w2 = to_matrix(m.rows);
    else if (m.name == "b1")
      spec.feed_forward.b1 = to_matrix(m.rows).row(0).transpose();
    else if (m.name == "b2")
      spec.feed_forward.b2 = to_matrix(m.rows).row(0).transpose();
  }
  spec.temperature = w.temperature;
  spec.seed = w.seed;
  return spec;
}

// [SECTION] Widgets -----------------------------------------------------------------------------

neuralpath::Trace run_sentence(const Lesson& lesson, std::string_view sentence, bool causal) {
  neuralpath::TraceOptions options;
  options.mask = causal ? neuralpath::Mask::causal_mask() : neuralpath::Mask::none();
  return neuralpath::run_block(model_spec_for(lesson), sentence, options);
}

std::optional<SpotlightWeights> spotlight_weights(const Lesson& lesson, std::string_view sentence,
                                                  std::string_view query) {
  const neuralpath::Trace trace = run_sentence(lesson, sentence, false);
  SpotlightWeights out;
  for (const auto& t : trace.tokens) out.tokens.push_back(t.text);
  std::string key(query);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t i = 0; i < trace.tokens.size(); ++i)
    if (trace.tokens[i].key == key) {
      out.query = static_cast<int>(i);
      break;
    }
  if (out.query < 0) return std::nullopt;
  const neuralpath::Vector w = trace.spotlight(out.query);
  for (Index i = 0; i < w.size(); ++i) {
    out.weights.push_back(w(i));
    if (static_cast<int>(i) != out.query && (out.top < 0 || w(i) > out.weights[static_cast<std::size_t>(out.top)]))
      out.top = static_cast<int>(i);
  }
  return out;
}

std::vector<neuralpath::StepKind> step_kinds(std::string_view name) {
  using K = neuralpath::StepKind;
  if (name == "tokens") return {K::tokens};
  if (name == "embedding") return {K::embedding};
  if (name == "positions") return {K::positions};
  if (name == "context") return {K::context_layer};
  if (name == "qkv") return {K::project_q, K::project_k, K::project_v};
  if (name == "scores") return {K::score};
  if (name == "scale") return {K::scale};
  if (name == "mask") return {K::mask};
  if (name == "softmax") return {K::softmax};
  if (name == "blend") return {K::blend};
  if (name == "heads") return {K::concat_heads};
  if (name == "output") return {K::output_projection};
  if (name == "residual") return {K::residual};
  if (name == "layer-norm") return {K::layer_norm};
  if (name == "feed-forward") return {K::feed_forward};
  if (name == "next-token") return {K::next_token};
  return {};
}

// [SECTION] Checks ------------------------------------------------------------------------------

std::vector<Diagnostic> check_with_engine(const Lesson& lesson, const std::vector<SentenceRef>& sentences) {
  std::vector<Diagnostic> out;
  auto error = [&](SourcePos pos, std::string message) { out.push_back({lesson.file, pos, std::move(message)}); };
  const SourcePos model_pos = lesson.weights      ? lesson.weights->pos
                              : lesson.vocabulary ? lesson.vocabulary->pos
                                                  : SourcePos{1, 1};

  neuralpath::ModelSpec spec = model_spec_for(lesson);
  neuralpath::ModelSpec resolved;
  try {
    resolved = neuralpath::resolve_model(spec);
  } catch (const neuralpath::InputError& e) {
    error(model_pos, std::string("the engine rejects this lesson's model: ") + e.what());
    return out;
  }

  // Vocabulary words must be single tokens, or no sentence could ever use them.
  if (lesson.vocabulary)
    for (const auto& w : lesson.vocabulary->words) {
      std::vector<neuralpath::Token> tokens;
      try {
        tokens = neuralpath::tokenize(w.word);
      } catch (const neuralpath::InputError& e) {
        error(w.pos, e.what());
        continue;
      }
      if (tokens.size() != 1 || tokens.front().key != w.word)
        error(w.pos, "'" + w.word + "' is not one token for the tokenizer (it reads " + std::to_string(tokens.size()) +
                         "); write each word or mark separately");
    }

  for (const auto& s : sentences) {
    const SourcePos start = s.positions.empty() ? SourcePos{} : s.positions.front();
    // What the page can show (limits.h): the widget refuses the same.
    if (s.text.size() > kMaxSentenceBytes) {
      error(start, "the " + s.widget + " sentence is " + std::to_string(s.text.size()) +
                       " bytes; a sentence holds at most " + std::to_string(kMaxSentenceBytes));
      continue;
    }
    std::vector<neuralpath::Token> tokens;
    try {
      tokens = neuralpath::tokenize(s.text);
    } catch (const neuralpath::InputError& e) {
      error(start, e.what());
      continue;
    }
    if (tokens.empty()) {
      error(start, "the " + s.widget + " sentence is empty");
      continue;
    }
    if (const int most = s.max_tokens; most > 0 && static_cast<int>(tokens.size()) > most) {
      error(start, "the " + s.widget + " shows at most " + std::to_string(most) + " tokens; this sentence has " +
                       std::to_string(tokens.size()));
      continue;
    }
    bool known = true;
    for (const auto& t : tokens) {
      if (resolved.vocabulary.words.count(t.key)) continue;
      known = false;
      const SourcePos at = t.byte_begin < s.positions.size() ? s.positions[t.byte_begin] : start;
      error(at, "'" + t.text + "' is not in the lesson's vocabulary" +
                    (lesson.vocabulary ? std::string(" (add it to the vocabulary block)")
                                       : std::string(" (the default model's; add a vocabulary block)")));
    }
    if (!s.query.empty()) {
      std::string key = s.query;
      for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const bool found =
          std::any_of(tokens.begin(), tokens.end(), [&](const neuralpath::Token& t) { return t.key == key; });
      if (!found) error(start, "the query word '" + s.query + "' does not occur in this sentence");
    }
    if (!known) continue;
    try {
      neuralpath::TraceOptions options;
      options.mask = neuralpath::Mask::none();
      const neuralpath::Trace trace = neuralpath::run_block(spec, tokens, options);
      // Numbers too large for a float (1e38 anywhere) come out as infinity and then NaN.
      if (!trace_is_finite(trace))
        error(start,
              "the engine's numbers for this sentence overflow (infinity or NaN); "
              "use smaller weights, word vectors or positions");
    } catch (const neuralpath::InputError& e) {
      error(start, std::string("the engine cannot run this sentence: ") + e.what());
    }
  }

  // Each folder kind checks what only the engine can find (WidgetSettings::check).
  for_each_block(lesson, [&](const Block& b) {
    if (const auto* w = std::get_if<WidgetBlock>(&b.content); w && w->settings)
      w->settings->check(lesson, resolved, b.pos, error);
  });

  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.col < b.pos.col;
  });
  return out;
}

}  // namespace neuralpath::lesson
