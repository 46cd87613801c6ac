// The lesson as plain data for the DOM mirror: what a screen reader user reads instead of the
// canvas must say the same as the canvas, and must not give away the answers.
#include "engine/ui/document_export.h"

#include "engine/lesson/parser.h"
#include "engine/ui/app.h"
#include "engine/widgets/heatmap/heatmap_settings.h"
#include "engine/widgets/spotlight/spotlight_settings.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

using nlohmann::json;
namespace ls = neuralpath::lesson;
namespace ui = neuralpath::ui;
namespace widgets = neuralpath::widgets;
using neuralpath::ui::document_json;

namespace {

ls::Span text(std::string s, bool bold = false, bool italic = false) {
  ls::Span span;
  span.text = std::move(s);
  span.bold = bold;
  span.italic = italic;
  return span;
}

ls::Span code(std::string s) {
  ls::Span span = text(std::move(s));
  span.kind = ls::Span::Kind::Code;
  return span;
}

ls::Span math(std::string latex) {
  ls::Span span;
  span.kind = ls::Span::Kind::Math;
  span.text = latex;
  span.math = *ls::parse_equation(latex).root;
  return span;
}

ls::Block block(ls::BlockContent content, std::string id = {}) {
  ls::Block b;
  b.id = std::move(id);
  b.content = std::move(content);
  return b;
}

ls::Check two_option_check() {
  ls::Check check;
  check.question = {text("Which word does "), code("it"), text(" attend to most?")};
  ls::CheckOption animal{{text("animal")}, true, {text("Yes: the animal was tired.")}};
  ls::CheckOption street{{text("street")}, false, {text("Streets do not get tired.")}};
  check.options = {animal, street};
  check.hint = {text("Who can be "), text("tired", false, true), text("?")};
  return check;
}

// A small lesson with one block of every kind the mirror shows.
ls::Lesson sample_lesson() {
  ls::Lesson lesson;
  lesson.id = "sample";
  lesson.title = "Self-attention";
  lesson.level = ls::Level::Beginner;
  lesson.summary = "How a word looks at the others.";
  lesson.intro.push_back(block(ls::Paragraph{{text("Welcome.")}}));

  ls::Section first;
  first.title = "Words look at words";
  first.anchor = "words";
  first.level = ls::Level::Beginner;
  first.blocks.push_back(
      block(ls::Paragraph{{text("Attention is "), text("a weighted ", true), text("average", true), text(" of "),
                           text("values", false, true), text(", "), math("\\frac{QK^\\top}{\\sqrt{d_k}}")}}));
  first.blocks.push_back(block(ls::Heading{2, {text("In one line")}}));
  ls::EquationBlock eq;
  eq.latex = "\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V";
  eq.root = *ls::parse_equation(eq.latex).root;
  eq.caption = {text("The whole layer.")};
  first.blocks.push_back(block(eq));
  auto spot = std::make_shared<widgets::SpotlightSettings>();
  spot->sentence = "The animal didn't cross the street because it was too tired.";
  spot->query = "it";
  first.blocks.push_back(block(ls::WidgetBlock{"spotlight", spot, {text("Where ‘it’ looks.")}}, "spot"));

  ls::Section second;
  second.title = "Check yourself";
  second.anchor = "check";
  second.level = ls::Level::Medium;
  second.blocks.push_back(block(two_option_check(), "q1"));
  ls::Reveal reveal;
  reveal.label = {text("Show the maths")};
  reveal.blocks.push_back(block(ls::Paragraph{{text("Divide by the root of d.")}}));
  second.blocks.push_back(block(reveal, "why"));
  ls::Callout callout;
  callout.kind = ls::Callout::Kind::Mistake;
  callout.title = {text("Rows, not columns")};
  callout.blocks.push_back(block(ls::Paragraph{{text("Each row sums to one.")}}));
  second.blocks.push_back(block(callout));
  ls::CodeBlock snippet;
  snippet.language = "python";
  snippet.lines = {{"w = softmax(s)", {}}, {"o = w @ v", {}}};
  second.blocks.push_back(block(snippet));
  ls::ListBlock list;
  list.items = {{block(ls::Paragraph{{text("one")}})}, {block(ls::Paragraph{{text("two")}})}};
  second.blocks.push_back(block(list));
  auto heatmap = std::make_shared<widgets::HeatmapSettings>();
  heatmap->sentence = "the cat sat";
  heatmap->bert_switch = true;
  second.blocks.push_back(block(ls::WidgetBlock{"heatmap", heatmap, {}}));

  lesson.sections = {first, second};
  return lesson;
}

}  // namespace

