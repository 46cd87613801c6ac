// narration_test.cpp: the narrator's sentences on the edge cases a learner meets (one head, equal
// weights, ties, negative terms, a row with nothing hidden), checked word for word.
//
// Most cases build one Step by hand with the numbers that make the edge case, so each sentence
// is pinned exactly; the last ones run the real block to show the cases arise from real models.
#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"

#include "tests/core/helpers.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace neuralpath;
using neuralpath::test::from_rows;

namespace {

Trace trace_of(std::vector<std::string> labels) {
  Trace t;
  t.labels = std::move(labels);
  t.known.assign(t.labels.size(), true);
  t.focus_token = static_cast<int>(t.labels.size()) - 1;  // as run_block's default: the last token
  t.d_head = 2;
  return t;
}

NamedMatrix named(const std::string& name, const Matrix& m, std::vector<std::string> cols) {
  return {name, m, {}, std::move(cols)};
}

Step step_of(StepKind kind, std::vector<NamedMatrix> inputs, NamedMatrix result, int head = -1) {
  Step s;
  s.kind = kind;
  s.title = step_kind_name(kind);
  s.head = head;
  s.inputs = std::move(inputs);
  s.result = std::move(result);
  return s;
}

const std::vector<std::string> kFeatures = {"thing", "agent"};
const std::vector<std::string> kWords = {"The", "cat", "sat", "down"};

// Speaks Spanish for one scope (the catalogue the site ships), English again after it.
struct Spanish {
  Spanish() {
    std::ifstream in("lessons/strings/es.strings");
    std::stringstream text;
    text << in.rdbuf();
    REQUIRE(!text.str().empty());
    REQUIRE(use_language("es", text.str()).empty());
  }
  ~Spanish() { use_language("en", ""); }
  Spanish(const Spanish&) = delete;
  Spanish& operator=(const Spanish&) = delete;
};

// Every sentence the narrator can say about a trace: each step, each cell of its result.
std::vector<std::string> every_sentence(const Trace& t) {
  std::vector<std::string> out;
  for (const Step& s : t.steps) {
    out.push_back(s.narration);
    for (int r = 0; r < s.result.values.rows(); ++r)
      for (int c = 0; c < s.result.values.cols(); ++c) out.push_back(narrate(t, s, {r, c}));
  }
  return out;
}

// A context layer's step whose row 0 gives `weights` to the tokens, feature "thing" 0 -> 0.5.
Step context_step(const std::vector<float>& weights) {
  const auto n = static_cast<Index>(weights.size());
  Matrix w = Matrix::Zero(n, n);
  for (Index j = 0; j < n; ++j) w(0, j) = weights[static_cast<std::size_t>(j)];
  for (Index i = 1; i < n; ++i) w(i, i) = 1.0f;
  Matrix after = Matrix::Zero(n, 1);
  after(0, 0) = 0.5f;
  Step s =
      step_of(StepKind::context_layer, {named("x", Matrix::Zero(n, 1), {"thing"}), named("weights (head 1)", w, {})},
              named("x + context", after, {"thing"}));
  s.layer = 0;
  return s;
}

}  // namespace

TEST_CASE("a negative term is spoken as a subtraction: '1.25 − 0.82', never '1.25 + -0.82'") {
  const Trace t = trace_of({"AI"});
  const Step s = step_of(StepKind::residual,
                         {named("x", from_rows(1, 2, {1.25f, 0.5f}), kFeatures),
                          named("attention", from_rows(1, 2, {-0.82f, 0.25f}), kFeatures)},
                         named("x + attention", from_rows(1, 2, {0.43f, 0.75f}), kFeatures));
  CHECK(narrate(t, s, {0, 0}) ==
        "'AI' keeps its own vector and adds what the attention found: its thing is 1.25 − 0.82 = 0.43.");
  CHECK(narrate(t, s, {0, 1}) ==
        "'AI' keeps its own vector and adds what the attention found: its agent is 0.50 + 0.25 = 0.75.");
}

