// trace_test.cpp: the recorded forward pass that views animate and the narrator speaks.
#include "engine/trace/block_trace.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <string>
#include <vector>

using namespace neuralpath;

namespace {

const char* kTired = "The animal didn't cross the street because it was too tired.";
const char* kWide = "The animal didn't cross the street because it was too wide.";

TraceOptions bidirectional() {
  TraceOptions o;
  o.mask = Mask::none();
  return o;
}

// true when `text` is how format.h prints one of the numbers this step holds.
bool step_holds(const Step& s, const std::string& text) {
  auto in = [&](const Matrix& m) {
    for (Index i = 0; i < m.rows(); ++i)
      for (Index j = 0; j < m.cols(); ++j)
        if (format_number(m(i, j)) == text || format_percent(m(i, j)) == text) return true;
    return false;
  };
  if (!s.scalar_name.empty() && format_number(s.scalar) == text) return true;
  if (in(s.result.values)) return true;
  for (const NamedMatrix& m : s.inputs)
    if (in(m.values)) return true;
  return false;
}

}  // namespace

TEST_CASE("numbers are formatted once, the same way for views and narration") {
  CHECK(format_number(1.899f) == "1.90");
  CHECK(format_number(-0.47f) == "-0.47");
  CHECK(format_number(-0.001f) == "0.00");
  CHECK(format_number(-std::numeric_limits<float>::infinity()) == "-∞");
  CHECK(format_percent(0.4123f) == "41.2%");
  CHECK(format_sqrt(16) == "√16");
}

TEST_CASE("the trace covers the whole block in the documented order") {
  const Trace t = run_block(default_model_spec(), kTired);
  using K = StepKind;
  std::vector<K> expected = {K::tokens,    K::embedding, K::positions, K::context_layer,
                             K::project_q, K::project_k, K::project_v};
  for (int h = 0; h < t.heads; ++h)
    for (K k : {K::score, K::scale, K::mask, K::softmax, K::blend}) expected.push_back(k);
  for (K k : {K::concat_heads, K::output_projection, K::residual, K::layer_norm, K::feed_forward, K::residual,
              K::layer_norm, K::next_token})
    expected.push_back(k);
  REQUIRE(t.steps.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(step_kind_name(t.steps[i].kind) == std::string(step_kind_name(expected[i])));
    CHECK_FALSE(t.steps[i].title.empty());
    CHECK_FALSE(t.steps[i].narration.empty());
  }
  CHECK(t.labels.size() == 12);
  CHECK(t.steps[7].head == 0);
  CHECK(t.steps[12].head == 1);
}

TEST_CASE("the softmax's input is called masked only where the mask hid something") {
  const auto softmax_input = [](const Trace& t) {
    for (const Step& s : t.steps)
      if (s.kind == StepKind::softmax) return s.inputs.at(0).name;
    return std::string();
  };
  CHECK(softmax_input(run_block(default_model_spec(), kTired)) == "masked");
  // Nothing hidden: the softmax reads the scaled scores (a playback without its mask step
  // called them "masked").
  CHECK(softmax_input(run_block(default_model_spec(), kTired, bidirectional())) == "scaled");
}

TEST_CASE("every number in a narration sentence is a number the step holds, printed the same way" *
          doctest::test_suite("slow")) {
  for (const char* sentence : {kTired, kWide, "A zebra sat on the mat"}) {
    for (const TraceOptions& options : {TraceOptions{}, bidirectional()}) {
      const Trace t = run_block(default_model_spec(), sentence, options);
      // "1.25 − 0.82" speaks the held value -0.82 as a subtraction: read it back as "-0.82".
      const std::regex number("-?∞|(− )?-?[0-9]+\\.[0-9]+%?");
      for (const Step& s : t.steps) {
        // The focus sentence and the sentence for every other cell a view may point at.
        std::vector<std::string> sentences = {s.narration};
        for (Index i = 0; i < s.result.values.rows(); ++i)
          for (Index j = 0; j < s.result.values.cols(); ++j)
            sentences.push_back(narrate(t, s, {static_cast<int>(i), static_cast<int>(j)}));
        for (const std::string& text : sentences)
          for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
            CAPTURE(text);
            const std::string n = it->str();
            CHECK(step_holds(s, n.rfind("− ", 0) == 0 ? "-" + n.substr(std::string("− ").size()) : n));
          }
      }
    }
  }
}

TEST_CASE("the scale step narrates the score, the square root and the result") {
  const Trace t = run_block(default_model_spec(), "The cat sat on the mat");
  const Step& s = t.steps[8];
  REQUIRE(s.kind == StepKind::scale);
  const Cell c = s.focus;
  const std::string expected =
      "'" + t.labels[static_cast<std::size_t>(c.row)] + "' scores '" + t.labels[static_cast<std::size_t>(c.col)] +
      "' at " + format_number(s.inputs[0].values(c.row, c.col)) + "; divided by √" + std::to_string(t.d_head) +
      " that is " + format_number(s.result.values(c.row, c.col)) + ".";
  CHECK(s.narration == expected);
  CHECK(s.scalar == doctest::Approx(1.0f / std::sqrt(static_cast<float>(t.d_head))));
}

