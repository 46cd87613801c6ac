// parser_test.cpp: the lesson format, block by block, as an author writes it.
#include "helpers.h"

#include "engine/widgets/cost_explorer/cost_explorer_settings.h"
#include "engine/widgets/playback/playback_settings.h"
#include "engine/widgets/heatmap/heatmap_settings.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"
#include "engine/widgets/spotlight/spotlight_settings.h"

#include "engine/lesson/lesson.h"

using namespace lesson_test;

namespace {

// The blocks of the test lesson's one section, `count` of them, from a text that parses clean.
const Blocks& section_blocks(const ParseResult& r, std::size_t count) {
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  REQUIRE(r.lesson.sections.size() == 1);
  const auto& blocks = r.lesson.sections[0].blocks;
  REQUIRE(blocks.size() == count);
  return blocks;
}

// The one block of the test lesson's one section (a copy: the ParseResult is a temporary).
template <class T>
T only(const ParseResult& r) {
  const auto& blocks = section_blocks(r, 1);
  REQUIRE(std::holds_alternative<T>(blocks[0].content));
  return std::get<T>(blocks[0].content);
}

// A folder kind's settings (widget_kinds.h) as their type (a copy, like only()).
template <class T>
T settings_of(const WidgetBlock& w) {
  const auto* settings = dynamic_cast<const T*>(w.settings.get());
  REQUIRE(settings);
  return *settings;
}

}  // namespace

TEST_CASE("front matter gives the lesson its id, title, level and summary") {
  const auto r = parse(doc("Hello.\n"));
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  CHECK(r.lesson.id == "test-lesson");
  CHECK(r.lesson.title == "A test lesson");
  CHECK(r.lesson.level == Level::Beginner);
  CHECK(r.lesson.summary == "Used by the tests.");
  CHECK(r.lesson.file == "test.md");
}

TEST_CASE("front matter's optional order places the lesson in the list; a bad one is a file:line:col error") {
  CHECK(parse(doc("Hello.\n")).lesson.order == 0);  // none: after the lessons that have one
  std::string text = doc("Hello.\n");
  text.insert(text.find("summary:"), "order: 2\n");
  const auto r = parse(text);
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  CHECK(r.lesson.order == 2);
  for (const char* bad : {"0", "first", "-1"}) {
    std::string wrong = doc("Hello.\n");
    wrong.insert(wrong.find("summary:"), std::string("order: ") + bad + "\n");
    const auto e = parse(wrong);
    REQUIRE(e.diagnostics.size() == 1);
    CHECK(e.diagnostics[0].pos.line == 5);
    CHECK(e.diagnostics[0].message == "'order' should be a whole number from 1 to 9999");
  }
}

TEST_CASE("level-prefixed ## headings become the table of contents") {
  const std::string text =
      doc("Intro text.\n\n"
          "## Medium: Causal masking (GPT)\n\nx\n\n"
          "## Advanced: The cost {#cost}\n\ny\n\n"
          "## Key points\n\nz\n");
  const auto r = parse(text);
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  const auto& s = r.lesson.sections;
  REQUIRE(s.size() == 4);
  CHECK(s[0].title == "First steps");
  CHECK(s[0].level == Level::Beginner);
  CHECK(s[0].anchor == "first-steps");
  CHECK(s[1].title == "Causal masking (GPT)");
  CHECK(s[1].level == Level::Medium);
  CHECK(s[1].anchor == "causal-masking-gpt");
  CHECK(s[2].anchor == "cost");
  CHECK(s[2].title == "The cost");
  CHECK(s[2].level == Level::Advanced);
  CHECK(s[3].level == Level::None);
  CHECK(s[3].title == "Key points");
  CHECK(s[1].pos == pos_of(text, "Medium"));
}

TEST_CASE("prose keeps bold, italic, code, links and inline maths as styled spans") {
  const auto p =
      only<Paragraph>(parse(doc("Plain **bold** *italic* `code` [link](https://example.org) and $\\sqrt{d_k}$.\n")));
  REQUIRE(p.text.size() >= 9);
  CHECK(p.text[0].text == "Plain ");
  CHECK(p.text[1].text == "bold");
  CHECK(p.text[1].bold);
  CHECK(p.text[3].italic);
  CHECK(p.text[5].kind == Span::Kind::Code);
  CHECK(p.text[5].text == "code");
  CHECK(p.text[7].link == "https://example.org");
  CHECK(p.text[7].text == "link");
  CHECK(p.text[9].kind == Span::Kind::Math);
  CHECK(p.text[9].math.children.at(0).kind == EqKind::Root);
  CHECK(plain_text(p.text) == "Plain bold italic code link and √d_k.");
}