TEST_CASE("a tiny negative term that prints as 0.00 is added, not subtracted") {
  const Trace t = trace_of({"AI"});
  const Step s = step_of(
      StepKind::residual,
      {named("x", from_rows(1, 1, {1.0f}), {"thing"}), named("feed-forward", from_rows(1, 1, {-0.001f}), {"thing"})},
      named("x + feed-forward", from_rows(1, 1, {0.999f}), {"thing"}));
  CHECK(narrate(t, s, {0, 0}) ==
        "'AI' keeps its own vector and adds what the feed-forward layer found: its thing is 1.00 + 0.00 = 1.00.");
}

TEST_CASE("equal weights are 'evenly' spread, not 'mostly' from the first token") {
  const Trace t = trace_of(kWords);
  const float q = 0.25f;
  const Matrix masked =
      from_rows(4, 4, {0, -INFINITY, -INFINITY, -INFINITY, 1, 2, -INFINITY, -INFINITY, 0, 0, 0, -INFINITY, 0, 0, 0, 0});
  const Matrix weights = from_rows(4, 4, {1, 0, 0, 0, 0.27f, 0.73f, 0, 0, 1 / 3.f, 1 / 3.f, 1 / 3.f, 0, q, q, q, q});
  const Step s = step_of(StepKind::softmax, {named("masked", masked, kWords)}, named("weights", weights, kWords), 0);
  CHECK(
      narrate(t, s, {3, 0}) ==
      "'down' scores all 4 tokens it can see equally in head 1, so the softmax spreads its weight evenly: 0.25 each.");
  CHECK(narrate(t, s, {2, 1}) ==
        "'sat' scores all 3 tokens it can see equally in head 1, so the softmax spreads its weight evenly: 0.33 each.");
  CHECK(narrate(t, s, {0, 0}) == "'The' can see only 'The' in head 1, so the softmax gives it all the weight: 1.00.");
  CHECK(narrate(t, s, {1, 1}) ==
        "Softmax turns the scores of 'cat' into weights that sum to 1: 'cat' gets 0.73 in head 1.");

  // Weights that differ only past the second decimal look even on the board: "about evenly".
  Step close = s;
  close.result.values.row(3) << 0.2505f, 0.2501f, 0.2507f, 0.2487f;
  CHECK(narrate(t, close, {3, 0}) ==
        "'down' scores all 4 tokens it can see almost equally in head 1, so the softmax "
        "spreads its weight about evenly: 0.25 each.");
  CHECK(narrate(t, s, {0, 2}) == "'sat' is masked, so it gets exactly 0.00 of the attention of 'The'.");
}

TEST_CASE("a context layer names a tie for the largest weight, and even attention as even") {
  Trace t = trace_of(kWords);
  const Matrix x = Matrix::Zero(4, 2);
  const Matrix after = from_rows(4, 2, {0, 0, 0, 0, 0.5f, 0, 0.25f, 0});
  const Matrix weights =
      from_rows(4, 4, {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.4f, 0.4f, 0.2f, 0, 0.25f, 0.25f, 0.25f, 0.25f});
  Step s = step_of(StepKind::context_layer, {named("x", x, kFeatures), named("weights (head 1)", weights, kWords)},
                   named("x + context", after, kFeatures));
  s.layer = 0;
  CHECK(narrate(t, s, {3, 0}) ==
        "Context layer 1: 'down' spreads its attention evenly over 4 tokens (0.25 each), "
        "so its thing goes from 0.00 to 0.25.");
  CHECK(narrate(t, s, {2, 0}) ==
        "Context layer 1: 'sat' gathers as much from 'The' and 'cat' (weight 0.40 each), "
        "more than from any other token, so its thing goes from 0.00 to 0.50.");
  CHECK(narrate(t, s, {0, 0}) ==
        "Context layer 1: 'The' can only see 'The' (weight 1.00), so its thing goes from 0.00 to 0.00.");

  // With a second head the sentence says whose weights it is reading.
  s.inputs.push_back(named("weights (head 2)", weights, kWords));
  CHECK(
      narrate(t, s, {1, 0}).rfind("Context layer 1: 'cat' (in head 1) spreads its attention evenly over 2 tokens", 0) ==
      0);
}

