// lesson_hook.h: the CLI's one seam to the lesson library (engine/lesson owns parsing and
// validation; the CLI only calls it). Both throw InputError with a one-line message.
#pragma once

#include "engine/core/model.h"

#include <string>
#include <vector>

namespace neuralpath::cli {

// The ModelSpec a lesson file defines (its vocabulary, weights and settings).
ModelSpec model_spec_from_lesson_file(const std::string& path);

// The sentence a lesson's first widget runs (file order), or "" when none names one: what
// `trace --lesson FILE` shows without --sentence, so the CLI prints the numbers the page opens with.
std::string first_sentence_of_lesson_file(const std::string& path);

// Puts language `code`'s word catalogue over English for this run (narration, units), found
// near `lesson_path` or in ./lessons/strings (engine/lesson/translation.h). "en" is English.
// Throws InputError when there is no catalogue for `code` or the file has a bad line.
void use_language_for_run(const std::string& code, const std::string& lesson_path);

// One "file:line:col: error: message" line per problem found in the given lesson files; a
// translation (lessons/<lang>/ID.md) is also compared with its original's structure.
std::vector<std::string> check_lesson_files(const std::vector<std::string>& paths);

// The widget kinds a lesson file's blocks use ("generate", "heatmap"), sorted, each once: what a
// site's build reads to give each lesson the smallest lesson engine that holds them all
// (web/CMakeLists.txt). A block the parser refuses names no kind.
std::vector<std::string> widget_kinds_of_lesson_file(const std::string& path);

}  // namespace neuralpath::cli
