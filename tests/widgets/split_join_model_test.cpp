// split_join_model_test.cpp: the multi-head lesson's split-and-join step-through, its model alone:
// every matrix a stage shows is the trace's, the heads really are column slices joined side by side.
#include "model_support.h"

#include "engine/trace/block_trace.h"
#include "engine/core/multi_head_cost.h"
#include "engine/widgets/split_join/split_join_model.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace model_test::multi_head;

namespace {

// The lesson's sentence run by the engine directly, as the widget's block asks (mask none).
const Trace& lesson_trace() {
  static const Trace t = [] {
    TraceOptions options;
    options.mask = Mask::none();
    return run_block(spec(), settings<SplitJoinSettings>("split-join-walk").sentence, options);
  }();
  return t;
}

const Step& step(StepKind kind, int head = -1) {
  for (const Step& s : lesson_trace().steps)
    if (s.kind == kind && s.layer == -1 && s.head == head) return s;
  FAIL("no such step");
  return lesson_trace().steps.front();
}

Matrix shown(const json& state) {
  const json& m = state["matrix"];
  Matrix out(static_cast<Index>(m.size()), static_cast<Index>(m[0].size()));
  for (Index i = 0; i < out.rows(); ++i)
    for (Index j = 0; j < out.cols(); ++j)
      out(i, j) = m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<float>();
  return out;
}

SplitJoinModel walk() { return SplitJoinModel(settings<SplitJoinSettings>("split-join-walk"), {}, spec()); }

}  // namespace

TEST_CASE("split-join: every stage shows the trace's own matrix for the head picked") {
  SplitJoinModel m = walk();
  REQUIRE(m.has_trace());
  const int heads = lesson_trace().heads, dh = lesson_trace().d_head;
  REQUIRE(heads == 4);
  REQUIRE(dh == 2);
  CHECK((shown(m.state()) == step(StepKind::project_q).result.values));
  CHECK(send(m, {{"type", "setRole"}, {"role", "V"}}) == "");
  CHECK((shown(m.state()) == step(StepKind::project_v).result.values));
  for (int h = 0; h < heads; ++h) {
    CAPTURE(h);
    CHECK(send(m, {{"type", "setHead"}, {"head", h}}) == "");
    CHECK(send(m, {{"type", "stage"}, {"stage", "slice"}}) == "");
    const Matrix slice = shown(m.state());
    CHECK((slice.middleCols(0, dh) == step(StepKind::project_q).result.values.middleCols(h * dh, dh)));
    CHECK((slice.middleCols(dh, dh) == step(StepKind::project_k).result.values.middleCols(h * dh, dh)));
    CHECK((slice.middleCols(2 * dh, dh) == step(StepKind::project_v).result.values.middleCols(h * dh, dh)));
    const std::pair<const char*, StepKind> per_head[] = {{"scores", StepKind::score},
                                                         {"scale", StepKind::scale},
                                                         {"softmax", StepKind::softmax},
                                                         {"mix", StepKind::blend}};
    for (const auto& item : per_head) {
      CAPTURE(item.first);
      CHECK(send(m, {{"type", "stage"}, {"stage", item.first}}) == "");
      CHECK((shown(m.state()) == step(item.second, h).result.values));
    }
  }
  CHECK(send(m, {{"type", "stage"}, {"stage", "concat"}}) == "");
  CHECK((shown(m.state()) == step(StepKind::concat_heads).result.values));
  CHECK(send(m, {{"type", "stage"}, {"stage", "output"}}) == "");
  CHECK((shown(m.state()) == step(StepKind::output_projection).result.values));
}

TEST_CASE("split-join: the join is each head's output in its own columns, and colours follow the owner") {
  SplitJoinModel m = walk();
  const int dh = lesson_trace().d_head;
  CHECK(m.state()["column_heads"] == json::array({0, 0, 1, 1, 2, 2, 3, 3}));
  CHECK(send(m, {{"type", "setHead"}, {"head", 2}}) == "");
  CHECK(send(m, {{"type", "stage"}, {"stage", "concat"}}) == "");
  const json s = m.state();
  CHECK(s["lit_columns"] == json::array({4, 5}));  // head 3's columns 5–6
  CHECK(s["narration"].get<std::string>().find("5–6") != std::string::npos);
  const Matrix concat = shown(s);
  for (int h = 0; h < 4; ++h) CHECK((concat.middleCols(h * dh, dh) == step(StepKind::blend, h).result.values));
}