TEST_CASE("one head has nothing to join; several heads say which head an entry came from") {
  // Entries are named as the board names the columns, counted from 1.
  const Trace t = trace_of({"down"});
  const Matrix blend = from_rows(1, 2, {0.53f, -0.1f});
  const Step one =
      step_of(StepKind::concat_heads, {named("blend (head 1)", blend, {"1", "2"})}, named("concat", blend, {"1", "2"}));
  CHECK(narrate(t, one, {0, 1}) ==
        "With one head there is nothing to join: the blend of 'down' passes on unchanged, and its entry 2 is -0.10.");

  const Matrix joined = from_rows(1, 4, {0.53f, -0.1f, 0.2f, 0.9f});
  const Step two = step_of(
      StepKind::concat_heads,
      {named("blend (head 1)", blend, {"1", "2"}), named("blend (head 2)", from_rows(1, 2, {0.2f, 0.9f}), {"1", "2"})},
      named("concat", joined, {"1", "2", "3", "4"}));
  CHECK(narrate(t, two, {0, 3}) ==
        "The 2 heads' outputs sit side by side: entry 4 of the joined vector of 'down' is entry 2 of head 2, which is "
        "0.90.");
}

TEST_CASE(
    "the joined vector's entry in the narration is the column the board shows (#34: step 17 said entry 2 of "
    "concat[Future, 3])") {
  ModelSpec spec = default_model_spec();
  spec.attention.heads = 2;
  const Trace t = run_block(spec, "AI Agents Build Future");
  for (const Step& s : t.steps) {
    if (s.kind != StepKind::concat_heads) continue;
    const Index width = s.inputs.front().values.cols();
    for (int col = 0; col < s.result.values.cols(); ++col) {
      const std::string sentence = narrate(t, s, {3, col});
      CAPTURE(sentence);
      const std::string board = s.result.col_labels[static_cast<std::size_t>(col)];  // concat[Future, board]
      CHECK(board == std::to_string(col + 1));
      CHECK(sentence.find("entry " + board + " of the joined vector") != std::string::npos);
      CHECK(sentence.find("is entry " + std::to_string(col % width + 1) + " of head " +
                          std::to_string(col / width + 1)) != std::string::npos);
    }
  }
}

TEST_CASE("an identity W_O is said to pass the heads through, not to mix them") {
  const Trace t = trace_of({"down"});
  const Matrix concat = from_rows(1, 2, {0.5f, -0.25f});
  const std::vector<std::string> dims = {"0", "1"};
  Step s = step_of(StepKind::output_projection,
                   {named("concat", concat, dims), named("W_O", Matrix::Identity(2, 2), kFeatures)},
                   named("attention", concat, kFeatures));
  CHECK(narrate(t, s, {0, 1}) ==
        "W_O is the identity here, so the heads' outputs pass through unmixed: the agent of 'down' is -0.25.");
  s.inputs[1].values(0, 1) = 0.5f;
  s.result.values(0, 1) = 0.0f;
  CHECK(narrate(t, s, {0, 1}) == "W_O mixes the heads back into features: the agent of 'down' is 0.00.");
}

