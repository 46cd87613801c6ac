// settings.h: the small "key: value" language inside fenced blocks and the front matter.
//
// A subset of YAML, documented for authors in docs/lesson-format.md:
//
//   key: value                 a text value (runs to the end of the line)
//   key: "  value: quoted  "   quotes keep spaces and colons; \" and \\ inside quotes
//   key: a long value that
//     continues here           more-indented lines continue a text value (joined by a space)
//   key: |                     a literal block: the indented lines below, newlines kept
//     line one
//   key: [1, 0.5, "x, y"]      an inline list
//   key:                       a nested map or list, indented below
//     - item                   list items start with "- "
//     - name: x                a list item may itself be a map
//       other: y
//   # comment                  lines starting with # are ignored, as are blank lines
//
// Indentation is spaces only. Every node keeps its SourceText, so an error inside a value can
// be reported at its exact column.
#pragma once

#include "engine/lesson/source_text.h"

#include <optional>
#include <string>
#include <vector>

namespace neuralpath::lesson {

struct SettingsNode {
  enum class Kind { Empty, Text, List, Map };
  struct Entry;

  Kind kind = Kind::Empty;
  std::size_t origin = 0;           // file offset where the node starts
  SourceText text;                  // Text: the value (quotes removed)
  std::vector<SettingsNode> items;  // List
  std::vector<Entry> entries;       // Map, in file order

  const SettingsNode* find(std::string_view key) const;  // Map lookup; nullptr if absent
};

struct SettingsNode::Entry {
  std::string key;
  std::size_t key_origin = 0;
  SettingsNode value;
};

struct SettingsError {
  std::size_t origin;  // file offset
  std::string message;
};

// Parses a block body (or front matter). The result is a Map (possibly empty) unless the text
// is a top-level list. Errors are appended; parsing continues past most of them.
SettingsNode parse_settings(const SourceText& body, std::vector<SettingsError>& errors);

const char* kind_name(SettingsNode::Kind kind);  // "text", "list", "map", "nothing"

}  // namespace neuralpath::lesson
