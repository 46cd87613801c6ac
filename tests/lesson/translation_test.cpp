// translation_test.cpp: a translated lesson (lessons/<lang>/ID.md) keeps its original's
// structure; each kind of drift is reported at its place in the translation; words are free;
// and `neuralpath-cli check` / `trace --lang` do the same from the command line.
#include "engine/trace/block_trace.h"
#include "engine/text/catalogue.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/parser.h"
#include "engine/lesson/translation.h"
#include "engine/widgets/widget_kinds.h"
#include "../cli/cli_runner.h"  // the real binary, with a timeout guard

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace neuralpath::lesson;

namespace {

const std::string kLessons = NEURALPATH_SOURCE_DIR "/lessons/";

// A small original with one of every kind of block the comparison treats differently.
const std::string kOriginal = R"(---
id: tiny
title: Tiny
level: Beginner
summary: A lesson to translate.
---

Intro.

## Beginner: First steps {#first}

Some words.

```heatmap
id: grid
sentence: The cat sat
mask: causal
bert: yes
caption: The grid.
```

```check
id: q1
question: Which one?
options:
  - text: This one
    correct: yes
    feedback: Right.
  - text: That one
    feedback: No.
```

## Medium: Second {#second}

````callout
kind: note
title: A note
---
Text.

```equation
caption: An equation.
---
e^{-\infty} = 0 \quad\text{always}
```
````

```code
id: snippet
language: python
steps:
  scores: 2
---
x = 1  # one
y = x  # two
```
)";

// The same lesson in Spanish: every word rewritten, the structure untouched.
const std::string kSpanish = R"(---
id: tiny
title: Diminuta
level: Beginner
summary: Una lección para traducir.
---

Introducción.

## Beginner: Primeros pasos {#first}

Unas palabras.

```heatmap
id: grid
sentence: The cat sat
mask: causal
bert: yes
caption: La cuadrícula.
```

```check
id: q1
question: ¿Cuál?
options:
  - text: Esta
    correct: yes
    feedback: Bien.
  - text: Aquella
    feedback: No.
```

## Medium: Segunda {#second}

````callout
kind: note
title: Una nota
---
Texto.

```equation
caption: Una ecuación.
---
e^{-\infty} = 0 \quad\text{siempre}
```
````

```code
id: snippet
language: python
steps:
  scores: 2
---
x = 1  # uno
y = x  # dos
```
)";

std::vector<Diagnostic> drift(const std::string& translated) {
  return check_translation(translated, "es/tiny.md", kOriginal, "tiny.md", neuralpath::widgets::block_parsers());
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "the fixture lacks: " << from);
  return text.replace(at, from.size(), to);
}

std::string listed(const std::vector<Diagnostic>& found) { return format_diagnostics(found); }

// The one diagnostic `translated` gets; fails unless there is exactly one.
Diagnostic only(const std::string& translated) {
  const auto found = drift(translated);
  REQUIRE_MESSAGE(found.size() == 1, listed(found));
  return found.front();
}

}  // namespace

TEST_CASE("the Spanish lessons load and match their originals' structure" * doctest::test_suite("slow")) {
  for (const char* name : {"self-attention.md", "course-playback.md", "multi-head.md", "writing-text.md"}) {
    CAPTURE(name);
    const std::string path = kLessons + "es/" + name;
    const auto place = translation_place(path);
    REQUIRE(place.has_value());
    CHECK(place->language == "es");
    CHECK(std::filesystem::equivalent(place->original_path, kLessons + name));
    const auto found = check_lesson_or_translation_file(path, neuralpath::widgets::block_parsers());
    CHECK_MESSAGE(found.empty(), listed(found));
    const LoadResult es = load_lesson_file(path, neuralpath::widgets::with_widgets());
    const LoadResult en = load_lesson_file(kLessons + name, neuralpath::widgets::with_widgets());
    REQUIRE(es.ok());
    REQUIRE(en.ok());
    CHECK(es.lesson->id == en.lesson->id);
    CHECK(es.lesson->title != en.lesson->title);  // translated, not copied
    CHECK(check_blocks(*es.lesson).size() == check_blocks(*en.lesson).size());
  }
}

