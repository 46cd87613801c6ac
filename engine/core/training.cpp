// training.cpp: one example's forward, loss and backward through the whole block; the Trainer.
//
// [SECTION] Tasks
// [SECTION] Forward with everything the backward needs
// [SECTION] The answer loss: forward and backward
// [SECTION] Loss and backward
// [SECTION] Trainer
#include "training.h"

#include "block.h"

#include "embedding.h"
#include "error.h"
#include "layers.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

namespace neuralpath {

// [SECTION] Tasks --------------------------------------------------------------------------------

const char* objective_name(Objective objective) {
  switch (objective) {
    case Objective::next_word: return "next-word";
    case Objective::answer: return "answer";
  }
  return "answer";
}

int vocabulary_index(const Vocabulary& vocabulary, const std::string& key) {
  auto it = vocabulary.words.find(key);
  return it == vocabulary.words.end() ? -1 : static_cast<int>(std::distance(vocabulary.words.begin(), it));
}

Example next_word_example(const Vocabulary& vocabulary, std::vector<Token> tokens) {
  Example e;
  for (std::size_t t = 0; t < tokens.size(); ++t)
    e.targets.push_back(t + 1 < tokens.size() ? vocabulary_index(vocabulary, tokens[t + 1].key) : -1);
  e.tokens = std::move(tokens);
  return e;
}

namespace {

// [SECTION] Forward with everything the backward needs -------------------------------------------
// The block's own forward pass (block.h: every activation kept), then the objective's scores.
// Shapes: activations [T][d]; probabilities [T][V]; candidate_p [|C|]

struct BlockForward : BlockActivations {
  Matrix probabilities;         // next_word: softmax of the next-token scores
  std::vector<int> candidates;  // answer: the positions C the query may name
  Vector candidate_p;           // answer: softmax over C of s_j = o·e_j / t
};

Mask mask_for(Objective objective) { return objective == Objective::next_word ? Mask::causal_mask() : Mask::none(); }

void answer_forward(BlockForward& f, const Example& example, float temperature);  // below

// `objective` decides which scores the pass ends with; none when it is only run for its weights.
BlockForward forward(const ModelSpec& m, const Example& example, const Mask& mask, std::optional<Objective> objective) {
  BlockForward f;
  static_cast<BlockActivations&>(f) = block_forward(m, example.tokens, mask);
  if (objective == Objective::answer) answer_forward(f, example, m.temperature);
  if (objective == Objective::next_word) {
    const Matrix logits = f.output * m.unembedding.transpose();  // logit_tv = u_v · x_t
    f.probabilities = logits / m.temperature;
    softmax_rows_in_place(f.probabilities);  // softmax(logits / t)
  }
  return f;
}

std::vector<Matrix> shown_weights(const BlockForward& f) {
  std::vector<Matrix> w;
  for (const AttentionResult& h : f.attention.heads) w.push_back(h.weights);
  return w;
}

// [SECTION] The answer loss: forward and backward --------------------------------------------------
// Shapes: o = out[query] [d]; words [T][d]; s, p over the candidates C.

void answer_forward(BlockForward& f, const Example& example, float temperature) {
  const Index T = f.output.rows();
  f.candidates.clear();
  for (Index j = 0; j < T; ++j) {  // C = all but the query
    const bool other = std::find(example.other_answers.begin(), example.other_answers.end(), static_cast<int>(j)) !=
                       example.other_answers.end();
    if (j != example.query && !other) f.candidates.push_back(static_cast<int>(j));  // and other answers
  }
  f.candidate_p.resize(static_cast<Index>(f.candidates.size()));
  for (std::size_t c = 0; c < f.candidates.size(); ++c)  // s_j = o · e_j / t
    f.candidate_p(static_cast<Index>(c)) =
        f.output.row(example.query).dot(f.embeddings.row(f.candidates[c])) / temperature;
  f.candidate_p.array() -= f.candidate_p.maxCoeff();  // p = softmax_C(s)
  f.candidate_p = f.candidate_p.array().exp();
  f.candidate_p /= f.candidate_p.sum();
}

// L = −log p[answer]
float answer_loss(const BlockForward& f, const Example& example) {
  for (std::size_t c = 0; c < f.candidates.size(); ++c)
    if (f.candidates[c] == example.answer) return -std::log(std::max(f.candidate_p(static_cast<Index>(c)), 1e-30f));
  return 0.0f;  // unreachable: check_example keeps the answer a candidate
}

// dout[query] += scale · Σ_{j∈C} (p_j − [j = answer]) · e_j / t      (the words are not trained)
void answer_backward(Matrix& dout, const BlockForward& f, const Example& example, float temperature, float scale) {
  for (std::size_t c = 0; c < f.candidates.size(); ++c) {
    const int j = f.candidates[c];
    const float ds = f.candidate_p(static_cast<Index>(c)) - (j == example.answer ? 1.0f : 0.0f);  // ∂L/∂s_j
    dout.row(example.query) += (scale * ds / temperature) * f.embeddings.row(j);
  }
}

}  // namespace

// [SECTION] Loss and backward ------------------------------------------------------------------

ModelGrads ModelGrads::zeros(const ModelSpec& m) {
  ModelGrads g;
  for (std::size_t c = 0; c < m.context_layers.size(); ++c) g.context.push_back(AttentionGrads::zeros(m.d_model));
  g.attention = AttentionGrads::zeros(m.d_model);
  g.feed_forward = FeedForwardGrads::zeros(m.d_model, m.feed_forward.hidden);
  return g;
}

namespace {

// The example's loss from its forward pass: next_word L = −(1/N) Σ log p[target]; answer
// L = −log p[answer] (above).
float loss_of(const BlockForward& f, const Example& example, Objective objective) {
  if (objective == Objective::next_word) {
    const float n =
        static_cast<float>(std::count_if(example.targets.begin(), example.targets.end(), [](int t) { return t >= 0; }));
    float loss = 0.0f;
    for (Index t = 0; t < f.probabilities.rows(); ++t)
      if (example.targets[static_cast<std::size_t>(t)] >= 0)
        loss -= std::log(std::max(f.probabilities(t, example.targets[static_cast<std::size_t>(t)]), 1e-30f)) / n;
    return loss;
  }
  return answer_loss(f, example);
}

}  // namespace

float example_loss(const ModelSpec& m, const Example& example, Objective objective, ModelGrads* grads, float scale) {
  const Mask mask = mask_for(objective);
  const BlockForward f = forward(m, example, mask, objective);
  const Index T = static_cast<Index>(example.tokens.size()), d = m.d_model;

  const float loss = loss_of(f, example, objective);
  if (!grads) return loss;
  Matrix dout = Matrix::Zero(T, d);  // ∂L/∂(block output): the only gradient source
  if (objective == Objective::next_word) {
    Matrix dlogits = Matrix::Zero(T, f.probabilities.cols());
    cross_entropy_backward(dlogits, f.probabilities, example.targets, m.temperature);
    dout.noalias() = (scale * dlogits) * m.unembedding;  // logits = out·Uᵀ (U fixed: tied)
  } else {
    answer_backward(dout, f, example, m.temperature, scale);
  }

  // Back down the block, last operation first.
  LayerNormGrads unused_norm = LayerNormGrads::zeros(d);  // LayerNorms are not trained
  Matrix dres1 = Matrix::Zero(T, d), dln1_out = Matrix::Zero(T, d);
  if (m.feed_forward.enabled) {
    Matrix dres2 = Matrix::Zero(T, d), dffn_out = Matrix::Zero(T, d);
    layer_norm_backward(dres2, unused_norm, dout, f.after_feed_forward, m.norm_feed_forward, f.norm_feed_forward);
    residual_backward(dln1_out, dffn_out, dres2);  // res2 = x + FFN(x)
    feed_forward_backward(dln1_out, grads->feed_forward, dffn_out, f.norm_attention.output, m.feed_forward,
                          f.feed_forward);
  } else {
    dln1_out = dout;
  }
  layer_norm_backward(dres1, unused_norm, dln1_out, f.after_attention, m.norm_attention, f.norm_attention);
  Matrix dx = Matrix::Zero(T, d), dshown_out = Matrix::Zero(T, d);
  residual_backward(dx, dshown_out, dres1);  // res1 = x + a
  multi_head_backward(dx, grads->attention, dshown_out, f.shown_input, m.attention, mask, f.attention);
  for (std::size_t c = m.context_layers.size(); c-- > 0;) {  // x' = x + MultiHead(x)
    Matrix dx_in = dx;                                       // the residual path
    multi_head_backward(dx_in, grads->context[c], dx, f.context_input[c], m.context_layers[c], mask, f.context[c]);
    dx = std::move(dx_in);
  }
  return loss;  // dx now holds ∂L/∂(embeddings + positions); the word vectors are not trained
}

namespace {

// The score of one example from its forward pass (see example_score).
std::pair<int, int> score_of(const BlockForward& f, const Example& example, Objective objective) {
  if (objective == Objective::answer) {  // right when the answer has the highest score s_j
    Index best = 0;
    f.candidate_p.maxCoeff(&best);
    return {f.candidates[static_cast<std::size_t>(best)] == example.answer ? 1 : 0, 1};
  }
  int right = 0, counted = 0;
  for (Index t = 0; t < f.probabilities.rows(); ++t) {
    const int target = example.targets[static_cast<std::size_t>(t)];
    if (target < 0) continue;
    Index best = 0;
    f.probabilities.row(t).maxCoeff(&best);
    right += best == target ? 1 : 0;
    ++counted;
  }
  return {right, counted};
}

}  // namespace

std::pair<int, int> example_score(const ModelSpec& m, const Example& example, Objective objective) {
  return score_of(forward(m, example, mask_for(objective), objective), example, objective);
}

ExampleEvaluation evaluate_example(const ModelSpec& m, const Example& example, Objective objective) {
  const BlockForward f = forward(m, example, mask_for(objective), objective);
  ExampleEvaluation e;
  e.loss = loss_of(f, example, objective);
  std::tie(e.right, e.counted) = score_of(f, example, objective);
  return e;
}

std::vector<Matrix> shown_head_weights(const ModelSpec& m, const Example& example, Objective objective) {
  return shown_weights(forward(m, example, mask_for(objective), std::nullopt));
}

std::vector<ParameterRef> trainable_parameters(ModelSpec& m, const ModelGrads& g, TrainedParts parts) {
  std::vector<ParameterRef> out;
  auto add = [&](auto& value, const auto& grad) { out.push_back({value.data(), grad.data(), value.size()}); };
  auto add_layer = [&](AttentionLayer& l, const AttentionGrads& lg) {
    add(l.w_q, lg.w_q);
    add(l.w_k, lg.w_k);
    add(l.w_v, lg.w_v);
    add(l.w_o, lg.w_o);
  };
  if (parts == TrainedParts::all) {
    for (std::size_t c = 0; c < m.context_layers.size(); ++c) add_layer(m.context_layers[c], g.context[c]);
    add_layer(m.attention, g.attention);
  }
  if (m.feed_forward.enabled) {
    add(m.feed_forward.w1, g.feed_forward.w1);
    add(m.feed_forward.b1, g.feed_forward.b1);
    add(m.feed_forward.w2, g.feed_forward.w2);
    add(m.feed_forward.b2, g.feed_forward.b2);
  }
  return out;
}

// [SECTION] Trainer ------------------------------------------------------------------------------

ModelSpec initial_model(const ModelSpec& architecture, std::uint64_t seed, TrainedParts parts) {
  ModelSpec m = resolve_model(architecture);  // hand-set (or the architecture's default) matrices
  auto clear = [](AttentionLayer& l) { l.w_q = l.w_k = l.w_v = l.w_o = Matrix(); };
  if (parts == TrainedParts::all) {
    for (AttentionLayer& l : m.context_layers) clear(l);
    clear(m.attention);
  }
  m.feed_forward.w1 = m.feed_forward.w2 = Matrix();
  m.feed_forward.b1 = m.feed_forward.b2 = Vector();
  m.seed = seed;
  return resolve_model(m);
}

namespace {
void check_example(const ModelSpec& m, const Example& e, Objective objective) {
  const auto T = static_cast<int>(e.tokens.size());
  if (T == 0) throw InputError("a training example has no tokens");
  if (T > kMaxTokens) throw InputError("a training example has more than " + std::to_string(kMaxTokens) + " tokens");
  if (objective == Objective::answer) {
    if (e.query < 0 || e.query >= T || e.answer < 0 || e.answer >= T || e.query == e.answer)
      throw InputError("an answer example needs a query and a different answer inside the sentence");
    for (const int other : e.other_answers)
      if (other < 0 || other >= T || other == e.answer)
        throw InputError("an answer example's other answers must be other words of the sentence");
    return;
  }
  if (static_cast<int>(e.targets.size()) != T) throw InputError("a next-word example needs one target per token");
  const int words = static_cast<int>(m.vocabulary.words.size());
  for (const int t : e.targets)
    if (t >= words) throw InputError("a next-word target is not a vocabulary word");
}
}  // namespace

Trainer::Trainer(const ModelSpec& architecture, TrainingSet set, TrainOptions options)
    : set_(std::move(set)), options_(options), adamw_(options.adamw) {
  if (set_.train.empty()) throw InputError("the task has no training examples");
  if (options_.steps < 0) throw InputError("steps must be 0 or more");
  if (options_.batch < 1) throw InputError("the batch size must be at least 1");
  if (!(options_.adamw.learning_rate > 0.0f) || !std::isfinite(options_.adamw.learning_rate))
    throw InputError("the learning rate must be a positive number");
  model_ = initial_model(architecture, options_.seed, options_.parts);
  for (const Example& e : set_.train) check_example(model_, e, set_.objective);
  for (const Example& e : set_.held_out) check_example(model_, e, set_.objective);
  order_state_ = options_.seed ^ 0x9e3779b97f4a7c15ULL;  // the order's stream differs from the weights'
}

int Trainer::next_example() {
  if (cursor_ >= order_.size()) {  // a new epoch: a fresh seeded shuffle (Fisher-Yates)
    order_.resize(set_.train.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    for (std::size_t i = order_.size(); i > 1; --i)
      std::swap(order_[i - 1], order_[static_cast<std::size_t>(splitmix64(order_state_) % i)]);
    cursor_ = 0;
  }
  return order_[cursor_++];
}

float Trainer::step() {
  while (!step_piece()) {
  }
  return last_batch_loss_;
}

bool Trainer::step_piece() {
  if (!partial_) {
    partial_ = ModelGrads::zeros(model_);
    partial_examples_ = 0;
    partial_loss_ = 0.0f;
  }
  const float scale = 1.0f / static_cast<float>(options_.batch);  // mean over the batch
  partial_loss_ += scale * example_loss(model_, set_.train[static_cast<std::size_t>(next_example())], set_.objective,
                                        &*partial_, scale);
  if (++partial_examples_ < options_.batch) return false;
  adamw_.step(trainable_parameters(model_, *partial_, options_.parts));
  last_batch_loss_ = partial_loss_;
  partial_.reset();
  return true;
}

Evaluation Trainer::evaluate(const std::vector<Example>& examples) const {
  Evaluation e;
  if (examples.empty()) return e;
  int right = 0;
  double loss = 0.0;
  for (const Example& ex : examples) {  // one forward pass each
    const ExampleEvaluation one = evaluate_example(model_, ex, set_.objective);
    loss += one.loss;
    right += one.right;
    e.counted += one.counted;
  }
  e.loss = static_cast<float>(loss / static_cast<double>(examples.size()));
  e.accuracy = e.counted ? static_cast<float>(right) / static_cast<float>(e.counted) : 0.0f;
  return e;
}

Evaluation Trainer::evaluate_held_out() const { return evaluate(set_.held_out.empty() ? set_.train : set_.held_out); }

Trainer::Snapshot Trainer::snapshot() const { return {model_, adamw_.state(), order_state_, order_, cursor_}; }

void Trainer::restore(const Snapshot& s) {
  partial_.reset();
  model_ = s.model;
  adamw_.restore(s.adamw);
  order_state_ = s.order_state;
  order_ = s.order;
  cursor_ = s.cursor;
}

Trainer::State Trainer::state() const {
  State s{adamw_.steps(), order_state_, order_, cursor_, {}};
  ModelSpec model = model_;  // trainable_parameters wants it writable; only read here
  const ModelGrads shapes = ModelGrads::zeros(model);
  const AdamW::State moments = adamw_.state();
  for (const ParameterRef& p : trainable_parameters(model, shapes, options_.parts))
    s.values.insert(s.values.end(), p.value, p.value + p.size);
  for (const std::vector<Vector>* m : {&moments.m, &moments.v})
    for (const Vector& buffer : *m) s.values.insert(s.values.end(), buffer.data(), buffer.data() + buffer.size());
  return s;
}

void Trainer::load(const State& s) {
  if (s.step < 0 || s.step > options_.steps) throw InputError("a trainer state's step is outside the schedule");
  // The order is a permutation of the training set (or empty before the first draw), and the
  // cursor inside it: next_example() indexes the set with it.
  if (!s.order.empty()) {
    if (s.order.size() != set_.train.size()) throw InputError("a trainer state's order does not fit the task");
    std::vector<bool> seen(set_.train.size(), false);
    for (const int i : s.order) {
      if (i < 0 || static_cast<std::size_t>(i) >= seen.size() || seen[static_cast<std::size_t>(i)])
        throw InputError("a trainer state's order is not a permutation of the task's examples");
      seen[static_cast<std::size_t>(i)] = true;
    }
  }
  if (s.cursor > s.order.size()) throw InputError("a trainer state's cursor is past its order");

  ModelSpec model = model_;
  const ModelGrads shapes = ModelGrads::zeros(model);
  const std::vector<ParameterRef> buffers = trainable_parameters(model, shapes, options_.parts);
  std::size_t trained = 0;
  for (const ParameterRef& p : buffers) trained += static_cast<std::size_t>(p.size);
  // Before the first update AdamW holds no moments; after it, one of each per buffer.
  const bool moments = s.values.size() == 3 * trained && s.step > 0;
  if (s.values.size() != trained && !moments)
    throw InputError("a trainer state's numbers do not fit the model (another lesson or task?)");

  AdamW::State adamw{s.step, {}, {}};
  const float* next = s.values.data();
  for (const ParameterRef& p : buffers) {
    std::copy(next, next + p.size, p.value);
    next += p.size;
  }
  if (moments)
    for (std::vector<Vector>* m : {&adamw.m, &adamw.v})
      for (const ParameterRef& p : buffers) {
        m->push_back(Eigen::Map<const Vector>(next, p.size));
        next += p.size;
      }
  partial_.reset();
  model_ = std::move(model);
  adamw_.restore(adamw);
  order_state_ = s.order_state;
  order_ = s.order;
  cursor_ = s.cursor;
}

}  // namespace neuralpath
