// training.h: training the lesson's transformer block on a task, deterministically.
//
// What is trained: exactly the matrices a lesson's ```weights block can hold (every attention
// layer's W_Q, W_K, W_V, W_O and the feed-forward's W1, b1, W2, b2), so trained weights are
// written back in the lesson's own format. The word vectors stay the vocabulary's readable
// features, the LayerNorms keep gamma = 1, beta = 0, and the next-word scores stay tied to the
// word vectors (as in model.h).
//
// Two objectives, both over a ModelSpec's forward pass (the same one block.h traces). Both put
// the loss on the block's OUTPUT only: no loss reads an attention weight, so where the heads
// look is whatever helps the output, never something the loss asks for.
//   next_word  every token predicts the next one (causal mask); loss = softmax cross-entropy of
//              the next-token scores. Accuracy: share of positions whose top guess is right.
//   answer     one token (the query, e.g. "it") must name a word of its sentence (the answer)
//              from its own output vector; no mask. The output row o = out[query] is compared
//              with the word vector e_j of every other word of the sentence (a dot product, as
//              the next-word scores compare it with the vocabulary's):
//                s_j = o · e_j / temperature   for j in C (C: every position but the query and
//                                              the example's other_answers)
//                L   = −log softmax_C(s)[answer]
//              Accuracy: share of examples whose highest s_j is the answer.
// One step = one minibatch of examples drawn in a seeded order (splitmix64), gradients averaged
// over the batch, one AdamW update. No threads, no clock: same seed, same weights, bit for bit.
#pragma once

#include "adamw.h"
#include "backward.h"
#include "model.h"
#include "tokenizer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath {

// [SECTION] Tasks ------------------------------------------------------------------------------

enum class Objective { next_word, answer };
const char* objective_name(Objective objective);  // "next-word", "answer"

struct Example {
  std::vector<Token> tokens;
  std::vector<int> targets;        // next_word: per token, the vocabulary index of the next
                                   // word (map order), −1 where nothing follows
  int query = -1;                  // answer: the token whose output must name...
  int answer = -1;                 //         ...this word of the sentence
  int relation = -1;               // answer: which of the task's relations (for per-head figures)
  std::vector<int> other_answers;  // answer: words the same query must also name in another
                                   // example of the same sentence (a verb's subject, object
                                   // and manner): not candidates here, so each right word
                                   // only has to beat the wrong ones
};

struct TrainingSet {
  Objective objective = Objective::next_word;
  std::vector<Example> train;
  std::vector<Example> held_out;       // never trained on; empty = evaluate on `train`
  std::vector<std::string> relations;  // answer: the names Example::relation indexes
};

// The vocabulary index (map order, as the next-token scores) of a word key; −1 if unknown.
int vocabulary_index(const Vocabulary& vocabulary, const std::string& key);

// A next-word Example from a sentence's tokens (targets from the following tokens).
Example next_word_example(const Vocabulary& vocabulary, std::vector<Token> tokens);

// Which matrices change. feed_forward keeps every attention layer as the architecture has it
// (e.g. hand-set heads a lesson explains) and trains only W1, b1, W2, b2.
enum class TrainedParts { all, feed_forward };

// [SECTION] One example: forward, loss, backward -----------------------------------------------

// Gradients shaped like the trainable part of a resolved ModelSpec.
struct ModelGrads {
  std::vector<AttentionGrads> context;
  AttentionGrads attention;
  FeedForwardGrads feed_forward;
  static ModelGrads zeros(const ModelSpec& model);
};

// The loss of one example under a RESOLVED model; with `grads`, also adds scale·∂loss/∂θ to it.
float example_loss(const ModelSpec& model, const Example& example, Objective objective, ModelGrads* grads = nullptr,
                   float scale = 1.0f);

// Whether the model gets the example right, as counted by `accuracy` (see the top of the file):
// returns {right, counted} (next_word counts every position with a target).
std::pair<int, int> example_score(const ModelSpec& model, const Example& example, Objective objective);

