// author_test: what a course author starts from and reads, run as an author runs it.
//   - `./neuralpath new-lesson ID` writes a lesson that passes `neuralpath-cli check`, with one
//     of each common block; it never overwrites a file, and refuses a bad id (exit 2, one line).
//   - docs/lesson-format.md, the author's guide: every example in it passes the real checker
//     (parse and engine checks, as `check` runs them), and every block kind and every setting
//     its table lists is shown in an example, so the guide cannot drift from the format.
#include "cli_runner.h"

#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

using neuralpath::test::CliRun;
using neuralpath::test::run_cli;
using neuralpath::test::slurp;
using neuralpath::test::TempDir;

namespace {

const std::string kSource = NEURALPATH_SOURCE_DIR;

// `./neuralpath new-lesson ARGS` writing into DIR (NEURALPATH_LESSONS_DIR), as a shell runs it.
CliRun new_lesson(const TempDir& dir, const std::string& args) {
  const std::string command = "cd '" + kSource + "' && NEURALPATH_LESSONS_DIR='" + dir.path.string() +
                              "' timeout 60 ./neuralpath new-lesson " + args + " > '" + (dir.path / "out").string() +
                              "' 2> '" + (dir.path / "err").string() + "'";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir.path / "out"), slurp(dir.path / "err")};
}

// The examples of docs/lesson-format.md: fences of four or more backticks with the info string
// "markdown" (as tests/lesson/lessons_test.cpp reads them), each with its line in the guide.
struct Example {
  int line = 0;
  std::string text;
};
std::vector<Example> guide_examples(const std::string& guide) {
  std::vector<Example> out;
  const std::regex open("(^|\n)(`{4,})markdown\n");
  for (auto it = std::sregex_iterator(guide.begin(), guide.end(), open); it != std::sregex_iterator(); ++it) {
    const std::size_t begin = static_cast<std::size_t>(it->position(0) + it->length(0));
    const std::size_t end = guide.find("\n" + (*it)[2].str() + "\n", begin);
    REQUIRE(end != std::string::npos);
    const int line = 1 + static_cast<int>(std::count(guide.begin(), guide.begin() + static_cast<long>(begin), '\n'));
    out.push_back({line, guide.substr(begin, end - begin + 1)});
  }
  return out;
}

// A block example becomes a lesson with one section around it; a whole lesson stays as it is.
std::string as_lesson(const std::string& example) {
  if (example.rfind("---\n", 0) == 0) return example;
  return "---\nid: guide-example\ntitle: An example from the guide\nlevel: Beginner\nsummary: Checked by the tests.\n"
         "---\n\n## Beginner: Example\n\n" +
         example;
}

}  // namespace

TEST_CASE("new-lesson writes a lesson that passes check, with one of each common block") {
  const TempDir dir;
  const CliRun made = new_lesson(dir, "my-first-lesson");
  REQUIRE_MESSAGE(made.code == 0, made.err);
  CHECK(made.err.empty());
  CHECK(made.out.find("es/my-first-lesson.md") != std::string::npos);  // says how to add a translation
  const std::string path = (dir.path / "my-first-lesson.md").string();
  const std::string text = slurp(path);
  CHECK(text.find("\nid: my-first-lesson\n") != std::string::npos);
  for (const char* kind : {"check", "reveal", "callout", "equation", "code", "heatmap", "spotlight"}) {
    CAPTURE(kind);
    CHECK(text.find(std::string("\n```") + kind + "\n") != std::string::npos);
  }
  const CliRun checked = run_cli(dir, "check '" + path + "'");
  CHECK_MESSAGE(checked.code == 0, checked.err);
  CHECK(checked.err.empty());
}

TEST_CASE("new-lesson never overwrites a lesson, and refuses a bad id with one line") {
  const TempDir dir;
  const std::string mine = dir.file("taken.md", "my own words\n");
  const CliRun again = new_lesson(dir, "taken");
  CHECK(again.code == 2);
  CHECK(again.out.empty());
  CHECK(again.err.find("already exists") != std::string::npos);
  CHECK(std::count(again.err.begin(), again.err.end(), '\n') == 1);
  CHECK(slurp(mine) == "my own words\n");

  for (const char* bad : {"'Bad_Id'", "'-dash-first'", "'../escape'", "''", "'has space'", "a b",
                          "'x1234567890123456789012345678901234567890123456789012345678901234'"}) {
    CAPTURE(bad);
    const TempDir empty;
    const CliRun r = new_lesson(empty, bad);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(std::distance(std::filesystem::directory_iterator(empty.path), {}) == 2);  // only out and err
  }
}

TEST_CASE("docs/lesson-format.md: every example passes the checker") {
  const std::string guide = slurp(kSource + "/docs/lesson-format.md");
  const std::vector<Example> examples = guide_examples(guide);
  CHECK(examples.size() >= 25);
  // One check of every example (a CLI run each took 15 s under the sanitizers); a diagnostic
  // names its file, example-LINE.md, LINE being the example's line in the guide.
  const TempDir dir;
  std::string paths;
  for (const Example& example : examples)
    paths += " '" + dir.file("example-" + std::to_string(example.line) + ".md", as_lesson(example.text)) + "'";
  const CliRun r = run_cli(dir, "check" + paths);
  CHECK_MESSAGE(r.code == 0, r.err);
  CHECK(r.err.empty());
}

TEST_CASE("docs/lesson-format.md shows every block kind and every setting its table lists") {
  const std::string guide = slurp(kSource + "/docs/lesson-format.md");
  std::string all_examples;
  for (const Example& e : guide_examples(guide)) all_examples += "\n" + e.text;

  // The table under "## Blocks": | `kind` | what | required | optional |
  const std::size_t table = guide.find("\n## Blocks\n");
  REQUIRE(table != std::string::npos);
  const std::size_t table_end = guide.find("\n\n", guide.find("\n|", table) + 1);
  const std::string rows = guide.substr(table, table_end - table);
  const std::regex row("\n\\| `([a-z-]+)` \\|[^|]*\\|([^|]*)\\|([^|]*)\\|");
  const std::regex setting("`([a-z-]+)`");
  int kinds = 0;
  for (auto it = std::sregex_iterator(rows.begin(), rows.end(), row); it != std::sregex_iterator(); ++it) {
    const std::string kind = (*it)[1];
    CAPTURE(kind);
    ++kinds;
    if (it->str().find("written by the build") != std::string::npos) continue;  // never an author's (trained-weights)
    // Each kind's fences in the examples, whatever the number of backticks.
    const std::regex fence("\n(`{3,})" + kind + "\n([\\s\\S]*?)\n\\1\n");
    std::string bodies;
    for (auto f = std::sregex_iterator(all_examples.begin(), all_examples.end(), fence); f != std::sregex_iterator();
         ++f)
      bodies += "\n" + (*f)[2].str();
    CHECK_MESSAGE(!bodies.empty(), "no example of the block '" << kind << "'");
    const std::string settings = (*it)[2].str() + (*it)[3].str();
    for (auto s = std::sregex_iterator(settings.begin(), settings.end(), setting); s != std::sregex_iterator(); ++s) {
      const std::string key = (*s)[1];
      CAPTURE(key);
      CHECK_MESSAGE(std::regex_search(bodies, std::regex("(^|\n)\\s*(- )?" + key + ":")),
                    "no example of '" << key << ":' in a " << kind << " block");
    }
  }
  CHECK(kinds >= 18);
}