TEST_CASE("the document names the lesson and lists its sections with anchors, titles and levels") {
  const json doc = document_json(sample_lesson());
  CHECK(doc["lesson"] == "sample");
  CHECK(doc["title"] == "Self-attention");
  CHECK(doc["level"] == "Beginner");
  CHECK(doc["summary"] == "How a word looks at the others.");
  REQUIRE(doc["intro"].size() == 1);
  CHECK(doc["intro"][0]["text"] == "Welcome.");
  REQUIRE(doc["sections"].size() == 2);
  CHECK(doc["sections"][0]["anchor"] == "words");
  CHECK(doc["sections"][0]["title"] == "Words look at words");
  CHECK(doc["sections"][1]["level"] == "Medium");
}

TEST_CASE("prose keeps bold, italic, code and maths as inline runs and reads as plain text") {
  const json p = document_json(sample_lesson())["sections"][0]["blocks"][0];
  CHECK(p["kind"] == "paragraph");
  const json& runs = p["runs"];
  REQUIRE(runs.size() == 6);
  CHECK(runs[0] == json{{"text", "Attention is "}});
  SUBCASE("adjacent runs with the same style merge") {
    CHECK(runs[1] == json{{"text", "a weighted average"}, {"bold", true}});
  }
  CHECK(runs[3] == json{{"text", "values"}, {"italic", true}});
  CHECK(runs[5]["math"] == true);
  // Maths reads as the equation's linear form (EqNode::plain), never as LaTeX source.
  const std::string formula = ls::parse_equation("\\frac{QK^\\top}{\\sqrt{d_k}}").root->plain();
  CHECK(runs[5]["text"] == formula);
  CHECK(formula.find('\\') == std::string::npos);
  CHECK(formula.find("√d_k") != std::string::npos);
  CHECK(p["text"] == "Attention is a weighted average of values, " + formula);
}

TEST_CASE("headings inside a section sit below the section's own heading level") {
  const json h = document_json(sample_lesson())["sections"][0]["blocks"][1];
  CHECK(h["kind"] == "heading");
  CHECK(h["level"] == 3);
  CHECK(h["text"] == "In one line");
}

TEST_CASE("equations read as linear text, with their LaTeX and caption alongside") {
  const json eq = document_json(sample_lesson())["sections"][0]["blocks"][2];
  CHECK(eq["kind"] == "equation");
  const std::string linear = ls::parse_equation(eq["latex"].get<std::string>()).root->plain();
  CHECK(eq["text"] == linear);
  CHECK(linear.rfind("softmax(", 0) == 0);
  CHECK(linear.find('\\') == std::string::npos);
  CHECK(eq["latex"] == "\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V");
  CHECK(eq["caption"] == "The whole layer.");
}

TEST_CASE("a knowledge check lists its question, options and hint but never which option is right") {
  const json check = document_json(sample_lesson())["sections"][1]["blocks"][0];
  CHECK(check["kind"] == "check");
  CHECK(check["id"] == "q1");
  CHECK(check["question"] == "Which word does it attend to most?");
  CHECK(check["runs"][1] == json{{"text", "it"}, {"code", true}});
  CHECK(check["multiple"] == false);
  REQUIRE(check["options"].size() == 2);
  CHECK(check["options"][0]["text"] == "animal");
  CHECK(check["options"][1]["text"] == "street");
  CHECK(check["hint"] == "Who can be tired?");
  const std::string dumped = check.dump();
  CHECK(dumped.find("correct") == std::string::npos);
  CHECK(dumped.find("tired.") == std::string::npos);  // per-option feedback stays in the engine
}