TEST_CASE("context layers let the spotlight on 'it' swing between 'animal' and 'street'") {
  const ModelSpec spec = default_model_spec();
  const int it = 7, animal = 1, street = 5;
  const Trace tired = run_block(spec, kTired, bidirectional());
  const Trace wide = run_block(spec, kWide, bidirectional());
  REQUIRE(tired.labels[it] == "it");
  const Vector a = tired.spotlight(it, 0), b = wide.spotlight(it, 0);
  CHECK(a(animal) > 0.5f);
  CHECK(a(animal) > a(street));
  CHECK(b(street) > 0.5f);
  CHECK(b(street) > b(animal));
  CHECK(tired.spotlight(it).sum() == doctest::Approx(1.0f));  // mean over heads

  // Without the context layer the two sentences look the same to "it": no swing possible.
  ModelSpec flat = spec;
  flat.context_layers.clear();
  const Vector fa = run_block(flat, kTired, bidirectional()).spotlight(it, 0);
  const Vector fb = run_block(flat, kWide, bidirectional()).spotlight(it, 0);
  CHECK(std::abs(fa(animal) - fb(animal)) < 1e-6f);
}

TEST_CASE("trace steps carry the per-cell terms that sum to each cell, and causal masked cells") {
  const Trace t = run_block(default_model_spec(), "The cat sat on the mat");
  const int T = static_cast<int>(t.labels.size());
  for (const Step& s : t.steps) {
    if (s.kind != StepKind::score && s.kind != StepKind::blend && s.kind != StepKind::project_q) continue;
    REQUIRE(s.cell_terms.size() == static_cast<std::size_t>(s.result.values.size()));
    for (const CellTerms& c : s.cell_terms) {
      float sum = 0.0f;
      for (const Term& term : c.terms) sum += term.a * term.b;
      CHECK(sum == doctest::Approx(s.result.values(c.cell.row, c.cell.col)).epsilon(1e-5));
    }
  }
  for (const Step& s : t.steps)
    if (s.kind == StepKind::mask) {
      CHECK(s.masked_cells.size() == static_cast<std::size_t>(T * (T - 1) / 2));
      for (const Cell& c : s.masked_cells) CHECK(c.col > c.row);
    }
  for (int h = 0; h < t.heads; ++h) {
    const Matrix w = t.weights(h);
    for (int i = 0; i < T; ++i) {
      CHECK(w.row(i).sum() == doctest::Approx(1.0f));
      for (int j = i + 1; j < T; ++j) CHECK(w(i, j) == 0.0f);
    }
  }
  CHECK(t.next.probabilities.sum() == doctest::Approx(1.0f));
  CHECK(t.next.words.size() == default_model_spec().vocabulary.words.size());
}

TEST_CASE("a trace of bad input is a clear error") {
  CHECK_THROWS_WITH(run_block(default_model_spec(), "  "), doctest::Contains("no tokens"));
  TraceOptions o;
  o.focus_token = 5;
  CHECK_THROWS_AS(run_block(default_model_spec(), "two words", o), InputError);
}

TEST_CASE("a block without context layers or feed-forward leaves those steps out, and every focus is a real cell") {
  ModelSpec spec = default_model_spec();
  spec.context_layers.clear();
  spec.feed_forward.enabled = false;
  spec.attention.heads = 1;
  TraceOptions options;
  options.mask = Mask::padding({false, false, true}, true);  // causal + the last token is padding
  const Trace t = run_block(spec, "cats sat .", options);
  std::vector<std::string> kinds;
  for (const Step& s : t.steps) kinds.push_back(step_kind_name(s.kind));
  CHECK(kinds == std::vector<std::string>{"tokens", "embedding", "positions", "project_q", "project_k", "project_v",
                                          "score", "scale", "mask", "softmax", "blend", "concat_heads",
                                          "output_projection", "residual", "layer_norm", "next_token"});
  CHECK(t.weights(0).col(2).isZero(0.0f));  // nobody attends to the padding
  CHECK_FALSE(t.known[0]);                  // "cats" is not in the default vocabulary
  for (const Step& s : t.steps) {
    CAPTURE(s.title);
    CHECK(s.focus.row >= 0);
    CHECK(s.focus.row < s.result.values.rows());
    CHECK(s.focus.col < s.result.values.cols());
    for (const int token : s.tokens) CHECK(token < static_cast<int>(t.labels.size()));
  }
}