TEST_CASE("a faithful translation has no drift, whatever its words") {
  CHECK_MESSAGE(drift(kSpanish).empty(), listed(drift(kSpanish)));
  CHECK(drift(kOriginal).empty());  // an untranslated copy is structurally the same too
}

TEST_CASE("each kind of drift is reported at its place in the translation") {
  SUBCASE("a missing section, at the next section both have") {
    const std::string t =
        replaced(kSpanish, "## Beginner: Primeros pasos {#first}", "## Beginner: Primeros pasos {#primeros}");
    const auto found = drift(t);
    REQUIRE_MESSAGE(found.size() == 2, listed(found));
    CHECK(found[0].pos == SourcePos{10, 4});
    CHECK(found[0].message.find("the section 'primeros' is not in the original") == 0);
    CHECK(found[1].pos.line == 33);  // '## Medium: Segunda'
    CHECK(found[1].message.find("the section 'first' (tiny.md:10) is missing") == 0);
  }
  SUBCASE("an extra section") {
    const std::string t =
        replaced(kSpanish, "## Medium: Segunda", "## Beginner: Extra {#extra}\n\nMás.\n\n## Medium: Segunda");
    const Diagnostic d = only(t);
    CHECK(d.pos == SourcePos{33, 4});
    CHECK(d.message.find("the section 'extra' is not in the original") == 0);
  }
  SUBCASE("a section at another level") {
    const Diagnostic d = only(replaced(kSpanish, "## Medium: Segunda", "## Advanced: Segunda"));
    CHECK(d.pos.line == 33);
    CHECK(d.message.find("the section 'second' is Advanced here but Medium in the original") == 0);
  }
  SUBCASE("a missing check, where it belonged") {
    std::string t = kSpanish;
    const auto begin = t.find("```check");
    const auto end = t.find("```\n", begin + 3) + 4;
    t.erase(begin, end - begin);
    const Diagnostic d = only(t);
    CHECK(d.pos.line == 23);  // the next heading, now on line 23
    CHECK(d.message.find("the check 'q1' (tiny.md:22) is missing from the translation") == 0);
  }
  SUBCASE("an extra block") {
    const Diagnostic d =
        only(replaced(kSpanish, "Unas palabras.", "Unas palabras.\n\n```heatmap\nsentence: The cat\n```"));
    CHECK(d.pos == SourcePos{14, 1});
    CHECK(d.message.find("a heatmap block is not in the original") == 0);
  }
  SUBCASE("different widget settings, at the setting") {
    const auto found = drift(replaced(replaced(kSpanish, "mask: causal", "mask: none"), "bert: yes", "bert: no"));
    REQUIRE_MESSAGE(found.size() == 2, listed(found));
    CHECK(found[0].pos == SourcePos{17, 7});
    CHECK(found[0].message == "the heatmap 'grid': 'mask' is 'none' here but 'causal' in the original (tiny.md:14)");
    CHECK(found[1].pos == SourcePos{18, 7});
    CHECK(found[1].message.find("the heatmap 'grid': 'bert' is 'no'") == 0);
  }
  SUBCASE("a translated example sentence is drift: the model's vocabulary is English") {
    const Diagnostic d = only(replaced(kSpanish, "sentence: The cat sat", "sentence: El gato se sentó"));
    CHECK(d.pos == SourcePos{16, 11});
    CHECK(d.message.find("'sentence' is 'El gato se sentó' here but 'The cat sat'") != std::string::npos);
  }
  SUBCASE("a widget setting left out") {
    const Diagnostic d = only(replaced(kSpanish, "bert: yes\n", ""));
    CHECK(d.message.find("the setting 'bert' is missing (the original has 'yes')") != std::string::npos);
  }
  SUBCASE("a different check answer") {
    std::string t = replaced(kSpanish, "    correct: yes\n", "");
    t = replaced(t, "  - text: Aquella\n", "  - text: Aquella\n    correct: yes\n");
    const auto found = drift(t);
    REQUIRE_MESSAGE(found.size() == 2, listed(found));
    CHECK(found[0].message.find("the check 'q1': the setting 'options[1].correct' is missing") == 0);
    CHECK(found[1].pos == SourcePos{29, 5});
    CHECK(found[1].message.find("the check 'q1': the setting 'options[2].correct' is not in the original") == 0);
  }
  SUBCASE("a check with another number of options") {
    const Diagnostic d = only(replaced(kSpanish, "  - text: Aquella\n    feedback: No.\n",
                                       "  - text: Aquella\n    feedback: No.\n  - text: Otra\n    feedback: No.\n"));
    CHECK(d.message.find("'options' has 3 items here but 2 in the original") != std::string::npos);
  }
  SUBCASE("a changed id is a missing block and an extra one") {
    const auto found = drift(replaced(kSpanish, "id: q1", "id: pregunta-1"));
    REQUIRE_MESSAGE(found.size() == 2, listed(found));
    CHECK(found[0].pos.line == 22);
    CHECK(found[0].message.find("the check 'pregunta-1' is not in the original") == 0);
    CHECK(found[1].message.find("the check 'q1' (tiny.md:22) is missing") == 0);
  }
  SUBCASE("a block inside a callout") {
    const Diagnostic d = only(replaced(
        kSpanish, "```equation\ncaption: Una ecuación.\n---\ne^{-\\infty} = 0 \\quad\\text{siempre}\n```\n", ""));
    CHECK(d.message.find("an equation block (tiny.md:41) is missing") == 0);
  }
  SUBCASE("code with another number of lines") {
    const Diagnostic d = only(replaced(kSpanish, "y = x  # dos\n", "y = x  # dos\nz = y\n"));
    CHECK(d.pos.line == 48);
    CHECK(d.message.find("the code 'snippet' has 3 lines of code but the original has 2") == 0);
  }
  SUBCASE("a different lesson id or level") {
    const auto found =
        drift(replaced(replaced(kSpanish, "id: tiny", "id: diminuta"), "level: Beginner", "level: Medium"));
    REQUIRE_MESSAGE(found.size() == 2, listed(found));
    CHECK(found[0].pos == SourcePos{2, 5});
    CHECK(found[0].message.find("the id is 'diminuta' but the original's is 'tiny'") == 0);
    CHECK(found[1].pos == SourcePos{4, 8});
  }
}