// Loss and score of one example from ONE forward pass (what `evaluate` sums; equal to
// example_loss and example_score, which each run their own).
struct ExampleEvaluation {
  float loss = 0.0f;
  int right = 0, counted = 0;
};
ExampleEvaluation evaluate_example(const ModelSpec& model, const Example& example, Objective objective);

// The shown layer's attention weights for one example, one [T][T] per head (the same forward
// pass and mask the objective trains with). Read for figures and views, never by a loss.
std::vector<Matrix> shown_head_weights(const ModelSpec& model, const Example& example, Objective objective);

// The trainable buffers of a model and of its gradients, in one fixed order.
std::vector<ParameterRef> trainable_parameters(ModelSpec& model, const ModelGrads& grads,
                                               TrainedParts parts = TrainedParts::all);

// [SECTION] Training -----------------------------------------------------------------------------

struct TrainOptions {
  TrainedParts parts = TrainedParts::all;
  int steps = 300;
  std::uint64_t seed = 1;  // initial weights (resolve_model's seeded defaults) and order
  int batch = 16;
  AdamWSettings adamw;
};

struct Evaluation {
  float loss = 0.0f;      // mean over examples
  float accuracy = 0.0f;  // right / counted, in [0, 1]
  int counted = 0;
};

// The untrained starting point: the architecture's shapes (d_model, heads, layers, hidden,
// positions, temperature, vocabulary) with every matrix that `parts` trains re-drawn from
// `seed` (resolve_model's seeded defaults); the others stay as the architecture has them.
ModelSpec initial_model(const ModelSpec& architecture, std::uint64_t seed, TrainedParts parts = TrainedParts::all);

class Trainer {
 public:
  // Throws InputError for an empty training set, examples the model cannot run, or bad
  // options (steps < 0, batch < 1, learning rate not positive).
  Trainer(const ModelSpec& architecture, TrainingSet set, TrainOptions options);

  float step();  // one minibatch and one AdamW update; returns the batch loss
  // A step in pieces, one example each (the page spreads a step over frames): the same sums
  // in the same order as step(), so the same weights. True when this piece completed a step
  // (the update applied; last_batch_loss() is its loss).
  bool step_piece();
  float last_batch_loss() const { return last_batch_loss_; }
  Evaluation evaluate_held_out() const;  // held_out, or train when there is none
  Evaluation evaluate(const std::vector<Example>& examples) const;

  const ModelSpec& model() const { return model_; }  // resolved, current weights
  const TrainingSet& set() const { return set_; }
  const TrainOptions& options() const { return options_; }
  int steps_done() const { return adamw_.steps(); }
  float learning_rate() const { return adamw_.settings().learning_rate; }
  bool finished() const { return steps_done() >= options_.steps; }

  struct Snapshot {  // everything that changes while training; taken between
                     // steps (restore drops a step begun in pieces)
    ModelSpec model;
    AdamW::State adamw;
    std::uint64_t order_state = 0;
    std::vector<int> order;
    std::size_t cursor = 0;
  };
  Snapshot snapshot() const;
  void restore(const Snapshot& snapshot);

  // A Snapshot as plain numbers, for a trainer elsewhere (the page's trainer worker) to send
  // back: both ends built their Trainer from the same architecture, set and options, so shapes
  // are not sent. `values`: every trained buffer in trainable_parameters' order, then AdamW's
  // first moments and its second moments in the same order (none before the first step).
  struct State {
    int step = 0;
    std::uint64_t order_state = 0;
    std::vector<int> order;
    std::size_t cursor = 0;
    std::vector<float> values;
  };
  State state() const;
  // Throws InputError, and changes nothing, when the state does not fit this trainer (another
  // model's lengths, an order that is not a permutation of the set, a step past the schedule).
  void load(const State& state);

 private:
  int next_example();

  TrainingSet set_;
  TrainOptions options_;
  ModelSpec model_;
  AdamW adamw_;
  std::uint64_t order_state_ = 0;
  std::vector<int> order_;
  std::size_t cursor_ = 0;
  std::optional<ModelGrads> partial_;  // the minibatch step_piece() is summing
  int partial_examples_ = 0;
  float partial_loss_ = 0.0f, last_batch_loss_ = 0.0f;
};

}  // namespace neuralpath
