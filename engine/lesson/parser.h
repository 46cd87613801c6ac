// parser.h: lesson text -> Lesson, with every format problem as a Diagnostic.
//
// parse_lesson() checks the FORMAT: front matter, sections, known blocks and keys, equations,
// checks with a correct option, ids, references. It does not run the engine; model_spec.h
// checks the lesson against its vocabulary and weights, and load.h does both.
#pragma once

#include "engine/lesson/diagnostic.h"
#include "engine/lesson/lesson.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

namespace detail {
struct WidgetFields;  // parse_context.h: what a widget kind's parser reads its block with
}

// A widget kind's block: its name ("heatmap") and the parser of its keys. The lesson library
// knows no widget kind: whoever reads a lesson passes the kinds it has (the widget library's
// widgets::block_parsers(), engine/widgets/widget_kinds.h), and a block of any other name is
// an "unknown block" error.
struct WidgetBlockParser {
  std::string_view name;
  std::shared_ptr<const WidgetSettings> (*parse)(detail::WidgetFields& fields);
};
using WidgetBlockParsers = std::span<const WidgetBlockParser>;

// A sentence some widget will run through the engine, with where each byte of it sits in the
// file, so an unknown word can be reported at its own column.
struct SentenceRef {
  std::string text;
  std::string widget;                // its kind, as the block names it ("heatmap")
  std::string query;                 // spotlight: the word that must occur in the sentence
  int max_tokens;                    // what the kind's figure shows (its settings say); 0: no limit
  std::vector<SourcePos> positions;  // one per byte of text
};

struct ParseResult {
  Lesson lesson;
  std::vector<Diagnostic> diagnostics;  // empty = the format is valid
  std::vector<SentenceRef> sentences;
};

ParseResult parse_lesson(std::string_view text, std::string file, WidgetBlockParsers widgets);

}  // namespace neuralpath::lesson
