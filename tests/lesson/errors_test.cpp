// errors_test.cpp: every kind of authoring mistake is reported at its own line and column,
// as "file:line:col: error: message", and nothing an author writes can crash the parser.
#include "helpers.h"

#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/widgets/widget_kinds.h"

#include <random>

using namespace lesson_test;

namespace {

// The one diagnostic a broken text produces.
Diagnostic single(const ParseResult& r) {
  REQUIRE_MESSAGE(r.diagnostics.size() == 1, all_messages(r));
  return r.diagnostics[0];
}

Diagnostic single(const LoadResult& r) {
  REQUIRE_MESSAGE(r.diagnostics.size() == 1, format_diagnostics(r.diagnostics));
  return r.diagnostics[0];
}

const char* const kVocabulary =
    "```vocabulary\nfeatures: [animate]\nwords:\n  the: [0]\n  cat: [1]\n  sat: [0]\n  it: [0]\n```\n\n";

}  // namespace

TEST_CASE("a diagnostic prints as file:line:col: error: message") {
  const std::string text = doc("```foo\nx: 1\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == SourcePos{9, 4});
  CHECK(d.to_string().rfind("test.md:9:4: error: unknown block 'foo'", 0) == 0);
}

TEST_CASE("an unknown block kind is reported at the kind word") {
  const std::string text = doc("Text.\n\n  ```quiz\n  question: x\n  ```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == pos_of(text, "quiz"));
  CHECK(d.message.find("unknown block 'quiz'") != std::string::npos);
}

TEST_CASE("a fence without a kind is an error, not silent code") {
  const std::string text = doc("```\nprint(1)\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == SourcePos{9, 1});
  CHECK(d.message.find("needs a kind") != std::string::npos);
}

TEST_CASE("a missing required field is reported at the block") {
  const std::string text = doc("```heatmap\nmask: causal\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == pos_of(text, "heatmap"));
  CHECK(d.message == "the heatmap block needs 'sentence:'");
}

TEST_CASE("an unknown key is reported at the key, with the keys that exist") {
  const std::string text = doc("```heatmap\nsentence: The cat\ncolour: red\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == pos_of(text, "colour"));
  CHECK(d.message.find("unknown key 'colour' in a heatmap block (known: id, sentence, mask, bert, caption)") == 0);
}

TEST_CASE("a bad equation is reported at the offending character") {
  SUBCASE("unknown command in an equation block") {
    const std::string text = doc("```equation\n\\frac{a}{b} + \\foo{x}\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "\\foo"));
    CHECK(d.message.find("unknown command '\\foo'") == 0);
  }
  SUBCASE("an unclosed brace on the second line of an equation") {
    const std::string text = doc("```equation\na = b\n  + \\sqrt{c\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "{c"));
    CHECK(d.message == "'{' is never closed with '}'");
  }
  SUBCASE("inline maths in prose") {
    const std::string text = doc("The score is $q \\cdot k_{1$ here.\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "{1"));
  }
  SUBCASE("inline maths inside a check's feedback") {
    const std::string text =
        doc("```check\nid: c\nquestion: Q?\noptions:\n  - text: a\n    correct: yes\n"
            "    feedback: see $\\frac{1}$\n  - text: b\n    feedback: no\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "\\frac{1}"));
    CHECK(d.message.find("\\frac (denominator) needs an argument") == 0);
  }
  SUBCASE("\\left without \\right") {
    const std::string text = doc("```equation\n\\left( x\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.message == "\\left has no matching \\right");
  }
  SUBCASE("a double subscript") {
    const std::string text = doc("```equation\nx_1_2\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "_2"));
  }
}

TEST_CASE("a check with no correct option is reported at its options") {
  const std::string text =
      doc("```check\nid: c\nquestion: Why?\noptions:\n  - text: a\n    feedback: no\n"
          "  - text: b\n    feedback: no\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == pos_of(text, "options"));
  CHECK(d.message.find("no correct option") != std::string::npos);
}

TEST_CASE("a single-answer check with two correct options is an error") {
  const std::string text =
      doc("```check\nid: c\nquestion: Why?\noptions:\n  - text: a\n    correct: yes\n    feedback: y\n"
          "  - text: b\n    correct: yes\n    feedback: y\n```\n");
  CHECK(single(parse(text)).message.find("add 'answer: multiple'") != std::string::npos);
}

TEST_CASE("every option needs feedback, and every check an id") {
  const std::string text =
      doc("```check\nquestion: Why?\noptions:\n  - text: a\n    correct: yes\n    feedback: y\n"
          "  - text: b\n```\n");
  const auto r = parse(text);
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].pos == pos_of(text, "check"));
  CHECK(r.diagnostics[0].message.find("needs 'id:'") != std::string::npos);
  CHECK(r.diagnostics[1].pos == pos_of(text, "text: b"));
  CHECK(r.diagnostics[1].message == "the option block needs 'feedback:'");
}

TEST_CASE("an unknown word in a widget's sentence is reported at the word") {
  const std::string text = doc(std::string(kVocabulary) + "```heatmap\nsentence: The cat sat on it\n```\n");
  const Diagnostic d = single(load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets()));
  CHECK(d.pos == pos_of(text, "on it"));
  CHECK(d.message.find("'on' is not in the lesson's vocabulary") == 0);
}

TEST_CASE("a text the site's build already checked skips the engine's checks, never the format's") {
  // The page passes engine_checks = false only for a text whose SHA-256 the build listed after
  // running these very checks on it (np-app.js); what the engine's checks find is then not
  // looked for again, while a format error is still found.
  const std::string sentence = doc(std::string(kVocabulary) + "```heatmap\nsentence: The cat sat on it\n```\n");
  LoadOptions checked_by_build = neuralpath::widgets::with_widgets();
  checked_by_build.engine_checks = false;
  CHECK_FALSE(load_lesson_text(sentence, "test.md", neuralpath::widgets::with_widgets()).ok());
  CHECK(load_lesson_text(sentence, "test.md", checked_by_build).ok());

  const std::string format = doc(std::string(kVocabulary) + "```heatmap\nsentence: The cat sat\ncolour: blue\n```\n");
  const LoadResult broken = load_lesson_text(format, "test.md", checked_by_build);
  REQUIRE_FALSE(broken.ok());
  CHECK(broken.diagnostics[0].pos.line > 0);
}

TEST_CASE("an unknown word in a quoted alternative sentence keeps its exact column") {
  const std::string text = doc(std::string(kVocabulary) +
                               "```spotlight\nsentence: The cat sat\nquery: sat\nalternatives:\n"
                               "  - \"The dog sat\"\n```\n");
  const Diagnostic d = single(load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets()));
  CHECK(d.pos == pos_of(text, "dog"));
}

TEST_CASE("a spotlight query that is not in its sentence is an error") {
  const std::string text = doc(std::string(kVocabulary) + "```spotlight\nsentence: The cat sat\nquery: it\n```\n");
  const Diagnostic d = single(load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets()));
  CHECK(d.pos == pos_of(text, "The cat sat"));
  CHECK(d.message == "the query word 'it' does not occur in this sentence");
}

TEST_CASE("a playback step the model does not have is reported at the playback") {
  // No weights block: no context layers, so there is no "context" step to play.
  const std::string text =
      doc(std::string(kVocabulary) + "```playback\nsentence: The cat sat\nsteps: [tokens, context]\n```\n");
  const Diagnostic d = single(load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets()));
  CHECK(d.pos == pos_of(text, "playback"));
  CHECK(d.message == "the playback step 'context' has nothing to show: this model has no such step");
}

TEST_CASE("bad settings of the folder widget kinds are reported at the value") {
  struct Case {
    const char* block;
    const char* needle;
    const char* message;
  };
  for (const Case& c :
       {Case{"```heatmap\nsentence: The cat sat\nmask: sideways\n```\n", "sideways",
             "'mask' should be causal or none, not 'sideways'"},
        Case{"```heatmap\nsentence: The cat sat\nbert: maybe\n```\n", "maybe",
             "'bert' should be yes or no, not 'maybe'"},
        Case{"```mask-steps\nsentence: The cat sat\nstages: [raw, cooked]\n```\n", "cooked",
             "a stage is raw, scaled, masked or softmax"},
        Case{"```spotlight\nsentence: The cat sat\nquery: cat\nalternatives:\n  - a: b\n```\n", "a: b",
             "each alternative is one sentence"},
        Case{"```mask-steps\nmask: none\n```\n", "mask-steps", "the mask-steps block needs 'sentence:'"}}) {
    CAPTURE(c.block);
    const std::string text = doc(std::string(kVocabulary) + c.block);
    const Diagnostic d = single(load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets()));
    CHECK(d.pos == pos_of(text, c.needle));
    CHECK(d.message == c.message);
  }
}

TEST_CASE("a folder widget kind's own engine check reports at its block, with the lesson's resolved model") {
  // WidgetSettings::check is how a kind (the playback, once it moves to the registry) reports
  // what only the engine knows; the checker calls it for every widget block, nested too.
  struct HeadsSettings : WidgetSettings {
    int heads = 1;
    void check(const Lesson&, const neuralpath::ModelSpec& resolved, SourcePos at, const Report& error) const override {
      if (resolved.d_model % heads != 0)
        error(at, std::to_string(heads) + " heads do not divide d_model " + std::to_string(resolved.d_model));
    }
  };
  Lesson lesson;
  lesson.file = "test.md";
  const int d_model = neuralpath::resolve_model(model_spec_for(lesson)).d_model;  // the default model's
  auto heads = std::make_shared<HeadsSettings>();
  heads->heads = d_model + 1;  // never divides d_model
  Section section;
  Callout callout;
  callout.blocks.push_back({SourcePos{12, 1}, "", WidgetBlock{"heads", heads, {}}});
  section.blocks.push_back({SourcePos{10, 1}, "", std::move(callout)});
  lesson.sections.push_back(std::move(section));

  const std::vector<Diagnostic> found = check_with_engine(lesson, {});
  REQUIRE(found.size() == 1);
  CHECK(found[0].pos == SourcePos{12, 1});
  CHECK(found[0].message == std::to_string(d_model + 1) + " heads do not divide d_model " + std::to_string(d_model));
}

TEST_CASE("a duplicate id is reported at the second use") {
  const std::string text =
      doc("```reveal\nid: twin\nlabel: a\n---\nx\n```\n\n```reveal\nid: twin\nlabel: b\n---\ny\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == pos_of(text, "twin", 2));
  CHECK(d.message == "id 'twin' is already used on line 10");
}

TEST_CASE("a playback's code reference must name a code block") {
  const std::string text = doc("```playback\nsentence: x\ncode: nowhere\n```\n");
  const Diagnostic d = single(parse(text));
  CHECK(d.pos == pos_of(text, "nowhere"));
  CHECK(d.message == "no block has the id 'nowhere'");
}

TEST_CASE("code step lines must exist and name known steps") {
  const std::string text =
      doc("```code\nlanguage: python\nsteps:\n  scores: 1\n  sorting: 1\n  softmax: 5\n---\nx = 1\n```\n");
  const auto r = parse(text);
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].pos == pos_of(text, "sorting"));
  CHECK(r.diagnostics[0].message == "unknown playback step 'sorting'");
  CHECK(r.diagnostics[1].pos == pos_of(text, "5\n"));
  CHECK(r.diagnostics[1].message == "line 5 is outside the code (it has 1 lines)");
}

TEST_CASE("settings syntax errors point at the line and column") {
  SUBCASE("a line that is not key: value") {
    const std::string text = doc("```heatmap\nsentence: The cat\njust words\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "just words"));
    CHECK(d.message == "expected 'key: value'");
  }
  SUBCASE("an unclosed quote") {
    const std::string text = doc("```heatmap\nsentence: \"The cat\n```\n");
    const auto r = parse(text);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].pos == pos_of(text, "\"The"));
    CHECK(r.diagnostics[0].message == "this quote is never closed");
  }
  SUBCASE("a value in single quotes, which the page would show") {
    const std::string text = doc("```heatmap\nsentence: 'The cat sat.'\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "'The"));
    CHECK(d.message == "single quotes would be shown as written: leave them out, or use double quotes");
    CHECK(parse(doc("```heatmap\nsentence: The cat's toy.\n```\n")).diagnostics.empty());  // an apostrophe is text
  }
  SUBCASE("a tab used for indentation") {
    // (Inside fenced blocks md4c already expands tabs; front matter is read as written.)
    const std::string text = "---\nid: x\n\ttitle: T\nlevel: Beginner\nsummary: s\n---\n## A\n\nt\n";
    const auto r = parse(text);
    bool found = false;
    for (const auto& d : r.diagnostics)
      if (d.message == "use spaces, not tabs, to indent settings") {
        found = true;
        CHECK(d.pos == pos_of(text, "\t"));
      }
    CHECK_MESSAGE(found, all_messages(r));
  }
  SUBCASE("a key given twice") {
    const std::string text = doc("```heatmap\nsentence: a\nsentence: b\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "sentence", 2));
    CHECK(d.message == "'sentence' is given twice");
  }
  SUBCASE("a value of the wrong shape") {
    const std::string text = doc("```cost-explorer\nlengths: 1000\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "1000"));
    CHECK(d.message == "'lengths' should be a list, not a text");
  }
  SUBCASE("a flag that is neither yes nor no") {
    const std::string text = doc("```heatmap\nsentence: a\nbert: maybe\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "maybe"));
  }
}

TEST_CASE("front matter problems are reported where they are") {
  SUBCASE("no front matter") {
    const Diagnostic d = single(parse("## Beginner: A\n\nText.\n"));
    CHECK(d.pos == SourcePos{1, 1});
    CHECK(d.message.find("a lesson starts with front matter") == 0);
  }
  SUBCASE("a level that does not exist") {
    const std::string text = "---\nid: x\ntitle: T\nlevel: Expert\nsummary: s\n---\n## A\n\nt\n";
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == SourcePos{4, 8});
    CHECK(d.message == "level is Beginner, Medium or Advanced, not 'Expert'");
  }
  SUBCASE("a missing summary") {
    const std::string text = "---\nid: x\ntitle: T\nlevel: Beginner\n---\n## A\n\nt\n";
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == SourcePos{1, 1});
    CHECK(d.message == "the front matter block needs 'summary:'");
  }
  SUBCASE("an id that cannot be part of a URL") {
    const std::string text = "---\nid: My Lesson\ntitle: T\nlevel: Beginner\nsummary: s\n---\n## A\n\nt\n";
    CHECK(single(parse(text)).pos == SourcePos{2, 5});
  }
}

TEST_CASE("structure problems: a # heading, an image, no sections, duplicate anchors") {
  SUBCASE("a level-1 heading") {
    const std::string text = doc("# Big title\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "Big title"));
  }
  SUBCASE("an image") {
    CHECK(single(parse(doc("See ![a figure](fig.png).\n"))).message.find("images are not supported") == 0);
  }
  SUBCASE("no sections") {
    const std::string text = kHead.substr(0, kHead.find("## ")) + "Only an intro.\n";
    CHECK(single(parse(text)).message.find("no sections") != std::string::npos);
  }
  SUBCASE("two sections with the same anchor") {
    const std::string text = doc("a\n\n## Medium: First steps\n\nb\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "Medium"));
  }
}

TEST_CASE("model data problems point at the number, word or matrix") {
  SUBCASE("a word with more numbers than features") {
    const std::string text = doc("```vocabulary\nfeatures: [a, b]\nwords:\n  cat: [1, 0, 1]\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "[1, 0, 1]"));
  }
  SUBCASE("an upper-case vocabulary word") {
    const std::string text = doc("```vocabulary\nfeatures: [a]\nwords:\n  Cat: [1]\n```\n");
    CHECK(single(parse(text)).pos == pos_of(text, "Cat"));
  }
  SUBCASE("a number that is not a number") {
    const std::string text = doc("```vocabulary\nfeatures: [a, b]\nwords:\n  cat: [1, x2]\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "x2"));
    CHECK(d.message == "'x2' is not a number");
  }
  SUBCASE("a sparse entry naming no feature") {
    const std::string text =
        doc("```vocabulary\nfeatures: [a, b]\nwords:\n  cat: [1]\n```\n\n"
            "```weights\nattention:\n  W_Q:\n    a -> zz: 1\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, " zz"));
    CHECK(d.message.find("'zz' is not a feature") == 0);
  }
  SUBCASE("a dense matrix of the wrong size") {
    const std::string text =
        doc("```vocabulary\nfeatures: [a, b]\nwords:\n  cat: [1]\n```\n\n"
            "```weights\nattention:\n  W_K:\n    - [1, 0]\n    - [0, 1, 2]\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "[0, 1, 2]"));
    CHECK(d.message == "W_K must be 2×2: this row has 3 numbers");
  }
  SUBCASE("heads that do not divide d_model") {
    const std::string text =
        doc("```vocabulary\nfeatures: [a, b, c]\nwords:\n  cat: [1]\n```\n\n"
            "```weights\nattention:\n  heads: 2\n```\n");
    const Diagnostic d = single(parse(text));
    CHECK(d.pos == pos_of(text, "2\n```\n"));
  }
  SUBCASE("a vocabulary word the tokenizer would split") {
    const std::string text = doc("```vocabulary\nfeatures: [a]\nwords:\n  \"ice cream\": [1]\n```\n");
    const Diagnostic d = single(load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets()));
    CHECK(d.pos == pos_of(text, "ice cream"));
  }
}

TEST_CASE("a missing file is a diagnostic without a position") {
  const auto diags = check_lesson_file("no/such/lesson.md", neuralpath::widgets::block_parsers());
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].to_string() == "no/such/lesson.md: error: cannot open the file (No such file or directory)");
}

TEST_CASE("damaged lessons give diagnostics, never a crash") {
  // Every prefix and many random byte edits of a lesson that uses every block.
  const std::string good =
      doc(std::string(kVocabulary) +
          "Some **bold** and $\\frac{a}{b}$.\n\n"
          "```check\nid: c\nquestion: q\noptions:\n  - text: a\n    correct: yes\n    feedback: f\n"
          "  - text: b\n    feedback: g\n```\n\n"
          "````callout\nkind: tip\n---\nText with `code`.\n\n```equation\nx^2\n```\n````\n\n"
          "```heatmap\nsentence: The cat sat\nbert: yes\n```\n\n"
          "```code\nid: k\nlanguage: python\nsteps:\n  scores: 1\n---\ns = q @ k\n```\n\n"
          "```playback\nsentence: The cat\ncode: k\n```\n\n"
          "| a | b |\n|---|---|\n| 1 | 2 |\n");
  REQUIRE_MESSAGE(
      load_lesson_text(good, "good.md", neuralpath::widgets::with_widgets()).ok(),
      format_diagnostics(load_lesson_text(good, "good.md", neuralpath::widgets::with_widgets()).diagnostics));
  for (std::size_t n = 0; n <= good.size(); n += 3)
    (void)load_lesson_text(good.substr(0, n), "cut.md", neuralpath::widgets::with_widgets());
  std::mt19937 rng(1234);
  const char alphabet[] = "`$\\{}[]-:#\n \t\"|*_>0123456789abc";
  for (int round = 0; round < 300; ++round) {
    std::string bad = good;
    for (int edit = 0; edit < 4; ++edit) {
      const std::size_t at = rng() % bad.size();
      bad[at] = alphabet[rng() % (sizeof alphabet - 1)];
    }
    const LoadResult r = load_lesson_text(bad, "bad.md", neuralpath::widgets::with_widgets());
    CHECK((r.ok() || !r.diagnostics.empty()));
  }
}