TEST_CASE("split-join: the scale is 1/√d_head, written out, and never √d_model") {
  SplitJoinModel m = walk();
  CHECK(send(m, {{"type", "stage"}, {"stage", "scale"}}) == "");
  const json s = m.state();
  CHECK(s["scale"]["factor"].get<float>() == doctest::Approx(1.0 / std::sqrt(2.0)));
  CHECK(s["scale"]["root"] == "√2");
  const std::string formula = s["formula"];
  CHECK(formula.find("÷ √2") != std::string::npos);
  CHECK(formula.find("not ÷ √8") != std::string::npos);
  const Matrix scores = step(StepKind::score, 0).result.values;
  CHECK(shown(s).isApprox(scores * (1.0f / std::sqrt(2.0f))));
  const std::string said = s["narration"];
  CHECK(said.find("√2") != std::string::npos);
  CHECK(said.find("'pushed'") != std::string::npos);  // the block's query word
}

TEST_CASE("split-join: the common mistake divides by √d_model, and every row comes out flatter") {
  SplitJoinModel m = walk();
  CHECK(send(m, {{"type", "setHead"}, {"head", 1}}) == "");
  CHECK(send(m, {{"type", "stage"}, {"stage", "softmax"}}) == "");
  const Matrix right = shown(m.state());
  CHECK(send(m, {{"type", "mistake"}, {"on", true}}) == "");
  const json s = m.state();
  CHECK(s["mistake"]["on"] == true);
  CHECK(s["mistake"]["root"] == "√8");
  const Matrix wrong = shown(s);
  for (Index i = 0; i < right.rows(); ++i) {
    CHECK(wrong.row(i).maxCoeff() < right.row(i).maxCoeff());
    CHECK(wrong.row(i).sum() == doctest::Approx(1.0f));
  }
  CHECK(s["mistake"]["wrong"].get<float>() < s["mistake"]["right"].get<float>());
  CHECK(s["narration"].get<std::string>().find("√8") != std::string::npos);
  CHECK(send(m, {{"type", "stage"}, {"stage", "mix"}}) == "");  // not a stage the mistake lives on
  CHECK(m.state()["mistake"]["on"] == false);
  CHECK((shown(m.state()) == step(StepKind::blend, 1).result.values));
  CHECK(send(m, {{"type", "mistake"}, {"on", "yes"}}) != "");
}

TEST_CASE("split-join: Next and Back walk the eight stages and refuse past either end") {
  SplitJoinModel m = walk();
  CHECK(send(m, {{"type", "back"}}) != "");
  const char* names[] = {"cut", "slice", "scores", "scale", "softmax", "mix", "concat", "output"};
  for (int i = 0; i < 8; ++i) {
    CHECK(m.state()["stage"] == names[i]);
    CHECK_FALSE(m.state()["narration"].get<std::string>().empty());
    if (i < 7) CHECK(send(m, {{"type", "next"}}) == "");
  }
  CHECK(send(m, {{"type", "next"}}) != "");
  CHECK(m.state()["stage"] == "output");
  CHECK(send(m, {{"type", "back"}}) == "");
  CHECK(m.state()["stage"] == "concat");
  CHECK(send(m, {{"type", "setHead"}, {"head", 4}}) != "");
  CHECK(send(m, {{"type", "stage"}, {"stage", "boil"}}) != "");
  CHECK(send(m, {{"type", "setRole"}, {"role", "x"}}) != "");
  CHECK(send(m, {{"type", "dance"}}).find("dance") != std::string::npos);  // not taken, and says so
}