TEST_CASE("lists, nested lists, quotes, rules and tables become prose blocks") {
  const auto r =
      parse(doc("- one **a**\n- two\n  1. inner\n\n"
                "> quoted\n\n"
                "---\n\n"
                "| T | pairs |\n|---|---:|\n| 1,000 | 10⁶ |\n"));
  const auto& b = section_blocks(r, 4);
  const auto& list = std::get<ListBlock>(b[0].content);
  CHECK_FALSE(list.ordered);
  REQUIRE(list.items.size() == 2);
  CHECK(plain_text(std::get<Paragraph>(list.items[0][0].content).text) == "one a");
  const auto& inner = std::get<ListBlock>(list.items[1][1].content);
  CHECK(inner.ordered);
  CHECK(plain_text(std::get<Paragraph>(inner.items[0][0].content).text) == "inner");
  CHECK(plain_text(std::get<Paragraph>(std::get<Quote>(b[1].content).blocks[0].content).text) == "quoted");
  CHECK(std::holds_alternative<Rule>(b[2].content));
  const auto& t = std::get<Table>(b[3].content);
  REQUIRE(t.header.size() == 2);
  CHECK(plain_text(t.header[1]) == "pairs");
  CHECK(t.align[1] == Table::Align::Right);
  REQUIRE(t.rows.size() == 1);
  CHECK(plain_text(t.rows[0][1]) == "10⁶");
}

TEST_CASE("a check has a question, options with feedback, the correct ones and a hint") {
  const auto r =
      parse(doc("```check\n"
                "id: first-product\n"
                "question: Which two vectors meet **first**?\n"
                "hint: Think of a search box.\n"
                "options:\n"
                "  - text: A's query and B's key\n"
                "    correct: yes\n"
                "    feedback: Right, the score is $q \\cdot k$.\n"
                "  - text: A's value and B's value\n"
                "    feedback: Values are mixed only after the scores\n"
                "      are known.\n"
                "```\n"));
  const auto c = only<Check>(r);
  CHECK(r.lesson.sections[0].blocks[0].id == "first-product");
  CHECK(plain_text(c.question) == "Which two vectors meet first?");
  CHECK(c.question[1].bold);
  CHECK_FALSE(c.multiple);
  REQUIRE(c.options.size() == 2);
  CHECK(c.options[0].correct);
  CHECK_FALSE(c.options[1].correct);
  CHECK(plain_text(c.options[0].feedback) == "Right, the score is q·k.");
  CHECK(plain_text(c.options[1].feedback) == "Values are mixed only after the scores are known.");
  CHECK(plain_text(c.hint) == "Think of a search box.");
}

TEST_CASE("a multiple-answer check accepts several correct options") {
  const auto c =
      only<Check>(parse(doc("```check\nid: many\nquestion: Pick two.\nanswer: multiple\noptions:\n"
                            "  - text: a\n    correct: yes\n    feedback: yes\n"
                            "  - text: b\n    correct: yes\n    feedback: yes\n"
                            "  - text: c\n    feedback: no\n```\n")));
  CHECK(c.multiple);
  CHECK(grade(c, {0, 1}).correct);
  const CheckGrade g = grade(c, {0, 2});
  CHECK_FALSE(g.correct);
  CHECK(g.wrong == std::vector<int>{2});
  CHECK(g.missed == std::vector<int>{1});
}

TEST_CASE("a spotlight names its sentence, query word and alternative sentences") {
  const auto r =
      parse(doc("```spotlight\n"
                "sentence: The animal didn't cross the street because it was too tired.\n"
                "query: it\n"
                "alternatives:\n"
                "  - The animal didn't cross the street because it was too wide.\n"
                "caption: Thicker beams, more attention.\n"
                "```\n"));
  const auto w = only<WidgetBlock>(r);
  CHECK(w.kind == "spotlight");
  CHECK(plain_text(w.caption) == "Thicker beams, more attention.");
  const auto& s = settings_of<neuralpath::widgets::SpotlightSettings>(w);
  CHECK(s.sentence == "The animal didn't cross the street because it was too tired.");
  CHECK(s.query == "it");
  REQUIRE(s.alternatives.size() == 1);
  CHECK(s.alternatives[0] == "The animal didn't cross the street because it was too wide.");
  REQUIRE(r.sentences.size() == 2);
  CHECK(r.sentences[0].widget == "spotlight");
  CHECK(r.sentences[0].query == "it");
  CHECK(r.sentences[1].query == "it");  // the checker looks for the query in each alternative too
}

TEST_CASE("a heatmap has a sentence, a mask switch and an optional BERT switch") {
  using neuralpath::widgets::HeatmapSettings;
  const auto r = parse(doc("```heatmap\nsentence: The cat sat down\nmask: causal\nbert: yes\n```\n"));
  const auto& h = settings_of<HeatmapSettings>(only<WidgetBlock>(r));
  CHECK(h.sentence == "The cat sat down");
  CHECK(h.causal);
  CHECK(h.bert_switch);
  REQUIRE(r.sentences.size() == 1);
  CHECK(r.sentences[0].widget == "heatmap");
  const auto& open = settings_of<HeatmapSettings>(
      only<WidgetBlock>(parse(doc("```heatmap\nsentence: The cat sat down\nmask: none\n```\n"))));
  CHECK_FALSE(open.causal);
  CHECK_FALSE(open.bert_switch);
}

