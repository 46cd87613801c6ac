// narration_test.cpp: the narrator's sentences on the edge cases a learner meets (one head, equal
// weights, ties, negative terms, a row with nothing hidden), checked word for word.
//
// Most cases build one Step by hand with the numbers that make the edge case, so each sentence
// is pinned exactly; the last ones run the real block to show the cases arise from real models.
#include "engine/core/block.h"
#include "engine/text/format.h"
#include "engine/core/narration.h"

#include "helpers.h"

#include <doctest/doctest.h>

#include <cmath>
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
    const Step s = step_of(StepKind::residual,
                           {named("x", from_rows(1, 1, {1.0f}), {"thing"}),
                            named("feed-forward", from_rows(1, 1, {-0.001f}), {"thing"})},
                           named("x + feed-forward", from_rows(1, 1, {0.999f}), {"thing"}));
    CHECK(narrate(t, s, {0, 0}) ==
          "'AI' keeps its own vector and adds what the feed-forward found: its thing is 1.00 + 0.00 = 1.00.");
}

TEST_CASE("equal weights are 'evenly' spread, not 'mostly' from the first token") {
    const Trace t = trace_of(kWords);
    const float q = 0.25f;
    const Matrix masked = from_rows(4, 4, {0, -INFINITY, -INFINITY, -INFINITY, 1, 2, -INFINITY, -INFINITY,
                                           0, 0, 0, -INFINITY, 0, 0, 0, 0});
    const Matrix weights = from_rows(4, 4, {1, 0, 0, 0, 0.27f, 0.73f, 0, 0, 1 / 3.f, 1 / 3.f, 1 / 3.f, 0, q, q, q, q});
    const Step s = step_of(StepKind::softmax, {named("masked", masked, kWords)}, named("weights", weights, kWords), 0);
    CHECK(narrate(t, s, {3, 0}) ==
          "'down' scores all 4 tokens it can see equally in head 1, so the softmax spreads its weight evenly: 0.25 each.");
    CHECK(narrate(t, s, {2, 1}) ==
          "'sat' scores all 3 tokens it can see equally in head 1, so the softmax spreads its weight evenly: 0.33 each.");
    CHECK(narrate(t, s, {0, 0}) == "'The' can see only 'The' in head 1, so the softmax gives it all the weight: 1.00.");
    CHECK(narrate(t, s, {1, 1}) == "Softmax turns the scores of 'cat' into weights that sum to 1: 'cat' gets 0.73 in head 1.");

    // Weights that differ only past the second decimal look even on the board: "about evenly".
    Step close = s;
    close.result.values.row(3) << 0.2505f, 0.2501f, 0.2507f, 0.2487f;
    CHECK(narrate(t, close, {3, 0}) == "'down' scores all 4 tokens it can see almost equally in head 1, so the softmax "
                                       "spreads its weight about evenly: 0.25 each.");
    CHECK(narrate(t, s, {0, 2}) == "'sat' is masked, so it gets exactly 0.00 of the attention of 'The'.");
}

TEST_CASE("a context layer names a tie for the largest weight, and even attention as even") {
    Trace t = trace_of(kWords);
    const Matrix x = Matrix::Zero(4, 2);
    const Matrix after = from_rows(4, 2, {0, 0, 0, 0, 0.5f, 0, 0.25f, 0});
    const Matrix weights = from_rows(4, 4, {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.4f, 0.4f, 0.2f, 0, 0.25f, 0.25f, 0.25f, 0.25f});
    Step s = step_of(StepKind::context_layer, {named("x", x, kFeatures), named("weights (head 1)", weights, kWords)},
                     named("x + context", after, kFeatures));
    s.layer = 0;
    CHECK(narrate(t, s, {3, 0}) == "Context layer 1: 'down' spreads its attention evenly over 4 tokens (0.25 each), "
                                   "so its thing goes from 0.00 to 0.25.");
    CHECK(narrate(t, s, {2, 0}) == "Context layer 1: 'sat' gathers most from 'The' and 'cat' (weight 0.40 each), "
                                   "so its thing goes from 0.00 to 0.50.");
    CHECK(narrate(t, s, {0, 0}) == "Context layer 1: 'The' can only see 'The' (weight 1.00), so its thing goes from 0.00 to 0.00.");

    // With a second head the sentence says whose weights it is reading.
    s.inputs.push_back(named("weights (head 2)", weights, kWords));
    CHECK(narrate(t, s, {1, 0}).rfind("Context layer 1: 'cat' (in head 1) spreads its attention evenly over 2 tokens", 0) == 0);
}