TEST_CASE("a language model's widget runs the translation's own model and text, and keeps the rest of its settings") {
  const std::string original = R"(---
id: lm
title: Writing
level: Medium
summary: A model writes.
---

## Medium: Loop {#loop}

```generate
id: loop
model: en
prompt: "The cat"
tokens: 20
caption: It writes.
```

```tokenizer
id: cut
text: The cat sat
learn:
  - the cat sat on the mat
merges: 10
```
)";
  std::string spanish = replaced(original, "model: en", "model: es");
  spanish = replaced(spanish, "prompt: \"The cat\"", "prompt: \"El gato\"");
  spanish = replaced(spanish, "caption: It writes.", "caption: Escribe.");
  spanish = replaced(spanish, "text: The cat sat", "text: El gato se sentó");
  spanish = replaced(spanish, "  - the cat sat on the mat", "  - el gato se sentó en la alfombra\n  - un gato");
  const auto parsers = neuralpath::widgets::block_parsers();
  const auto found = check_translation(spanish, "es/lm.md", original, "lm.md", parsers);
  CHECK_MESSAGE(found.empty(), listed(found));
  const auto drifted =
      check_translation(replaced(spanish, "tokens: 20", "tokens: 30"), "es/lm.md", original, "lm.md", parsers);
  REQUIRE_MESSAGE(drifted.size() == 1, listed(drifted));
  CHECK(drifted[0].message.find("'tokens' is '30' here but '20' in the original") != std::string::npos);
}

TEST_CASE("data blocks are copied unchanged, comments aside") {
  const std::string original =
      kOriginal + "\n```task\nid: corpus\nobjective: next-word\n---\n# a comment\nAI agents build future.\n```\n";
  const std::string same =
      kSpanish + "\n```task\nid: corpus\nobjective: next-word\n---\n# un comentario\nAI agents build future.\n```\n";
  CHECK(check_translation(same, "es/tiny.md", original, "tiny.md", neuralpath::widgets::block_parsers()).empty());
  const std::string changed =
      kSpanish + "\n```task\nid: corpus\nobjective: next-word\n---\nLos agentes construyen.\n```\n";
  const auto found =
      check_translation(changed, "es/tiny.md", original, "tiny.md", neuralpath::widgets::block_parsers());
  REQUIRE_MESSAGE(found.size() == 1, listed(found));
  CHECK(found[0].message.find("the task 'corpus''s data differs from the original's") == 0);
}