TEST_CASE("mask-steps lists its stages, all four by default") {
  using neuralpath::widgets::MaskStage;
  using neuralpath::widgets::MaskStepsSettings;
  const auto& all =
      settings_of<MaskStepsSettings>(only<WidgetBlock>(parse(doc("```mask-steps\nsentence: The cat sat down\n```\n"))));
  CHECK(all.stages.size() == 4);
  CHECK(all.causal);
  const auto& two = settings_of<MaskStepsSettings>(only<WidgetBlock>(
      parse(doc("```mask-steps\nsentence: The cat sat down\nmask: none\nstages: [masked, softmax]\n```\n"))));
  REQUIRE(two.stages.size() == 2);
  CHECK(two.stages[0] == MaskStage::Masked);
  CHECK(two.stages[1] == MaskStage::Softmax);
  CHECK_FALSE(two.causal);
}

TEST_CASE("a cost explorer has lengths, heads, bytes per score and a tile size") {
  const auto r = parse(doc("```cost-explorer\nlengths: [1000, 100000]\nheads: 8\nbytes: 2\ntile: 128\n```\n"));
  const Block& block = section_blocks(r, 1)[0];
  CHECK(widget_kind_name(block.content) == "cost-explorer");
  const auto* settings = widget_settings<neuralpath::widgets::CostExplorerSettings>(block);
  REQUIRE(settings);
  const auto& c = *settings;
  CHECK(c.lengths == std::vector<std::int64_t>{1000, 100000});
  CHECK(c.heads == 8);
  CHECK(c.bytes_per_score == 2);
  CHECK(c.tile == 128);
}

TEST_CASE("a playback names its sentence, heads, steps and the code that follows it") {
  const auto r = parse(doc(
      "```playback\nsentence: AI Agents Build Future\nheads: 2\nsteps: [tokens, scores, softmax]\ncode: sdpa\n```\n\n"
      "```code\nid: sdpa\nlanguage: python\nfile: sdpa.py\nhighlight: 2\nsteps:\n  scores: 2\n  softmax: 3-4\n---\n"
      "def f(q, k):\n    s = q @ k.T  # scores\n    w = s.softmax(-1)\n    return w\n```\n"));
  const auto& b = section_blocks(r, 2);
  REQUIRE(widget_settings<neuralpath::widgets::PlaybackSettings>(b[0]));
  const auto& p = *widget_settings<neuralpath::widgets::PlaybackSettings>(b[0]);
  CHECK(p.sentence == "AI Agents Build Future");
  CHECK(p.heads == 2);
  CHECK(p.steps == std::vector<std::string>{"tokens", "scores", "softmax"});
  CHECK(p.code == "sdpa");
  const auto& c = std::get<CodeBlock>(b[1].content);
  CHECK(c.language == "python");
  CHECK(c.file == "sdpa.py");
  REQUIRE(c.lines.size() == 4);
  CHECK(c.lines[1].text == "    s = q @ k.T  # scores");
  CHECK(c.highlight == std::vector<int>{2});
  REQUIRE(c.steps.size() == 2);
  CHECK(c.steps[1].step == "softmax");
  CHECK(c.steps[1].lines == std::vector<int>{3, 4});
}

TEST_CASE("code lines carry highlighting tokens that cover the whole line") {
  const auto c = only<CodeBlock>(parse(doc("```code\nlanguage: python\n---\nreturn x + 1  # done\n```\n")));
  REQUIRE(c.lines.size() == 1);
  const auto& toks = c.lines[0].tokens;
  REQUIRE_FALSE(toks.empty());
  CHECK(toks.front().kind == CodeToken::Kind::Keyword);
  CHECK(toks.front().begin == 0);
  CHECK(toks.back().kind == CodeToken::Kind::Comment);
  CHECK(toks.back().end == static_cast<int>(c.lines[0].text.size()));
  for (std::size_t i = 1; i < toks.size(); ++i) CHECK(toks[i].begin == toks[i - 1].end);
}

TEST_CASE("an equation block becomes a tree with a caption") {
  const auto e = only<EquationBlock>(
      parse(doc("```equation\ncaption: The whole recipe.\n---\n"
                "\\text{Attention}(Q, K, V) = \\text{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V\n```\n")));
  CHECK(plain_text(e.caption) == "The whole recipe.");
  CHECK(e.root.plain() == "Attention(Q,K,V) = softmax(QKᵀ / √d_k)V");
}