TEST_CASE("split-join: a tapped number explains itself from the trace's recorded terms") {
  SplitJoinModel m = walk();
  CHECK(send(m, {{"type", "stage"}, {"stage", "scores"}}) == "");
  CHECK(send(m, {{"type", "selectCell"}, {"row", 3}, {"col", 1}}) == "");
  const auto e = m.take_explanation();
  REQUIRE(e.has_value());
  REQUIRE_FALSE(e->inputs.empty());
  CHECK(e->inputs.front().second.find(format_number(step(StepKind::score, 0).result.values(3, 1))) !=
        std::string::npos);
  CHECK(m.state()["selected"] == json::array({3, 1}));
  CHECK(send(m, {{"type", "stage"}, {"stage", "slice"}}) == "");
  CHECK(m.state()["selected"].is_null());  // a new matrix: the old cell meant something else
  CHECK(send(m, {{"type", "selectCell"}, {"row", 0}, {"col", 3}}) == "");  // k2 of head 1
  const auto slice = m.take_explanation();
  REQUIRE(slice.has_value());
  CHECK(slice->title.find("k2") != std::string::npos);
  CHECK(send(m, {{"type", "selectCell"}, {"row", 0}, {"col", 6}}) != "");  // only 6 columns
}

TEST_CASE("split-join: a snapshot reopens the sentence, stage, head and role") {
  SplitJoinModel m = walk();
  CHECK(send(m, {{"type", "setSentence"}, {"text", "The girl slowly lifted the box."}}) == "");
  CHECK(send(m, {{"type", "setHead"}, {"head", 3}}) == "");
  CHECK(send(m, {{"type", "stage"}, {"stage", 4}}) == "");
  SplitJoinModel fresh = walk();
  CHECK(fresh.restore(m.snapshot()).done());
  CHECK(fresh.state()["sentence"] == "The girl slowly lifted the box.");
  CHECK(fresh.state()["head"] == 3);
  CHECK(fresh.state()["stage"] == "softmax");
  CHECK(fresh.state()["matrix"] == m.state()["matrix"]);
  CHECK_FALSE(fresh.restore(json::array()).done());
  CHECK(send(m, {{"type", "setSentence"}, {"text", ""}}) != "");
  CHECK(m.state()["sentence"] == "The girl slowly lifted the box.");  // refused: nothing changed
}

TEST_CASE("split-join: one head and one word read in the singular, in English and Spanish (the plural keys)") {
  // The self-attention lesson's model: a single head as wide as the layer.
  static const lesson::Lesson single = [] {
    lesson::LoadResult r = lesson::load_lesson_file("lessons/self-attention.md", neuralpath::widgets::with_widgets());
    REQUIRE(r.ok());
    return std::move(*r.lesson);
  }();
  const ModelSpec one_head = lesson::model_spec_for(single);
  SplitJoinSettings s;
  s.sentence = "it";
  s.causal = false;
  SplitJoinModel m(s, {}, one_head);
  REQUIRE(m.has_trace());
  REQUIRE(m.state()["heads"] == 1);
  const std::string d = std::to_string(m.state()["d_model"].get<int>());
  const auto said_at = [&m](const char* stage) {
    CHECK(send(m, {{"type", "stage"}, {"stage", stage}}) == "");
    return m.narration();
  };
  const std::string cut = said_at("cut"), concat = said_at("concat");
  CHECK(cut.find("1 word × " + d + " columns, kept whole as a single head of " + d + " columns") != std::string::npos);
  CHECK(concat.find("of the single head, 1 word × " + d + " columns") != std::string::npos);
  std::ifstream in("lessons/strings/es.strings");
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(use_language("es", text.str()).empty());
  const std::string cut_es = said_at("cut"), concat_es = said_at("concat");
  SplitJoinModel four = walk();
  const std::string four_es = four.narration();
  use_language("en", "");
  CHECK(cut_es.find("1 palabra × " + d + " columnas, sin cortar, una sola cabeza de " + d + " columnas") !=
        std::string::npos);
  CHECK(concat_es.find("con la única cabeza, 1 palabra") != std::string::npos);
  CHECK(four_es.find("cortadas en 4 cabezas de 2 columnas") != std::string::npos);
  for (const std::string& said : {cut, concat, cut_es, concat_es}) {
    CAPTURE(said);
    CHECK(said.find("1 heads") == std::string::npos);
    CHECK(said.find("1 cabezas") == std::string::npos);
    CHECK(said.find("1 words") == std::string::npos);
    CHECK(said.find("1 palabras") == std::string::npos);
  }
}
