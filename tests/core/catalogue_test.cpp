// catalogue_test.cpp: the string catalogue (engine/text/catalogue.h) and the number formats that
// read their units from it (engine/text/format.h).
#include "engine/text/catalogue.h"
#include "engine/text/format.h"

#include <doctest/doctest.h>

#include <fstream>
#include <limits>
#include <sstream>

using namespace neuralpath;

namespace {

// Restores English after a case that switched language, whatever the case did.
struct EnglishAfter {
  ~EnglishAfter() { use_language("en", ""); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_CASE("a catalogue file gives keys under their section, with placeholders filled by name") {
  std::vector<Catalogue::Problem> problems;
  const Catalogue c = Catalogue::parse(
      "# words\n"
      "greeting = Hello\n"
      "[spotlight]\n"
      "  cannot_show =   This spotlight cannot be shown: {error}  \n"
      "pair = {a} looks at {b}, {a} again\n"
      "braces = {{literal}} and a line\\nbreak\n"
      "spaced = \\s kept \\s\n",
      &problems);
  CHECK(problems.empty());
  CHECK(c.size() == 5);
  CHECK(c.text("greeting") == "Hello");
  CHECK(c.text("spotlight.cannot_show", {{"error", "no words"}}) == "This spotlight cannot be shown: no words");
  CHECK(c.text("spotlight.pair", {{"b", "'cat'"}, {"a", "'it'"}}) == "'it' looks at 'cat', 'it' again");
  CHECK(c.text("spotlight.braces") == "{literal} and a line\nbreak");
  CHECK(c.text("spotlight.spaced") == "  kept  ");
  CHECK_FALSE(c.has("cannot_show"));  // only under its section
}

TEST_CASE("bad lines are reported with their line number and the good ones kept") {
  std::vector<Catalogue::Problem> problems;
  const Catalogue c = Catalogue::parse("a = one\nno equals sign\n[open\nbad key! = x\na = again\nb = two\n", &problems);
  REQUIRE(problems.size() == 4);
  CHECK(problems[0].line == 2);
  CHECK(problems[1].line == 3);
  CHECK(problems[2].line == 4);
  CHECK(problems[3].line == 5);
  CHECK(problems[3].message.find("'a' is given twice") != std::string::npos);
  CHECK(c.text("a") == "one");
  CHECK(c.text("b") == "two");
}

TEST_CASE("a missing key or placeholder is visible and recorded, never a crash") {
  take_missing_keys();
  const Catalogue c = Catalogue::parse("x = value {v} and {w}\n");
  CHECK(c.text("nowhere.at_all") == "nowhere.at_all");
  CHECK(c.text("x", {{"v", "1"}}) == "value 1 and {w}");
  const auto missing = take_missing_keys();
  REQUIRE(missing.size() == 2);
  CHECK(missing[0] == "nowhere.at_all");
  CHECK(missing[1] == "x {w}");
  CHECK(take_missing_keys().empty());
}

TEST_CASE("the compiled-in English is lessons/strings/en.strings, entry for entry") {
  std::vector<Catalogue::Problem> problems;
  const Catalogue file = Catalogue::parse(read_file("lessons/strings/en.strings"), &problems);
  CHECK(problems.empty());
  REQUIRE(file.size() > 0);
  CHECK(file.entries() == english_strings().entries());
}

TEST_CASE("another language goes over English; a key it lacks stays English; en restores English") {
  EnglishAfter restore;
  const auto problems = use_language("xx", "[format]\nbytes = {n} octets\nbroken line\n");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].line == 3);
  CHECK(language() == "xx");
  CHECK(format_bytes(512) == "512 octets");
  CHECK(format_bytes(2048) == "2.00 KiB");  // not translated: English
  use_language("en", "");
  CHECK(language() == "en");
  CHECK(format_bytes(512) == "512 bytes");
}

TEST_CASE("counts take the one/other form") {
  EnglishAfter restore;
  use_language("xx", "[t]\nheads.one = {n} head\nheads.other = {n} heads\nplain = {n} items\n");
  CHECK(tr_n("t.heads", 1, {{"n", "1"}}) == "1 head");
  CHECK(tr_n("t.heads", 4, {{"n", "4"}}) == "4 heads");
  CHECK(tr_n("t.heads", 0, {{"n", "0"}}) == "0 heads");
  CHECK(tr_n("t.plain", 1, {{"n", "1"}}) == "1 items");  // no forms: the key itself
}

TEST_CASE("counts, bytes, seconds and tiny numbers print the way the views and the text version show them") {
  CHECK(format_count(0) == "0");
  CHECK(format_count(999) == "999");
  CHECK(format_count(1000) == "1,000");
  CHECK(format_count(1234567) == "1,234,567");
  CHECK(format_bytes(1023) == "1,023 bytes");
  CHECK(format_bytes(1024) == "1.00 KiB");
  CHECK(format_bytes(268435456.0) == "256.00 MiB");
  CHECK(format_bytes(400000000.0) == "381.47 MiB");
  CHECK(format_bytes(1099511627776.0 * 2) == "2.00 TiB");
  CHECK(format_seconds(0.0123) == "12.30 ms");
  CHECK(format_seconds(2.5) == "2.50 s");
  CHECK(format_seconds(83) == "1 min 23.00 s");
  CHECK(format_tiny(0.0) == "0.00");
  CHECK(format_tiny(4.77e-7) == "4.77 × 10⁻⁷");
  CHECK(format_tiny(0.25) == "0.25");
  CHECK(shape_text(12, 4) == "(12, 4)");
}

TEST_CASE("the text version's formats by name are the same functions the canvas calls") {
  CHECK(format_value("number", 1.899) == "1.90");
  CHECK(format_value("number", -0.001) == "0.00");
  CHECK(format_value("percent", 0.4123) == "41.2%");
  CHECK(format_value("count", 1234567) == "1,234,567");
  CHECK(format_value("bytes", 268435456.0) == "256.00 MiB");
  CHECK(format_value("seconds", 0.0123) == "12.30 ms");
  CHECK(format_value("tiny", 4.77e-7) == "4.77 × 10⁻⁷");
  CHECK(format_value("count", -5) == "-5.00");  // not a count: printed as a number, never wrapped
  CHECK(format_value("bytes", std::numeric_limits<double>::infinity()) == "∞");
}