TEST_CASE("LayerNorm re-centres and rescales, and mentions gain and shift only when they act") {
  const Trace t = trace_of({"AI"});
  const Matrix x = from_rows(1, 2, {3.0f, 1.0f});
  const Matrix mean = from_rows(1, 1, {2.0f}), spread = from_rows(1, 1, {1.0f});
  Step s = step_of(StepKind::layer_norm,
                   {named("x", x, kFeatures), named("mean", mean, {"mean"}), named("spread", spread, {"spread"})},
                   named("LayerNorm(x)", from_rows(1, 2, {1.0f, -1.0f}), kFeatures));
  CHECK(narrate(t, s, {0, 1}) ==
        "LayerNorm re-centres and rescales 'AI': its agent 1.00 minus the mean 2.00, divided by the spread 1.00, is "
        "-1.00.");
  s.result.values(0, 1) = -0.5f;  // gain 0.5 on this feature
  CHECK(narrate(t, s, {0, 1}) ==
        "LayerNorm re-centres and rescales 'AI': its agent 1.00 minus the mean 2.00, divided by "
        "the spread 1.00, then the learned gain and shift, gives -0.50.");
}

TEST_CASE("the feed-forward's addition includes the output bias") {
  const Trace t = trace_of({"AI"});
  const Step s = step_of(StepKind::feed_forward,
                         {named("x", from_rows(1, 1, {1.0f}), {"thing"}),
                          named("hidden", from_rows(1, 3, {0.5f, 0.0f, 2.0f}), {"h0", "h1", "h2"})},
                         named("feed-forward", from_rows(1, 1, {0.75f}), {"thing"}));
  CHECK(narrate(t, s, {0, 0}) ==
        "The feed-forward layer works on 'AI' alone: 2 of its 3 hidden units fire, "
        "and with the output bias they add 0.75 to its thing.");
}

TEST_CASE("the next word explains the temperature and flags ties in the ranking") {
  Trace t = trace_of({"AI", "Agents"});
  const std::vector<std::string> words = {"build", "code", "tools", "we"};
  const Matrix logits = from_rows(1, 4, {1.0f, 2.0f, 2.0f, 0.0f});
  const Matrix e = logits.array().exp();
  const Matrix p = e / e.sum();
  t.next.ranking = {1, 2, 0, 3};
  Step s = step_of(StepKind::next_token, {named("logits", logits, words)}, named("probability", p, words));
  s.scalar = 1.0f;
  s.scalar_name = "temperature";
  const std::string top = format_percent(p(0, 1));
  CHECK(narrate(t, s, {0, 1}) == "After 'Agents' the model gives 'code' " + top +
                                     ": the softmax weighs its logit 2.00, divided by the temperature 1.00, against "
                                     "those of all 4 words; it ties for first place with 'tools'.");
  CHECK(narrate(t, s, {0, 2}).find("; it ties for first place with 'code'.") != std::string::npos);

  // No tie: the top word names the runner-up.
  s.inputs[0].values(0, 2) = 1.5f;
  const Matrix e2 = s.inputs[0].values.array().exp();
  s.result.values = e2 / e2.sum();
  const std::string second = format_percent(s.result.values(0, 2));
  CHECK(narrate(t, s, {0, 1}).find("of all 4 words; next is 'tools' at " + second + ".") != std::string::npos);

  // A tie below the top is a tie, not first place.
  s.inputs[0].values = from_rows(1, 4, {1.0f, 3.0f, 0.0f, 0.0f});
  const Matrix e3 = s.inputs[0].values.array().exp();
  s.result.values = e3 / e3.sum();
  t.next.ranking = {1, 0, 2, 3};
  CHECK(narrate(t, s, {0, 2}).find("of all 4 words; it ties with 'we'.") != std::string::npos);
}