TEST_CASE("reveals, callouts, code and lists carry their nested blocks") {
  const json blocks = document_json(sample_lesson())["sections"][1]["blocks"];
  REQUIRE(blocks.size() == 6);
  CHECK(blocks[1]["kind"] == "reveal");
  CHECK(blocks[1]["id"] == "why");
  CHECK(blocks[1]["label"] == "Show the maths");
  CHECK(blocks[1]["blocks"][0]["text"] == "Divide by the root of d.");
  CHECK(blocks[2]["callout"] == "mistake");
  CHECK(blocks[2]["title"] == "Rows, not columns");
  CHECK(blocks[2]["blocks"][0]["text"] == "Each row sums to one.");
  CHECK(blocks[3]["lines"] == json{"w = softmax(s)", "o = w @ v"});
  CHECK(blocks[3]["language"] == "python");
  CHECK(blocks[4]["ordered"] == false);
  REQUIRE(blocks[4]["items"].size() == 2);
  CHECK(blocks[4]["items"][1][0]["text"] == "two");
  CHECK(blocks[4]["text"] == "one\ntwo");
}

TEST_CASE("widgets are numbered in reading order and keep their set-up, with an empty summary") {
  const json doc = document_json(sample_lesson());
  const json spot = doc["sections"][0]["blocks"][3];
  CHECK(spot["kind"] == "widget");
  CHECK(spot["widget"] == "spotlight");
  CHECK(spot["id"] == "spot");
  CHECK(spot["widget_index"] == 0);
  CHECK(spot["query"] == "it");
  CHECK(spot["caption"] == "Where ‘it’ looks.");
  CHECK(spot["summary"] == "");
  const json heat = doc["sections"][1]["blocks"][5];
  CHECK(heat["widget"] == "heatmap");
  CHECK(heat["widget_index"] == 1);
  CHECK(heat["bert_switch"] == true);
  CHECK_FALSE(heat.contains("id"));
}

TEST_CASE("an empty lesson is an empty document, not an error") {
  const json doc = document_json(ls::Lesson{});
  CHECK(doc["sections"].empty());
  CHECK(doc["intro"].empty());
  CHECK(doc["title"] == "");
}

TEST_CASE("a lesson parsed from its text reads in the mirror as it reads in the lesson model") {
  const auto parsed = ls::parse_lesson(
      "---\nid: parsed\ntitle: Parsed\nlevel: Beginner\nsummary: From text.\n---\n"
      "## Beginner: First steps\n\n"
      "Plain **bold** *italic* `code` [link](https://example.org) and $\\sqrt{d_k}$.\n\n"
      "```check\nid: first-product\nquestion: Which two vectors meet **first**?\n"
      "hint: Think of a search box.\noptions:\n"
      "  - text: A's query and B's key\n    correct: yes\n    feedback: Right.\n"
      "  - text: A's value and B's value\n    feedback: Values come later.\n```\n",
      "parsed.md", neuralpath::widgets::block_parsers());
  REQUIRE(parsed.diagnostics.empty());
  const json doc = document_json(parsed.lesson);
  REQUIRE(doc["sections"].size() == 1);
  const json& blocks = doc["sections"][0]["blocks"];
  REQUIRE(blocks.size() == 2);
  const auto& paragraph = std::get<ls::Paragraph>(parsed.lesson.sections[0].blocks[0].content);
  CHECK(blocks[0]["text"] == ls::plain_text(paragraph.text));
  bool linked = false;
  for (const json& run : blocks[0]["runs"]) linked = linked || run.value("link", "") == "https://example.org";
  CHECK(linked);
  CHECK(blocks[1]["id"] == "first-product");
  CHECK(blocks[1]["question"] == "Which two vectors meet first?");
  CHECK(blocks[1]["options"][0]["text"] == "A's query and B's key");
  CHECK(blocks[1]["hint"] == "Think of a search box.");
  CHECK(blocks[1].dump().find("Right.") == std::string::npos);
}

TEST_CASE("the App hands the page the document of the lesson it loaded, or its errors") {
  neuralpath::ui::App app;
  const json empty = json::parse(app.document_json());
  CHECK(empty["sections"].empty());
  app.load_lesson("mini",
                  "---\nid: mini\ntitle: Mini\nlevel: Beginner\nsummary: Small.\n---\n"
                  "## Beginner: Only section\n\nSome *text*.\n");
  const json doc = json::parse(app.document_json());
  CHECK(doc["lesson"] == "mini");
  CHECK(doc["title"] == "Mini");
  REQUIRE(doc["sections"].size() == 1);
  CHECK(doc["sections"][0]["blocks"][0]["text"] == "Some text.");
  CHECK(doc["errors"].empty());

  app.load_lesson("broken", "no front matter at all\n");
  const json broken = json::parse(app.document_json());
  CHECK(broken["lesson"] == "broken");
  CHECK_FALSE(broken["errors"].empty());
}