TEST_CASE("one head has nothing to join; several heads say which head an entry came from") {
    const Trace t = trace_of({"down"});
    const Matrix blend = from_rows(1, 2, {0.53f, -0.1f});
    const Step one = step_of(StepKind::concat_heads, {named("blend (head 1)", blend, {"0", "1"})},
                             named("concat", blend, {"0", "1"}));
    CHECK(narrate(t, one, {0, 1}) ==
          "With one head there is nothing to join: the blend of 'down' passes on unchanged, and its entry 1 is -0.10.");

    const Matrix joined = from_rows(1, 4, {0.53f, -0.1f, 0.2f, 0.9f});
    const Step two = step_of(StepKind::concat_heads,
                             {named("blend (head 1)", blend, {"0", "1"}),
                              named("blend (head 2)", from_rows(1, 2, {0.2f, 0.9f}), {"0", "1"})},
                             named("concat", joined, {"0", "1", "2", "3"}));
    CHECK(narrate(t, two, {0, 3}) ==
          "The 2 heads' outputs sit side by side: entry 3 of the joined vector of 'down' is entry 1 of head 2, 0.90.");
}

TEST_CASE("an identity W_O is said to pass the heads through, not to mix them") {
    const Trace t = trace_of({"down"});
    const Matrix concat = from_rows(1, 2, {0.5f, -0.25f});
    const std::vector<std::string> dims = {"0", "1"};
    Step s = step_of(StepKind::output_projection, {named("concat", concat, dims), named("W_O", Matrix::Identity(2, 2), kFeatures)},
                     named("attention", concat, kFeatures));
    CHECK(narrate(t, s, {0, 1}) == "W_O is the identity here, so the heads' outputs pass through unmixed: the agent of 'down' is -0.25.");
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
          "LayerNorm re-centres and rescales 'AI': its agent 1.00 minus the mean 2.00, divided by the spread 1.00, is -1.00.");
    s.result.values(0, 1) = -0.5f;  // gain 0.5 on this feature
    CHECK(narrate(t, s, {0, 1}) == "LayerNorm re-centres and rescales 'AI': its agent 1.00 minus the mean 2.00, divided by "
                                   "the spread 1.00, then the learned gain and shift, gives -0.50.");
}

TEST_CASE("the feed-forward's addition includes the output bias") {
    const Trace t = trace_of({"AI"});
    const Step s = step_of(StepKind::feed_forward,
                           {named("x", from_rows(1, 1, {1.0f}), {"thing"}),
                            named("hidden", from_rows(1, 3, {0.5f, 0.0f, 2.0f}), {"h0", "h1", "h2"})},
                           named("feed-forward", from_rows(1, 1, {0.75f}), {"thing"}));
    CHECK(narrate(t, s, {0, 0}) == "The feed-forward layer works on 'AI' alone: 2 of its 3 hidden units fire, "
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
                                       ", the softmax of its logit 2.00 divided by the temperature 1.00; it ties for "
                                       "first place with 'tools'.");
    CHECK(narrate(t, s, {0, 2}).find("; it ties for first place with 'code'.") != std::string::npos);

    // No tie: the top word names the runner-up.
    s.inputs[0].values(0, 2) = 1.5f;
    const Matrix e2 = s.inputs[0].values.array().exp();
    s.result.values = e2 / e2.sum();
    const std::string second = format_percent(s.result.values(0, 2));
    CHECK(narrate(t, s, {0, 1}).find("divided by the temperature 1.00; next is 'tools' at " + second + ".") != std::string::npos);

    // A tie below the top is a tie, not first place.
    s.inputs[0].values = from_rows(1, 4, {1.0f, 3.0f, 0.0f, 0.0f});
    const Matrix e3 = s.inputs[0].values.array().exp();
    s.result.values = e3 / e3.sum();
    t.next.ranking = {1, 0, 2, 3};
    CHECK(narrate(t, s, {0, 2}).find("divided by the temperature 1.00; it ties with 'we'.") != std::string::npos);
}

TEST_CASE("the mask step says when a row has nothing hidden instead of pointing at 'later tokens'") {
    const Trace t = [] {
        Trace tr = trace_of({"The", "cat"});
        tr.mask = Mask::causal_mask();
        return tr;
    }();
    const Matrix scaled = from_rows(2, 2, {0.5f, 0.1f, 0.3f, 0.7f});
    const Matrix masked = from_rows(2, 2, {0.5f, -INFINITY, 0.3f, 0.7f});
    Step s = step_of(StepKind::mask, {named("scaled", scaled, {"The", "cat"})}, named("masked", masked, {"The", "cat"}), 0);
    s.masked_cells = {{0, 1}};
    CHECK(narrate(t, s, {1, 0}) == "'cat' may look at 'The', so that score stays 0.30; nothing in its row is hidden.");
    CHECK(narrate(t, s, {0, 0}) == "'The' may look at 'The', so that score stays 0.50; the tokens hidden from it are set to -∞.");
    CHECK(narrate(t, s, {0, 1}) == "'The' may not look ahead at 'cat': its score becomes -∞, so its weight will be exactly 0.");
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