TEST_CASE("the mask step says when a row has nothing hidden instead of pointing at 'later tokens'") {
  const Trace t = [] {
    Trace tr = trace_of({"The", "cat"});
    tr.mask = Mask::causal_mask();
    return tr;
  }();
  const Matrix scaled = from_rows(2, 2, {0.5f, 0.1f, 0.3f, 0.7f});
  const Matrix masked = from_rows(2, 2, {0.5f, -INFINITY, 0.3f, 0.7f});
  Step s =
      step_of(StepKind::mask, {named("scaled", scaled, {"The", "cat"})}, named("masked", masked, {"The", "cat"}), 0);
  s.masked_cells = {{0, 1}};
  CHECK(narrate(t, s, {1, 0}) == "'cat' may look at 'The', so that score stays 0.30; nothing in its row is hidden.");
  CHECK(narrate(t, s, {0, 0}) ==
        "'The' may look at 'The', so that score stays 0.50; the tokens hidden from it are set to -∞.");
  CHECK(narrate(t, s, {0, 1}) ==
        "'The' may not look ahead at 'cat': its score becomes -∞, so its weight will be exactly 0.");
}

TEST_CASE("real models reach these cases: one head, even context attention, tied next words") {
  ModelSpec spec = default_model_spec();
  spec.attention.heads = 1;
  // "down" is no pronoun, so the context layer's query for it is zero: all four scores tie.
  const Trace t = run_block(spec, "The cat sat down");
  const Step& context = t.steps[3];
  REQUIRE(context.kind == StepKind::context_layer);
  // (positions make the scores differ in the fourth decimal: the board shows 0.25 four times)
  CHECK(narrate(t, context, {3, 0}).find("'down' spreads its attention about evenly over 4 tokens (0.25 each)") !=
        std::string::npos);
  for (const Step& s : t.steps)
    if (s.kind == StepKind::concat_heads) CHECK(s.narration.rfind("With one head there is nothing to join", 0) == 0);

  // "cat", "dog", "animal", "bird" and "child" share one embedding, so their next-word scores tie.
  const Step& next = t.steps.back();
  REQUIRE(next.kind == StepKind::next_token);
  int cat = -1;
  for (std::size_t v = 0; v < next.result.col_labels.size(); ++v)
    if (next.result.col_labels[v] == "cat") cat = static_cast<int>(v);
  REQUIRE(cat >= 0);
  const std::string sentence = narrate(t, next, {0, cat});
  CAPTURE(sentence);
  CHECK(sentence.find("; it ties ") != std::string::npos);
  CHECK(sentence.find(" and 1 more.") != std::string::npos);  // three named, the fourth counted
}

TEST_CASE("a projection's columns count from 1, in the board's names and in the narration alike") {
  // The lessons say "head 1 owns columns 1–2" and the split-join explorer labels q1…; the board
  // once said q0… while the narrator said "column 1" for q0.
  const Trace t = run_block(default_model_spec(), "The cat sat down");
  const Step* q = nullptr;
  for (const Step& s : t.steps)
    if (s.kind == StepKind::project_q && !q) q = &s;
  REQUIRE(q != nullptr);
  CHECK(q->result.col_labels.front() == "q1");
  CHECK(q->result.col_labels.back() == "q" + std::to_string(t.d_model));
  const std::string sentence = narrate(t, *q, {1, 1});
  CAPTURE(sentence);
  CHECK(sentence.find("has entry q2 = ") != std::string::npos);
  CHECK(sentence.find("times column 2 of W_Q") != std::string::npos);
}

TEST_CASE("following a word other than the last, the next-word sentence says why it speaks of the last word") {
  // #15 walk: following "AI", the last step's caption spoke of "Future" with no reason given.
  TraceOptions options;
  options.focus_token = 0;
  const Trace followed = run_block(default_model_spec(), "The cat sat down", options);
  const Step& next = followed.steps.back();
  REQUIRE(next.kind == StepKind::next_token);
  const std::string sentence = narrate(followed, next, {0, followed.next.ranking.front()});
  CAPTURE(sentence);
  CHECK(sentence.find("After 'down' the model gives") == 0);
  CHECK(sentence.find("You follow 'The', but the next word is always guessed from the last word's row: 'down'.") !=
        std::string::npos);
  // Following the last word itself, there is nothing to explain.
  const Trace last = run_block(default_model_spec(), "The cat sat down");
  CHECK(narrate(last, last.steps.back(), {0, last.next.ranking.front()}).find("You follow") == std::string::npos);
}

