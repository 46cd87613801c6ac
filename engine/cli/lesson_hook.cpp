// lesson_hook.cpp: the CLI's calls into engine/lesson (see lesson_hook.h).
#include "lesson_hook.h"

#include "engine/core/error.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/parser.h"
#include "engine/lesson/translation.h"
#include "engine/text/catalogue.h"
#include "engine/widgets/widget_kinds.h"

#include <fstream>
#include <set>
#include <sstream>

namespace neuralpath::cli {

ModelSpec model_spec_from_lesson_file(const std::string& path) {
  const lesson::LoadResult loaded = lesson::load_lesson_file(path, widgets::with_widgets());
  if (!loaded.ok()) {
    // One line: the first problem, and how many more `check` would list.
    std::string message =
        loaded.diagnostics.empty() ? path + ": the lesson could not be loaded" : loaded.diagnostics.front().to_string();
    if (loaded.diagnostics.size() > 1)
      message +=
          " (and " + std::to_string(loaded.diagnostics.size() - 1) + " more; run: neuralpath-cli check " + path + ")";
    throw InputError(message);
  }
  return lesson::model_spec_for(*loaded.lesson);
}

std::string first_sentence_of_lesson_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the lesson");
  std::ostringstream text;
  text << in.rdbuf();
  // The parser lists widget sentences in file order (the loader has already refused a broken file).
  const lesson::ParseResult parsed = lesson::parse_lesson(text.str(), path, widgets::block_parsers());
  return parsed.sentences.empty() ? std::string() : parsed.sentences.front().text;
}

void use_language_for_run(const std::string& code, const std::string& lesson_path) {
  if (code == "en") return;
  const auto file = lesson::find_strings_file(code, lesson_path);
  if (!file)
    throw InputError("--lang " + code + ": no word catalogue for that language (looked for lessons/strings/" + code +
                     ".strings; docs/translating.md)");
  std::ifstream in(*file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const auto problems = use_language(code, text.str());
  if (!problems.empty())
    throw InputError(*file + ":" + std::to_string(problems.front().line) + ": " + problems.front().message);
}

std::vector<std::string> check_lesson_files(const std::vector<std::string>& paths) {
  std::vector<std::string> lines;
  for (const std::string& path : paths)
    for (const lesson::Diagnostic& d : lesson::check_lesson_or_translation_file(path, widgets::block_parsers()))
      lines.push_back(d.to_string());
  return lines;
}

std::vector<std::string> widget_kinds_of_lesson_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the lesson");
  std::ostringstream text;
  text << in.rdbuf();
  const lesson::ParseResult parsed = lesson::parse_lesson(text.str(), path, widgets::block_parsers());
  std::set<std::string> kinds;  // sorted, each once
  lesson::for_each_block(parsed.lesson, [&](const lesson::Block& block) {
    const std::string_view kind = lesson::widget_kind_name(block.content);
    if (!kind.empty()) kinds.emplace(kind);
  });
  return {kinds.begin(), kinds.end()};
}

}  // namespace neuralpath::cli