TEST_CASE("a translation is found by its folder's language code") {
  CHECK(is_language_code("es"));
  CHECK(is_language_code("pt-br"));
  CHECK_FALSE(is_language_code("strings"));
  CHECK_FALSE(is_language_code("ES"));
  CHECK_FALSE(is_language_code(""));
  CHECK_FALSE(translation_place(kLessons + "self-attention.md").has_value());
  CHECK_FALSE(translation_place(kLessons + "es/no-such-lesson.md").has_value());
  const auto strings = find_strings_file("es", kLessons + "es/self-attention.md");
  REQUIRE(strings.has_value());
  CHECK(std::filesystem::equivalent(*strings, kLessons + "strings/es.strings"));
  CHECK_FALSE(find_strings_file("../x", kLessons + "self-attention.md").has_value());
}

TEST_CASE("neuralpath-cli check reports a drifted translation, and trace --lang es narrates in Spanish") {
  using neuralpath::test::run_cli_text;
  const neuralpath::test::TempDir dir;
  std::filesystem::create_directories(dir.path / "es");
  dir.file("tiny.md", kOriginal);
  const std::string translated = dir.file("es/tiny.md", replaced(kSpanish, "mask: causal", "mask: none"));
  const auto check = run_cli_text("check '" + translated + "'");
  CHECK(check.code == 1);
  CHECK(check.err.find("/es/tiny.md:17:7: error: the heatmap 'grid': 'mask' is 'none'") != std::string::npos);

  const auto es =
      run_cli_text("trace --sentence 'The cat sat down' --lesson '" + kLessons + "self-attention.md' --lang es");
  REQUIRE_MESSAGE(es.code == 0, es.err);
  CHECK(es.out.find("La frase se convierte en 4 tokens") != std::string::npos);
  CHECK(es.out.find("The sentence becomes") == std::string::npos);
  CHECK(es.out.find(",") != std::string::npos);
  // The steps' titles (the board's step list) and the quotes around tokens are Spanish too.
  CHECK(es.out.find("\"title\":\"Puntuaciones (cabeza 1)\"") != std::string::npos);
  CHECK(es.out.find("\"title\":\"Siguiente token\"") != std::string::npos);
  CHECK(es.out.find("«cat»") != std::string::npos);
  // So are the matrices' names (the board's labels and cell readouts, the narration's sublayer).
  CHECK(es.out.find("\"name\":\"puntuaciones\"") != std::string::npos);
  CHECK(es.out.find("\"name\":\"x + atención\"") != std::string::npos);
  CHECK(es.out.find("\"name\":\"codificación posicional\"") != std::string::npos);
  for (const char* english : {"(head 1)", "Scores", "Blend of values", "'cat'", "\"name\":\"scores\"",
                              "\"name\":\"position code\"", "\"name\":\"x + attention\""}) {
    CAPTURE(english);
    CHECK(es.out.find(english) == std::string::npos);
  }
  const auto en = run_cli_text("trace --sentence 'The cat sat down' --lesson '" + kLessons + "self-attention.md'");
  CHECK(en.out.find("The sentence becomes 4 tokens") != std::string::npos);
  CHECK(en.out.find("\"title\":\"Scores (head 1)\"") != std::string::npos);
  CHECK(en.out.find("'cat'") != std::string::npos);
  CHECK(en.out.find("\"name\":\"position code\"") != std::string::npos);
  neuralpath::test::check_refused(run_cli_text("trace --sentence 'The cat' --lang xx"), "--lang xx: no word catalogue");
}

// [SECTION] Feature labels: a translation names the model's features in its own language ---------