// [SECTION] The narrator in English and in Spanish (#30: what a native editor heard) ---------------

TEST_CASE("'almost all' and 'most' only when the weight says so, in both languages") {
  const Trace t = trace_of({"it", "animal", "street", "tired"});
  const Step high = context_step({0.95f, 0.03f, 0.01f, 0.01f});
  const Step half = context_step({0.6f, 0.3f, 0.05f, 0.05f});
  const Step low = context_step({0.4f, 0.3f, 0.2f, 0.1f});
  CHECK(narrate(t, high, {0, 0}).find("'it' gathers almost all of its attention from 'it' (weight 0.95)") !=
        std::string::npos);
  CHECK(narrate(t, half, {0, 0}).find("'it' gathers most of its attention from 'it' (weight 0.60)") !=
        std::string::npos);
  const std::string low_en = narrate(t, low, {0, 0});
  CAPTURE(low_en);
  CHECK(low_en.find("'it' gathers more from 'it' than from any other token (weight 0.40)") != std::string::npos);
  CHECK(low_en.find("most") == std::string::npos);

  Spanish es;
  const std::string high_es = narrate(t, high, {0, 0}), half_es = narrate(t, half, {0, 0}),
                    low_es = narrate(t, low, {0, 0});
  CAPTURE(high_es);
  CAPTURE(half_es);
  CAPTURE(low_es);
  CHECK(high_es.find("«it» toma casi toda su atención de «it» (peso 0,95)") != std::string::npos);
  CHECK(half_es.find("«it» toma la mayor parte de su atención de «it» (peso 0,60)") != std::string::npos);
  CHECK(low_es.find("«it» toma de «it» más que de ningún otro token (peso 0,40)") != std::string::npos);
  for (const std::string& said : {half_es, low_es}) CHECK(said.find("casi tod") == std::string::npos);
}

TEST_CASE("Spanish narration never puts a comma beside a decimal-comma number, nor says '....' or a raw keyword") {
  // «de la cabeza 1, 1,09» reads as three numbers. Every sentence of a real two-head block, every
  // cell, with and without a mask, and a sentence long enough to be cut short.
  ModelSpec spec = default_model_spec();
  spec.attention.heads = 2;
  TraceOptions causal, unmasked;
  causal.mask = Mask::causal_mask();
  unmasked.mask = Mask::none();
  std::vector<std::string> english, spanish;
  const auto run_all = [&](std::vector<std::string>& out) {
    for (const char* sentence : {"The cat sat down", "the dog was tired because it ran and ran on the long road ."}) {
      for (const std::string& said : every_sentence(run_block(spec, sentence, unmasked))) out.push_back(said);
      for (const std::string& said : every_sentence(run_block(spec, sentence, causal))) out.push_back(said);
    }
  };
  run_all(english);
  {
    Spanish es;
    run_all(spanish);
  }
  REQUIRE(spanish.size() > 1000);
  const std::regex number_then_comma(R"(\d,\d+,)");        // "0,50, ..."
  const std::regex comma_then_number(R"(,\s−?-?\d+,\d)");  // "..., 1,09"
  bool long_sentence_said = false;
  for (const std::string& said : spanish) {
    CAPTURE(said);
    CHECK_FALSE(std::regex_search(said, number_then_comma));
    CHECK_FALSE(std::regex_search(said, comma_then_number));
    CHECK(said.find("....") == std::string::npos);
    CHECK(said.find("...") == std::string::npos);
    CHECK(said.find("(none)") == std::string::npos);
    CHECK(said.find("none") == std::string::npos);
    CHECK(said.find("la subcapa") == std::string::npos);
    long_sentence_said = long_sentence_said || said.find(" y 9 más.") != std::string::npos;
  }
  CHECK(long_sentence_said);  // 15 tokens: six named, "y 9 más"
  bool english_long = false;
  for (const std::string& said : english) {
    CAPTURE(said);
    CHECK(said.find("...") == std::string::npos);
    CHECK(said.find("(none)") == std::string::npos);
    english_long = english_long || said.find(" and 9 more.") != std::string::npos;
  }
  CHECK(english_long);
}

