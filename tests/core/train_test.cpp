// train_test.cpp: AdamW and the Trainer: deterministic, learning, resumable, strict on input.
#include "engine/core/adamw.h"
#include "engine/trace/block_trace.h"
#include "engine/core/embedding.h"
#include "engine/core/error.h"
#include "engine/core/training.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace neuralpath;

namespace {

// The output of "it" must name the noun its adjective describes, in the default model's vocabulary.
TrainingSet pronoun_set() {
  TrainingSet set;
  set.objective = Objective::answer;
  const char* animals[] = {"animal", "cat", "dog", "bird"};
  const char* places[] = {"street", "road", "river", "park"};
  const char* adjectives[] = {"tired", "hungry", "wide", "busy"};  // first two describe animals
  for (int a = 0; a < 4; ++a)
    for (int p = 0; p < 4; ++p)
      for (int j = 0; j < 4; ++j) {
        Example e;
        e.tokens = tokenize(std::string("The ") + animals[a] + " didn't cross the " + places[p] +
                            " because it was too " + adjectives[j] + ".");
        e.query = 7;               // it
        e.answer = j < 2 ? 1 : 5;  // the animal, or the place
        ((a + p + j) % 4 == 0 ? set.held_out : set.train).push_back(e);
      }
  return set;
}

ModelSpec architecture() {
  ModelSpec spec = default_model_spec();
  spec.attention = AttentionLayer{};  // shapes only: the Trainer re-draws every matrix
  spec.context_layers.assign(1, AttentionLayer{});
  spec.feed_forward.hidden = 8;
  return spec;
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

TrainOptions options(std::uint64_t seed, int steps = 60) {
  TrainOptions o;
  o.seed = seed;
  o.steps = steps;
  o.batch = 8;
  o.adamw.learning_rate = 0.01f;
  return o;
}

}  // namespace

TEST_CASE("AdamW's first step moves each parameter by the learning rate against its gradient's sign") {
  Matrix w = Matrix::Zero(1, 3);
  Matrix g(1, 3);
  g << 2.0f, -0.5f, 0.0f;
  AdamW adam({0.1f, 0.9f, 0.999f, 1e-8f, 0.0f});
  adam.step({{w.data(), g.data(), 3}});
  // m̂ = g and v̂ = g² after bias correction, so the step is lr·g/|g| (0 for g = 0)
  CHECK(w(0, 0) == doctest::Approx(-0.1f));
  CHECK(w(0, 1) == doctest::Approx(0.1f));
  CHECK(w(0, 2) == 0.0f);
  CHECK(adam.steps() == 1);
}

TEST_CASE("AdamW in slices, in any order, leaves the parameters step() leaves, bit for bit") {
  // Three buffers of awkward sizes (7 floats cut in 3 is 2 + 2 + 3; 1 float leaves two slices
  // empty), three steps of varied gradients, one side whole, the other in slices backwards.
  std::vector<std::vector<float>> whole{std::vector<float>(7, 0.5f), {-1.0f}, std::vector<float>(5, 0.25f)};
  const std::vector<std::vector<float>> start = whole;
  std::vector<std::vector<float>> sliced = whole, grads;
  for (const auto& buffer : whole) grads.emplace_back(buffer.size());
  auto refs = [&](std::vector<std::vector<float>>& values) {
    std::vector<ParameterRef> list;
    for (std::size_t i = 0; i < values.size(); ++i)
      list.push_back({values[i].data(), grads[i].data(), static_cast<Index>(values[i].size()), i != 1});
    return list;
  };
  AdamW a({0.05f, 0.9f, 0.95f, 1e-8f, 0.1f}), b = a;
  for (int t = 1; t <= 3; ++t) {
    for (std::size_t i = 0; i < grads.size(); ++i)
      for (std::size_t j = 0; j < grads[i].size(); ++j)
        grads[i][j] = std::sin(static_cast<float>(t * 7 + static_cast<int>(i * 5 + j))) * 0.3f;
    a.step(refs(whole));
    const std::vector<ParameterRef> list = refs(sliced);
    b.prepare(list);
    CHECK(b.steps() == t - 1);  // a step counts once every slice is done
    for (int k = 2; k >= 0; --k) b.update_slice(list, k, 3);
    b.finish_step();
    CHECK(b.steps() == t);
  }
  for (std::size_t i = 0; i < whole.size(); ++i) {
    CHECK(std::memcmp(whole[i].data(), sliced[i].data(), whole[i].size() * sizeof(float)) == 0);
    for (std::size_t j = 0; j < whole[i].size(); ++j) CHECK(whole[i][j] != start[i][j]);  // every one moved
  }
  CHECK(slice_of(7, 0, 3).count == 2);
  CHECK(slice_of(7, 2, 3).first == 4);
  CHECK(slice_of(7, 2, 3).count == 3);
  CHECK(slice_of(1, 0, 3).count == 0);
}

TEST_CASE("training is deterministic: the same seed gives the same weights bit for bit" * doctest::test_suite("slow")) {
  Trainer a(architecture(), pronoun_set(), options(3));
  Trainer b(architecture(), pronoun_set(), options(3));
  Trainer c(architecture(), pronoun_set(), options(4));
  while (!a.finished()) {
    const float la = a.step(), lb = b.step();
    CHECK(std::memcmp(&la, &lb, sizeof la) == 0);
    c.step();
  }
  CHECK(same_bits(a.model().attention.w_q, b.model().attention.w_q));
  CHECK(same_bits(a.model().context_layers[0].w_k, b.model().context_layers[0].w_k));
  CHECK(same_bits(a.model().feed_forward.w1, b.model().feed_forward.w1));
  CHECK_FALSE(same_bits(a.model().attention.w_q, c.model().attention.w_q));  // another seed, other weights
}

TEST_CASE("training the answer task teaches the output of \"it\" to name the noun its adjective describes" *
          doctest::test_suite("slow")) {
  Trainer t(architecture(), pronoun_set(), options(1, 150));
  const Evaluation before = t.evaluate_held_out();
  while (!t.finished()) t.step();
  const Evaluation after = t.evaluate_held_out();
  MESSAGE("held-out accuracy " << before.accuracy << " -> " << after.accuracy << ", loss " << before.loss << " -> "
                               << after.loss);
  CHECK(before.accuracy < 0.8f);  // not right by chance: the loss is what teaches it
  CHECK(after.loss < before.loss / 2);
  CHECK(after.accuracy >= 0.95f);
}

TEST_CASE("the answer loss reads only the output: its gradient reaches attention through the block's output") {
  // A model whose attention layers are all trained: after one example's backward, the shown
  // layer's W_Q and the feed-forward both carry gradient, and the loss equals −log of the
  // softmax over the other words of o·e_j (computed here by hand from the block's output).
  const ModelSpec model = initial_model(architecture(), 2);
  Example e = pronoun_set().train.front();
  ModelGrads g = ModelGrads::zeros(model);
  const float loss = example_loss(model, e, Objective::answer, &g);
  CHECK(g.attention.w_q.norm() > 0.0f);
  CHECK(g.feed_forward.w1.norm() > 0.0f);
  TraceOptions opts;
  opts.mask = Mask::none();
  const Trace trace = run_block(model, e.tokens, opts);
  const Matrix words = embed_tokens(model.vocabulary, e.tokens, model.d_model, model.seed);
  const Vector o = trace.output.row(e.query).transpose();
  double total = 0.0;
  for (Index j = 0; j < words.rows(); ++j)
    if (j != e.query) total += std::exp(static_cast<double>(o.dot(words.row(j).transpose()) / model.temperature));
  const double expected =
      -std::log(std::exp(static_cast<double>(o.dot(words.row(e.answer).transpose()) / model.temperature)) / total);
  CHECK(loss == doctest::Approx(expected).epsilon(1e-4));
  // Another answer of the same query is no candidate: leaving it out can only lower the loss.
  Example shared = e;
  shared.other_answers = {e.answer == 1 ? 5 : 1};
  CHECK(example_loss(model, shared, Objective::answer) < loss);
}

TEST_CASE("training the next-word task lowers the loss and predicts the corpus" * doctest::test_suite("slow")) {
  TrainingSet set;
  const ModelSpec arch = architecture();
  for (const char* s : {"The cat sat.", "The dog ran.", "The cat sat.", "A bird saw the cat."})
    set.train.push_back(next_word_example(arch.vocabulary, tokenize(s)));
  Trainer t(arch, set, options(2, 200));
  // Words of one kind share their feature vector here (cat = dog), so they tie; compare the
  // probability of the action the corpus teaches rather than a single top word.
  auto p_sat = [&] {
    const Trace trace = run_block(t.model(), "The cat");  // causal, like the training
    return trace.next.probabilities(vocabulary_index(arch.vocabulary, "sat"));
  };
  const Evaluation before = t.evaluate_held_out();
  const float p_before = p_sat();
  while (!t.finished()) t.step();
  const Evaluation after = t.evaluate_held_out();
  MESSAGE("next-word loss " << before.loss << " -> " << after.loss << ", p(sat | The cat) " << p_before << " -> "
                            << p_sat());
  CHECK(after.loss < before.loss * 0.75f);
  CHECK(p_sat() > 2 * p_before);
}

TEST_CASE("a snapshot restores the trainer: training on from it repeats the same steps" * doctest::test_suite("slow")) {
  Trainer t(architecture(), pronoun_set(), options(5, 40));
  for (int i = 0; i < 10; ++i) t.step();
  const Trainer::Snapshot at10 = t.snapshot();
  for (int i = 0; i < 10; ++i) t.step();
  const Matrix after20 = t.model().attention.w_k;
  t.restore(at10);
  CHECK(t.steps_done() == 10);
  for (int i = 0; i < 10; ++i) t.step();
  CHECK(same_bits(t.model().attention.w_k, after20));
}

TEST_CASE("a trainer's state, loaded into another built the same way, trains on to the same weights") {
  // What the page's trainer worker relies on: the page builds its own Trainer, takes the
  // worker's state as numbers, and must then be where the worker is, bit for bit.
  Trainer worker(architecture(), pronoun_set(), options(5, 40));
  Trainer page(architecture(), pronoun_set(), options(5, 40));
  for (int i = 0; i < 13; ++i) worker.step();  // 13: mid-epoch, so order and cursor matter
  const Trainer::State state = worker.state();
  CHECK(state.step == 13);
  page.load(state);
  CHECK(page.steps_done() == 13);
  CHECK(same_bits(page.model().attention.w_q, worker.model().attention.w_q));
  for (int i = 0; i < 7; ++i) CHECK(page.step() == worker.step());
  CHECK(same_bits(page.model().attention.w_v, worker.model().attention.w_v));
  CHECK(same_bits(page.model().feed_forward.w2, worker.model().feed_forward.w2));
  // A state at step 0 has no moments yet, and loads too.
  Trainer fresh(architecture(), pronoun_set(), options(9, 40));
  page.load(fresh.state());
  CHECK(page.steps_done() == 0);
  CHECK(same_bits(page.model().attention.w_k, fresh.model().attention.w_k));
}

TEST_CASE("a trainer refuses a state that does not fit it, and keeps its own") {
  Trainer t(architecture(), pronoun_set(), options(5, 40));
  for (int i = 0; i < 3; ++i) t.step();
  const Matrix before = t.model().attention.w_q;
  const Trainer::State good = t.state();
  auto refused = [&](Trainer::State s) {
    CHECK_THROWS_AS(t.load(s), InputError);
    CHECK(t.steps_done() == 3);
    CHECK(same_bits(t.model().attention.w_q, before));
  };
  Trainer::State s = good;
  s.values.pop_back();  // another model's lengths
  refused(s);
  s = good;
  s.step = 41;  // past the schedule
  refused(s);
  s = good;
  s.order[0] = s.order[1];  // not a permutation
  refused(s);
  s = good;
  s.order.push_back(0);  // another task's size
  refused(s);
  s = good;
  s.cursor = s.order.size() + 1;
  refused(s);
  s = good;
  s.step = 0;  // moments without a step
  refused(s);
}

TEST_CASE("the trainer refuses what it cannot train on, with a message") {
  TrainingSet empty;
  CHECK_THROWS_AS(Trainer(architecture(), empty, options(1)), InputError);
  TrainingSet bad = pronoun_set();
  bad.train.front().answer = 99;  // outside the sentence
  CHECK_THROWS_AS(Trainer(architecture(), bad, options(1)), InputError);
  TrainOptions zero_lr = options(1);
  zero_lr.adamw.learning_rate = 0.0f;
  CHECK_THROWS_AS(Trainer(architecture(), pronoun_set(), zero_lr), InputError);
}
