// check_command.cpp: `neuralpath-cli check FILE...`. Prints one "file:line:col: error: message"
// line per problem on stderr (where compilers print theirs, so editors pick them up) and
// exits 1 if there was any; prints nothing and exits 0 for clean lessons.
#include "commands.h"
#include "lesson_hook.h"

#include "engine/core/error.h"

namespace neuralpath::cli {

int run_check(const std::vector<std::string>& args, std::string& stdout_text, std::string& stderr_text) {
  if (args.empty()) throw InputError("check: give at least one lesson file");
  for (const std::string& a : args)
    if (a.rfind("--", 0) == 0) throw InputError("check: unknown option '" + a + "'");
  const std::vector<std::string> problems = check_lesson_files(args);
  stdout_text.clear();
  for (const std::string& line : problems) stderr_text += line + "\n";
  return problems.empty() ? 0 : 1;
}

}  // namespace neuralpath::cli