TEST_CASE("the residual names its sublayer with the article each language needs") {
  ModelSpec spec = default_model_spec();
  const Trace en = run_block(spec, "The cat sat down");
  std::vector<std::string> said_en, said_es;
  for (const Step& s : en.steps)
    if (s.kind == StepKind::residual) said_en.push_back(s.narration);
  {
    Spanish es;
    const Trace t = run_block(spec, "The cat sat down");
    for (const Step& s : t.steps)
      if (s.kind == StepKind::residual) said_es.push_back(s.narration);
  }
  REQUIRE(said_en.size() == 2);
  REQUIRE(said_es.size() == 2);
  CHECK(said_en[0].find("'down' keeps its own vector and adds what the attention found: its ") == 0);
  CHECK(said_en[1].find("'down' keeps its own vector and adds what the feed-forward layer found: its ") == 0);
  CHECK(said_es[0].find("«down» conserva su propio vector y le suma lo que encontró la atención: su rasgo de ") == 0);
  CHECK(said_es[1].find(
            "«down» conserva su propio vector y le suma lo que encontró la red feed-forward: su rasgo de ") == 0);
}

TEST_CASE("without a mask the narrator says 'No mask', in words, never the keyword") {
  TraceOptions none;
  none.mask = Mask::none();
  const Trace en = run_block(default_model_spec(), "The cat sat down", none);
  std::string mask_en, mask_es;
  for (const Step& s : en.steps)
    if (s.kind == StepKind::mask && mask_en.empty()) mask_en = s.narration;
  {
    Spanish es;
    const Trace t = run_block(default_model_spec(), "The cat sat down", none);
    for (const Step& s : t.steps)
      if (s.kind == StepKind::mask && mask_es.empty()) mask_es = s.narration;
  }
  CHECK(mask_en.rfind("No mask: 'down' may look at every token; its score for ", 0) == 0);
  CHECK(mask_es.rfind("Sin máscara: «down» puede mirar a todos los tokens; su puntuación para ", 0) == 0);
}

TEST_CASE("without a position code, the narrator says what a causal mask still tells apart") {
  ModelSpec spec = default_model_spec();
  spec.positional_encoding = false;
  TraceOptions causal, unmasked;
  causal.mask = Mask::causal_mask();
  unmasked.mask = Mask::none();
  const auto positions = [](const Trace& t) {
    for (const Step& s : t.steps)
      if (s.kind == StepKind::positions) return s.narration;
    return std::string();
  };
  const std::string none = positions(run_block(spec, "The cat sat down", unmasked));
  const std::string masked = positions(run_block(spec, "The cat sat down", causal));
  CHECK(none.rfind("No position code is added, so without a mask attention cannot tell the words' order", 0) == 0);
  CHECK(masked.rfind("No position code is added; only the causal mask tells positions apart", 0) == 0);
  CHECK(masked.find("invisible") == std::string::npos);
  Spanish es;
  CHECK(positions(run_block(spec, "The cat sat down", causal))
            .rfind("No se suma ninguna codificación posicional; solo la máscara causal", 0) == 0);
}

