// check_command.cpp: `neuralpath-cli check [--kinds] FILE...`. Prints one
// "file:line:col: error: message" line per problem on stderr (where compilers print theirs, so
// editors pick them up) and exits 1 if there was any; exits 0 for clean lessons. With --kinds it
// also prints, for each file, one JSON line {"file", "kinds": [widget kinds, sorted]} on stdout
// (the site's build chooses each lesson's engine by them); without it, nothing on stdout.
#include "commands.h"
#include "lesson_hook.h"

#include "engine/core/error.h"

#include <nlohmann/json.hpp>

namespace neuralpath::cli {

int run_check(const std::vector<std::string>& args, std::string& stdout_text, std::string& stderr_text) {
  std::vector<std::string> files;
  bool kinds = false;
  for (const std::string& a : args) {
    if (a == "--kinds")
      kinds = true;
    else if (a.rfind("--", 0) == 0)
      throw InputError("check: unknown option '" + a + "'");
    else
      files.push_back(a);
  }
  if (files.empty()) throw InputError("check: give at least one lesson file");
  const std::vector<std::string> problems = check_lesson_files(files);
  stdout_text.clear();
  if (kinds)
    for (const std::string& file : files)
      stdout_text += nlohmann::json{{"file", file}, {"kinds", widget_kinds_of_lesson_file(file)}}.dump() + "\n";
  for (const std::string& line : problems) stderr_text += line + "\n";
  return problems.empty() ? 0 : 1;
}

}  // namespace neuralpath::cli