TEST_CASE("an equation block without settings is all LaTeX") {
  const auto e = only<EquationBlock>(parse(doc("```equation\ne^{-\\infty} = 0\n```\n")));
  CHECK(e.latex == "e^{-\\infty} = 0");
  CHECK(e.root.plain() == "e^(−∞) = 0");
}

TEST_CASE("callouts hold Markdown, including nested blocks, under a tip or mistake title") {
  const auto r =
      parse(doc("````callout\nkind: mistake\ntitle: Masking **after** softmax\n---\n"
                "Rows stop summing to 1.\n\n```equation\n\\sum_j w_{ij} = 1\n```\n````\n"));
  const auto c = only<Callout>(r);
  CHECK(c.kind == Callout::Kind::Mistake);
  CHECK(plain_text(c.title) == "Masking after softmax");
  REQUIRE(c.blocks.size() == 2);
  CHECK(std::holds_alternative<Paragraph>(c.blocks[0].content));
  CHECK(std::get<EquationBlock>(c.blocks[1].content).root.plain() == "∑_j w_ij = 1");
}

TEST_CASE("a reveal has an id, a button label and hidden Markdown") {
  const auto r = parse(doc("```reveal\nid: bert\nlabel: What about BERT?\n---\nBERT has **no** mask.\n```\n"));
  const auto v = only<Reveal>(r);
  CHECK(r.lesson.sections[0].blocks[0].id == "bert");
  CHECK(plain_text(v.label) == "What about BERT?");
  REQUIRE(v.blocks.size() == 1);
  CHECK(plain_text(std::get<Paragraph>(v.blocks[0].content).text) == "BERT has no mask.");
}

TEST_CASE("vocabulary and weights blocks fill the lesson's model data, dense or sparse") {
  const auto r =
      parse(doc("```vocabulary\nfeatures: [animate, place]\nwords:\n  animal: [1, 0]\n  street:\n    place: 1\n  "
                "\".\": [0]\n```\n\n"
                "```weights\npositions: off\ncontext:\n  - label: reads\n    W_Q:\n      animate -> place: 2\n"
                "attention:\n  heads: 2\n  W_K:\n    - [1, 0]\n    - [0, 1]\nfeed-forward: off\ntemperature: "
                "0.5\nseed: 7\n```\n"));
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  CHECK(r.lesson.sections[0].blocks.empty());  // data, not drawn in the flow
  REQUIRE(r.lesson.vocabulary);
  const auto& v = *r.lesson.vocabulary;
  CHECK(v.features == std::vector<std::string>{"animate", "place"});
  REQUIRE(v.words.size() == 3);
  CHECK(v.words[1].word == "street");
  CHECK(v.words[1].values == std::vector<float>{0, 1});
  CHECK(v.words[2].word == ".");
  CHECK(v.words[2].values == std::vector<float>{0, 0});
  REQUIRE(r.lesson.weights);
  const auto& w = *r.lesson.weights;
  CHECK_FALSE(w.positions);
  REQUIRE(w.context.size() == 1);
  CHECK(w.context[0].label == "reads");
  REQUIRE(w.context[0].find("W_Q"));
  CHECK(w.context[0].find("W_Q")->rows == Grid{{0, 2}, {0, 0}});
  CHECK(w.attention.heads == 2);
  CHECK(w.attention.find("W_K")->rows == Grid{{1, 0}, {0, 1}});
  CHECK(w.attention.find("W_Q") == nullptr);
  CHECK_FALSE(w.feed_forward);
  CHECK(w.temperature == doctest::Approx(0.5));
  CHECK(w.seed == 7u);
}

TEST_CASE("settings accept quotes, inline lists, literal blocks and comments") {
  const auto c =
      only<CodeBlock>(parse(doc("```code\n# a comment\nlanguage: \"python\"\nfile: \"a: b.py\"\n---\nx = 1\n```\n")));
  CHECK(c.language == "python");
  CHECK(c.file == "a: b.py");
}

TEST_CASE("content before the first section is the lesson's intro") {
  const auto r = parse(kHead.substr(0, kHead.find("## ")) + "Welcome.\n\n## Beginner: A\n\nText.\n");
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  REQUIRE(r.lesson.intro.size() == 1);
  CHECK(plain_text(std::get<Paragraph>(r.lesson.intro[0].content).text) == "Welcome.");
}

TEST_CASE("block positions point at the fence's kind word") {
  const std::string text = doc("Para.\n\n```heatmap\nsentence: The cat\n```\n");
  const auto r = parse(text);
  REQUIRE_MESSAGE(r.diagnostics.empty(), all_messages(r));
  CHECK(r.lesson.sections[0].blocks[1].pos == pos_of(text, "heatmap"));
  CHECK(r.lesson.sections[0].blocks[0].pos == pos_of(text, "Para."));
}