namespace {

const std::string kVocabulary =
    "\n```vocabulary\nfeatures: [animate, place]\nwords:\n  the: [0, 0]\n  cat: [1, 0]\n  sat: [0, 0]\n```\n";
const std::string kLabels = "labels:\n  animate: animado\n  place: lugar\n";

std::string with_labels(const std::string& labels) {
  return replaced(kSpanish + kVocabulary, "features: [animate, place]\n", "features: [animate, place]\n" + labels);
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a translation may label the vocabulary's features; the features themselves stay data") {
  const std::string original = kOriginal + kVocabulary;
  const auto check = [&](const std::string& t) {
    return check_translation(t, "es/tiny.md", original, "tiny.md", neuralpath::widgets::block_parsers());
  };
  CHECK_MESSAGE(check(with_labels(kLabels)).empty(), listed(check(with_labels(kLabels))));
  const auto renamed =
      check(replaced(with_labels(kLabels), "features: [animate, place]", "features: [animado, lugar]"));
  REQUIRE_MESSAGE(renamed.size() >= 1, listed(renamed));
  CAPTURE(renamed.front().message);
  CHECK(renamed.front().message.find("'features[1]' is 'animado' here but 'animate' in the original") !=
        std::string::npos);

  // The labels name the board's columns and the narration's features; the weights keep the names.
  const ParseResult parsed = parse_lesson(with_labels(kLabels), "es/tiny.md", neuralpath::widgets::block_parsers());
  CHECK_MESSAGE(parsed.diagnostics.empty(), listed(parsed.diagnostics));
  REQUIRE(parsed.lesson.vocabulary.has_value());
  CHECK(parsed.lesson.vocabulary->features == std::vector<std::string>{"animate", "place"});
  CHECK(model_spec_for(parsed.lesson).vocabulary.feature_names == std::vector<std::string>{"animado", "lugar"});
  const ParseResult plain = parse_lesson(kOriginal + kVocabulary, "tiny.md", neuralpath::widgets::block_parsers());
  CHECK(model_spec_for(plain.lesson).vocabulary.feature_names == std::vector<std::string>{"animate", "place"});

  // A label for no feature, or an empty one, is an error at its place.
  const ParseResult unknown =
      parse_lesson(with_labels("labels:\n  animal: animado\n"), "es/tiny.md", neuralpath::widgets::block_parsers());
  REQUIRE(unknown.diagnostics.size() == 1);
  CHECK(unknown.diagnostics.front().message == "'animal' is not one of the features");
  CHECK(unknown.diagnostics.front().pos.col == 3);
  const ParseResult empty =
      parse_lesson(with_labels("labels:\n  animate:\n"), "es/tiny.md", neuralpath::widgets::block_parsers());
  REQUIRE(empty.diagnostics.size() == 1);
  CHECK(empty.diagnostics.front().message.find("a feature's label is a short text") == 0);
}

TEST_CASE("the Spanish lessons' narration names every feature in Spanish («su rasgo thing» no more)") {
  const std::regex english_feature(
      R"(\b(thing|agent|action|time|tech|function|punctuation|quality|person|manner|pronoun|animate|place|needs_animate|needs_place)\b)");
  REQUIRE(neuralpath::use_language("es", file_text(kLessons + "strings/es.strings")).empty());
  struct Case {
    const char* file;
    const char* sentence;
    const char* expect;
  };
  std::vector<std::string> failures;
  int sentences = 0;
  for (const Case& c :
       {Case{"es/course-playback.md", "AI Agents Build Future", "rasgo de "},
        Case{"es/multi-head.md", "The boy gently pushed the chair.", "rasgo de "},
        Case{"es/self-attention.md", "The animal didn't cross the street because it was too tired.", "rasgo de "}}) {
    const LoadResult loaded = load_lesson_file(kLessons + c.file, neuralpath::widgets::with_widgets());
    REQUIRE(loaded.ok());
    const neuralpath::ModelSpec spec = model_spec_for(*loaded.lesson);
    for (const std::string& name : spec.vocabulary.feature_names)
      if (std::regex_match(name, english_feature))
        failures.push_back(std::string(c.file) + ": feature '" + name + "' has no label");
    const neuralpath::Trace t = neuralpath::run_block(spec, c.sentence);
    bool said_a_feature = false;
    for (const neuralpath::Step& s : t.steps) {
      ++sentences;
      said_a_feature = said_a_feature || s.narration.find(c.expect) != std::string::npos;
      if (std::regex_search(s.narration, english_feature)) failures.push_back(std::string(c.file) + ": " + s.narration);
    }
    if (!said_a_feature) failures.push_back(std::string(c.file) + ": no sentence names a feature");
  }
  neuralpath::use_language("en", "");
  CHECK(sentences > 40);
  for (const std::string& f : failures) FAIL_CHECK(f);
}
