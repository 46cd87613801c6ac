// translation.h: a lesson in another language, and the check that it still matches its original.
//
//   lessons/self-attention.md          the original (English)
//   lessons/es/self-attention.md       its Spanish translation: same id, sections, blocks
//
// A translation is a whole lesson file (it loads and checks like any other); what makes it a
// translation is where it sits: in a folder named by a language code next to the original
// (docs/translating.md). Translators rewrite the words freely, but the learner's progress, a
// shared link and the widgets depend on the structure staying the same, so
// check_translation() compares the two and reports every drift at its place in the
// translation:
//
//   front matter   the same id and level
//   sections       the same anchors, in the same order, with the same levels
//   blocks         in each section the same fenced blocks (kind and id) in the same order,
//                  callouts and reveals compared inside too
//   checks         the same number of options, the same correct ones, the same `answer`
//   widgets        the same settings except `caption` (sentences, masks, stages, lengths...)
//   code           the same settings except `caption`, and as many lines (steps name lines;
//                  comments may be translated)
//   data           vocabulary, weights and task blocks identical (comment lines aside)
//
// Words are free: titles, prose, questions, options, feedback, hints, labels, captions,
// callout and reveal text, and the text of equations (\text{...} may be translated).
#pragma once

#include "engine/lesson/diagnostic.h"
#include "engine/lesson/parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

struct TranslationPlace {
  std::string language;       // "es"
  std::string original_path;  // "lessons/self-attention.md"
};

// `path` is a translation when its folder is named like a language code ("es", "pt-br") and
// a file of the same name exists one folder up; nullopt otherwise.
std::optional<TranslationPlace> translation_place(const std::string& path);

bool is_language_code(std::string_view code);  // "es", "pt", "pt-br", "zh-hant"

// Every way `translated` drifts from `original`, as Diagnostics in the translated file (the
// message names the original's line where that helps). Both texts should parse cleanly;
// a file that does not parse is reported by the ordinary checker, and here only its front
// matter and fenced blocks are compared.
// `widgets`: the widget kinds both files are read with (parser.h).
std::vector<Diagnostic> check_translation(std::string_view translated, const std::string& translated_file,
                                          std::string_view original, const std::string& original_file,
                                          WidgetBlockParsers widgets);

// The word catalogue file for `code` (lessons/strings/<code>.strings): looked for beside
// `lesson_path` (its folder's strings/, then one folder up, for lessons/es/ID.md) and then in
// ./lessons/strings/. nullopt when there is none or `code` is not a language code.
std::optional<std::string> find_strings_file(std::string_view code, const std::string& lesson_path = "");

// check_lesson_file() plus check_translation() when `path` is a translation.
std::vector<Diagnostic> check_lesson_or_translation_file(const std::string& path, WidgetBlockParsers widgets);

}  // namespace neuralpath::lesson
