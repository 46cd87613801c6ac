// model.cpp: resolving a ModelSpec (seeded defaults for every empty matrix) and the documented
// default model used by `neuralpath-cli trace` without --lesson.
//
// [SECTION] Seeded defaults
// [SECTION] resolve_model
// [SECTION] default_model_spec
#include "model.h"

#include "embedding.h"
#include "error.h"

#include <cmath>
#include <string>

namespace neuralpath {

namespace {

// [SECTION] Seeded defaults --------------------------------------------------------------------
// Each seeded matrix draws from splitmix64 seeded with fnv1a64(its name) XOR spec.seed, names
// being "context<k>.w_q", "attention.w_k", "feed_forward.w1", ... so changing one layer's
// weights never changes another's, and the same spec gives the same numbers everywhere.

Matrix seeded_uniform(Index rows, Index cols, float limit, const std::string& name, std::uint64_t seed) {
  std::uint64_t state = fnv1a64(name) ^ seed;
  Matrix m(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) m(i, j) = uniform_from(state, -limit, limit);
  return m;
}

void check_shape(const Matrix& m, Index rows, Index cols, const std::string& name) {
  if (m.rows() != rows || m.cols() != cols)
    throw InputError(name + " is [" + std::to_string(m.rows()) + "][" + std::to_string(m.cols()) + "] but must be [" +
                     std::to_string(rows) + "][" + std::to_string(cols) + "]");
  if (!m.allFinite()) throw InputError(name + " holds a non-finite number");
}

void check_vector(const Vector& v, Index size, const std::string& name) {
  if (v.size() != size)
    throw InputError(name + " has " + std::to_string(v.size()) + " entries but must have " + std::to_string(size));
  if (!v.allFinite()) throw InputError(name + " holds a non-finite number");
}

// [SECTION] resolve_model ----------------------------------------------------------------------

void resolve_attention(AttentionLayer& layer, int d, const std::string& name, std::uint64_t seed) {
  if (layer.heads < 1 || d % layer.heads != 0)
    throw InputError(name + ": " + std::to_string(layer.heads) + " heads do not divide d_model " + std::to_string(d));
  const float limit = std::sqrt(3.0f / static_cast<float>(d));  // variance 1/d
  auto fill = [&](Matrix& w, const char* which) {
    if (w.size() == 0)
      w = seeded_uniform(d, d, limit, name + "." + which, seed);
    else
      check_shape(w, d, d, name + "." + which);
  };
  fill(layer.w_q, "w_q");
  fill(layer.w_k, "w_k");
  fill(layer.w_v, "w_v");
  if (layer.w_o.size() == 0)
    layer.w_o = Matrix::Identity(d, d);  // heads' blend passes through
  else
    check_shape(layer.w_o, d, d, name + ".w_o");
}

void resolve_norm(LayerNormParams& norm, int d, const std::string& name) {
  if (norm.gamma.size() == 0) norm.gamma = Vector::Ones(d);
  if (norm.beta.size() == 0) norm.beta = Vector::Zero(d);
  check_vector(norm.gamma, d, name + ".gamma");
  check_vector(norm.beta, d, name + ".beta");
  if (!(norm.eps > 0.0f) || !std::isfinite(norm.eps)) throw InputError(name + ".eps must be positive");
}

}  // namespace

ModelSpec resolve_model(const ModelSpec& spec) {
  ModelSpec r = spec;
  const Vocabulary& vocab = r.vocabulary;
  const int features = static_cast<int>(vocab.feature_names.size());
  if (r.d_model == 0) r.d_model = features > 0 ? features : 1;
  const int d = r.d_model;
  if (d < 1) throw InputError("d_model must be at least 1");
  if (d < features)
    throw InputError("d_model (" + std::to_string(d) + ") is smaller than the " + std::to_string(features) +
                     " vocabulary features");
  for (const auto& [word, values] : vocab.words) {
    if (static_cast<int>(values.size()) > features)
      throw InputError("the word '" + word + "' has " + std::to_string(values.size()) + " numbers for " +
                       std::to_string(features) + " features");
    for (const float x : values)
      if (!std::isfinite(x)) throw InputError("the word '" + word + "' has a non-finite number");
  }
  if (!(r.temperature > 0.0f) || !std::isfinite(r.temperature))
    throw InputError("temperature must be a positive number");
  if (!std::isfinite(r.positional_scale)) throw InputError("positional_scale must be finite");

  for (std::size_t c = 0; c < r.context_layers.size(); ++c)
    resolve_attention(r.context_layers[c], d, "context" + std::to_string(c), r.seed);
  resolve_attention(r.attention, d, "attention", r.seed);
  resolve_norm(r.norm_attention, d, "norm_attention");
  resolve_norm(r.norm_feed_forward, d, "norm_feed_forward");

  FeedForward& ffn = r.feed_forward;
  if (ffn.hidden == 0) ffn.hidden = ffn.w1.size() ? static_cast<int>(ffn.w1.cols()) : 4 * d;
  if (ffn.hidden < 1) throw InputError("feed_forward.hidden must be at least 1");
  const int h = ffn.hidden;
  if (ffn.w1.size() == 0) ffn.w1 = seeded_uniform(d, h, std::sqrt(3.0f / d), "feed_forward.w1", r.seed);
  if (ffn.w2.size() == 0) ffn.w2 = seeded_uniform(h, d, std::sqrt(3.0f / h), "feed_forward.w2", r.seed);
  if (ffn.b1.size() == 0) ffn.b1 = Vector::Zero(h);
  if (ffn.b2.size() == 0) ffn.b2 = Vector::Zero(d);
  check_shape(ffn.w1, d, h, "feed_forward.w1");
  check_shape(ffn.w2, h, d, "feed_forward.w2");
  check_vector(ffn.b1, h, "feed_forward.b1");
  check_vector(ffn.b2, d, "feed_forward.b2");

  const auto words = static_cast<Index>(vocab.words.size());
  if (r.unembedding.size() == 0) {  // tied: row v = embedding of word v
    r.unembedding.resize(words, d);
    Index v = 0;
    for (const auto& entry : vocab.words)
      r.unembedding.row(v++) = word_embedding(vocab, entry.first, d, r.seed).transpose();
  } else {
    check_shape(r.unembedding, words, d, "unembedding");
  }
  return r;
}

// [SECTION] default_model_spec -----------------------------------------------------------------
// Hand-set so that the classic example works for a reason a learner can follow:
//   context layer: a pronoun's query matches the "describes_*" features in adjectives' keys,
//                  and the values copy those features, so "it" picks up "tired" or "wide";
//   shown layer, head 1: "describes_animate" in a query looks for "animate" in keys,
//                  "describes_place" for "place", so "it" swings between "animal" and "street";
//   shown layer, head 2: animate things look for actions (who did what).

ModelSpec default_model_spec() {
  enum F { animate, place, pronoun, action, describes_animate, describes_place, function_word, punctuation, kF };
  ModelSpec spec;
  spec.vocabulary.feature_names = {"animate",           "place",           "pronoun",       "action",
                                   "describes_animate", "describes_place", "function_word", "punctuation"};
  auto word = [&](const char* key, std::initializer_list<std::pair<F, float>> values) {
    std::vector<float> v(kF, 0.0f);
    for (const auto& [f, x] : values) v[f] = x;
    spec.vocabulary.words[key] = v;
  };
  for (const char* w : {"animal", "cat", "dog", "bird", "child"}) word(w, {{animate, 1.0f}});
  for (const char* w : {"street", "road", "river", "mat", "house", "park"}) word(w, {{place, 1.0f}});
  for (const char* w : {"it", "she", "he", "they"}) word(w, {{pronoun, 1.0f}});
  for (const char* w : {"cross", "sat", "ran", "slept", "crossed", "chased", "saw"}) word(w, {{action, 1.0f}});
  for (const char* w : {"tired", "hungry", "sleepy", "happy"}) word(w, {{describes_animate, 1.0f}});
  for (const char* w : {"wide", "busy", "long", "narrow"}) word(w, {{describes_place, 1.0f}});
  for (const char* w : {"the", "a", "on", "in", "because", "and", "too", "very"}) word(w, {{function_word, 1.0f}});
  word("was", {{action, 0.3f}, {function_word, 0.7f}});
  word("didn't", {{action, 0.5f}, {function_word, 0.5f}});
  for (const char* w : {".", ",", "!", "?"}) word(w, {{punctuation, 1.0f}});

  spec.d_model = kF;
  spec.positional_encoding = true;
  spec.positional_scale = 0.1f;  // small: order matters a little, meaning dominates
  spec.seed = 42;

  const Matrix zero = Matrix::Zero(kF, kF);
  AttentionLayer context;
  context.heads = 1;
  context.w_q = zero;
  context.w_k = zero;
  context.w_v = zero;
  context.w_q(pronoun, describes_animate) = 3.0f;  // "it" asks: what describes me?
  context.w_q(pronoun, describes_place) = 3.0f;
  context.w_k(describes_animate, describes_animate) = 3.0f;  // adjectives answer
  context.w_k(describes_place, describes_place) = 3.0f;
  context.w_v(describes_animate, describes_animate) = 1.0f;  // and hand over what they describe
  context.w_v(describes_place, describes_place) = 1.0f;
  spec.context_layers.push_back(context);

  AttentionLayer& shown = spec.attention;
  shown.heads = 2;  // head 1: columns 0-3, head 2: columns 4-7
  shown.w_q = zero;
  shown.w_k = zero;
  shown.w_v = Matrix::Identity(kF, kF);
  shown.w_q(describes_animate, 0) = 4.0f;  // head 1: described as animate -> look for animate
  shown.w_q(describes_place, 1) = 4.0f;    //         described as a place  -> look for a place
  shown.w_k(animate, 0) = 4.0f;
  shown.w_k(place, 1) = 4.0f;
  shown.w_q(animate, 4) = 2.0f;  // head 2: animate things look for actions
  shown.w_k(action, 4) = 2.0f;
  return spec;
}

}  // namespace neuralpath
