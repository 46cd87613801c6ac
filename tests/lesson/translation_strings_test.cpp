// translation_strings_test.cpp: every word catalogue beside en.strings (lessons/strings/*.strings)
// has every English key, with the same {placeholders} (keys English lacks are listed); and a
// language's catalogue changes how numbers are printed (format.decimal, format.thousands).
#include "helpers.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace neuralpath;
using lesson_test::read;

namespace {

const std::string kStrings = NEURALPATH_SOURCE_DIR "/lessons/strings/";

// "{n} of {total}" -> {"n", "total"}; "{{" and "}}" are literal braces, not placeholders.
std::set<std::string> placeholders(const std::string& text) {
  std::set<std::string> names;
  static const std::regex pattern(R"(\{\{|\}\}|\{([A-Za-z0-9_]+)\})");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it)
    if ((*it)[1].matched) names.insert((*it)[1].str());
  return names;
}

// What a translation lacks or gets wrong against English, one readable line each.
std::vector<std::string> catalogue_drift(const Catalogue& english, const Catalogue& other) {
  std::vector<std::string> problems;
  for (const auto& [key, text] : english.entries()) {
    const std::string* translated = other.find(key);
    if (!translated) {
      problems.push_back("missing key " + key);
      continue;
    }
    if (placeholders(text) != placeholders(*translated))
      problems.push_back(key + ": placeholders differ from English (\"" + text + "\" vs \"" + *translated + "\")");
  }
  return problems;
}

// Keys a translation has that English lacks: renamed or removed in English, or translated
// ahead of the English landing. Harmless (never looked up), so reported, not failed.
std::vector<std::string> extra_keys(const Catalogue& english, const Catalogue& other) {
  std::vector<std::string> extra;
  for (const auto& [key, text] : other.entries())
    if (!english.has(key)) extra.push_back(key);
  return extra;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("every translation of the word catalogue has the English keys and placeholders") {
  const Catalogue english = Catalogue::parse(read(kStrings + "en.strings"));
  REQUIRE(english.size() > 100);
  int languages = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kStrings)) {
    const auto path = entry.path();
    if (path.extension() != ".strings" || path.filename() == "en.strings") continue;
    ++languages;
    std::vector<Catalogue::Problem> syntax;
    const Catalogue other = Catalogue::parse(read(path.string()), &syntax);
    for (const auto& p : syntax) FAIL_CHECK(path.filename().string() << ":" << p.line << ": " << p.message);
    const auto drift = catalogue_drift(english, other);
    CHECK_MESSAGE(drift.empty(), path.filename().string() << ":\n" << joined(drift));
    if (const auto extra = extra_keys(english, other); !extra.empty())
      MESSAGE(path.filename().string() << " has keys en.strings lacks (stale?):\n" << joined(extra));
  }
  CHECK(languages >= 1);  // es.strings at least
}

TEST_CASE("the catalogue comparison reports a missing key and a changed placeholder, and lists extra keys") {
  const Catalogue english = Catalogue::parse("[a]\nx = {n} of {total}\ny = plain\nz = {{literal}}\n");
  const Catalogue good = Catalogue::parse("[a]\nx = {total} en total, {n}\ny = llano\nz = {{literal}}\n");
  CHECK(catalogue_drift(english, good).empty());
  const Catalogue bad = Catalogue::parse("[a]\nx = {n} de {todo}\nz = {{x}}\nw = extra\n");
  const auto drift = catalogue_drift(english, bad);
  REQUIRE(drift.size() == 2);
  CHECK(drift[0].find("a.x: placeholders differ") == 0);
  CHECK(drift[1] == "missing key a.y");
  CHECK(extra_keys(english, bad) == std::vector<std::string>{"a.w"});
}

TEST_CASE("Spanish prints numbers with a decimal comma and a thousands point") {
  REQUIRE(use_language("es", read(kStrings + "es.strings")).empty());
  CHECK(format_number(0.834f) == "0,83");
  CHECK(format_number(-1.5f) == "-1,50");
  CHECK(format_percent(0.4123f) == "41,2\u00a0%");  // a no-break space: "41,2 %"
  CHECK(format_count(1000) == "1.000");
  CHECK(format_count(1234567) == "1.234.567");
  CHECK(format_bytes(268435456.0) == "256,00 MiB");
  CHECK(tr("page.sections", {{"n", "3"}}).empty() == false);
  use_language("en", "");
  CHECK(format_number(0.834f) == "0.83");
  CHECK(format_count(1000) == "1,000");
}