TEST_CASE("a blend entry is 'mostly from' a token only when its term is most of the entry, all one sign") {
  const Trace t = trace_of({"a", "b", "c"});
  const Matrix w = from_rows(1, 3, {0.6f, 0.3f, 0.1f});
  const auto blend = [&](std::vector<float> v) {
    Matrix values(3, 1);
    values << v[0], v[1], v[2];
    const Matrix out = w * values;
    return step_of(StepKind::blend, {named("weights", w, {"a", "b", "c"}), named("V (head 1)", values, {"1"})},
                   named("blend", out, {"1"}), 0);
  };
  // 0.6·1 + 0.3·0.1 + 0.1·0.1 = 0.64, of which 'a' gives 0.60.
  CHECK(narrate(t, blend({1.0f, 0.1f, 0.1f}), {0, 0}) ==
        "Entry 1 of the new vector of 'a' in head 1 is 0.64, mostly from 'a' (weight 0.60 times value 1.00).");
  // 0.6·1 − 0.3·1.5 = 0.15: 'a' gives more than the whole entry, 'b' takes most of it back.
  const std::string mixed = narrate(t, blend({1.0f, -1.5f, 0.0f}), {0, 0});
  CHECK(mixed ==
        "Entry 1 of the new vector of 'a' in head 1 is 0.15, a sum of terms of both signs; the largest "
        "is from 'a' (weight 0.60 times value 1.00).");
  // Three terms of one sign, none half of the entry: 0.6·0.2 + 0.3·0.5 + 0.1·1.5 = 0.42.
  CHECK(narrate(t, blend({0.2f, 0.5f, 1.5f}), {0, 0})
            .find("gathered from several tokens; the largest share comes from 'b'") != std::string::npos);
  Spanish es;
  const std::string mixed_es = narrate(t, blend({1.0f, -1.5f, 0.0f}), {0, 0});
  CHECK(mixed_es.find("es una suma de términos de los dos signos; el mayor viene de «a»") != std::string::npos);
  CHECK(mixed_es.find("sobre todo") == std::string::npos);
}

TEST_CASE("Spanish percentages read «35,8 %», with a no-break space before the sign") {
  Trace t = trace_of({"AI", "Agents"});
  const std::vector<std::string> words = {"build", "code"};
  const Matrix logits = from_rows(1, 2, {1.0f, 0.0f});
  const Matrix e = logits.array().exp();
  Step s = step_of(StepKind::next_token, {named("logits", logits, words)}, named("probability", e / e.sum(), words));
  s.scalar = 1.0f;
  t.next.ranking = {0, 1};
  CHECK(narrate(t, s, {0, 0}).find("gives 'build' 73.1%: the softmax") != std::string::npos);
  Spanish es;
  const std::string said = narrate(t, s, {0, 0});
  CAPTURE(said);
  CHECK(said.find("el modelo da a «build» un 73,1\u00a0%: la softmax compara su logit 1,00 dividido entre la "
                  "temperatura 1,00 con los logits de las 2 palabras; le sigue «code» con un 26,9\u00a0%.") !=
        std::string::npos);
  CHECK(format_percent(0.358f) == "35,8\u00a0%");
}

TEST_CASE("the token list names up to seven tokens, then counts the rest: never '....', never 'and 1 more'") {
  Step tokens;
  tokens.kind = StepKind::tokens;
  const Trace seven = trace_of({"The", "boy", "gently", "pushed", "the", "chair", "."});
  CHECK(narrate(seven, tokens, {0, 0}) ==
        "The sentence becomes 7 tokens: 'The', 'boy', 'gently', 'pushed', 'the', 'chair' and '.'.");
  const Trace eight = trace_of({"The", "farmer", "carried", "the", "bag", "because", "it", "."});
  CHECK(narrate(eight, tokens, {0, 0}) ==
        "The sentence becomes 8 tokens: 'The', 'farmer', 'carried', 'the', 'bag', 'because' and 2 more.");
  Spanish es;
  CHECK(narrate(eight, tokens, {0, 0}) ==
        "La frase se convierte en 8 tokens: «The», «farmer», «carried», «the», «bag», «because» y 2 más.");
}
