// load.h: the lesson library's front door for the CLI and the web app.
//
//   load_lesson_file("lessons/x.md", widgets::with_widgets())  parse + engine checks; a Lesson only when clean
//   check_lesson_file("lessons/x.md") every problem, as Diagnostics (empty = valid); it never
//                                     trains (a lesson's source has no shipped weights yet)
// The CLI prints each Diagnostic's to_string() ("file:line:col: error: message") and exits
// 1 when any file has one; the web app shows them in an error panel instead of the lesson.
#pragma once

#include "engine/lesson/diagnostic.h"
#include "engine/lesson/lesson.h"
#include "engine/lesson/parser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

struct LoadResult {
  std::optional<Lesson> lesson;  // set only when diagnostics is empty
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return lesson.has_value(); }
};

// What loading does beyond parsing and checking.
struct LoadOptions {
  // The widget kinds the lesson may use (parser.h); the widget library's
  // widgets::block_parsers() has every kind. Empty: any widget block is an unknown block.
  WidgetBlockParsers widgets{};
  // Put a `lesson-weights: trained` task's weights into lesson.weights (shipped or trained
  // now; task_set.h). Off for `neuralpath-cli train`, which trains from the lesson as written.
  bool lesson_weights = true;
  // Without weights shipped for that very data (a ```trained-weights block whose fingerprint
  // matches): train them now (the CLI and the native tests, within the checker's
  // kMaxTrainingFlops), or refuse the lesson with a `file:line:col` error at its
  // `lesson-weights:` (the page, whose frame cannot wait for a training run).
  bool train_lesson_weights = true;
  // The engine's checks (every widget sentence run through the model, every task's words and
  // work; 82% of loading a lesson). Off only for a text the site's build has already checked
  // with these very checks (`neuralpath-cli check` in web/ship_trained_weights.cmake; the page
  // compares the text's SHA-256 with the build's list): its format is still parsed and checked.
  bool engine_checks = true;
};

LoadResult load_lesson_text(std::string_view text, std::string file, LoadOptions options = {});
LoadResult load_lesson_file(const std::string& path, LoadOptions options = {});
std::vector<Diagnostic> check_lesson_file(const std::string& path, WidgetBlockParsers widgets);

}  // namespace neuralpath::lesson
