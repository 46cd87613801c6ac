// helpers.h: small builders shared by the lesson suites.
#pragma once

#include "engine/lesson/parser.h"
#include "engine/widgets/widget_kinds.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace lesson_test {

using namespace neuralpath::lesson;

// Six lines of front matter and a section heading: the body given starts on line 9.
inline const std::string kHead =
    "---\n"
    "id: test-lesson\n"
    "title: A test lesson\n"
    "level: Beginner\n"
    "summary: Used by the tests.\n"
    "---\n"
    "## Beginner: First steps\n"
    "\n";

inline std::string doc(std::string_view body) { return kHead + std::string(body); }

inline ParseResult parse(std::string_view text) {
  return parse_lesson(text, "test.md", neuralpath::widgets::block_parsers());
}

// Where `needle` (its `nth` occurrence) starts: 1-based line and column in characters.
// Written independently of LineIndex so the suites check it rather than repeat it.
inline SourcePos pos_of(std::string_view text, std::string_view needle, int nth = 1) {
  std::size_t at = std::string_view::npos, from = 0;
  for (int k = 0; k < nth; ++k) {
    at = text.find(needle, from);
    REQUIRE_MESSAGE(at != std::string_view::npos, "needle not found: " << needle);
    from = at + 1;
  }
  int line = 1, col = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  return {line, col};
}

inline std::string all_messages(const ParseResult& r) { return format_diagnostics(r.diagnostics); }

// A whole file (a lesson, a catalogue), or the test fails naming it.
inline std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace lesson_test
