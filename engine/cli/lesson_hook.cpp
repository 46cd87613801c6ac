// lesson_hook.cpp: the CLI's calls into engine/lesson (see lesson_hook.h).
#include "lesson_hook.h"

#include "engine/core/error.h"

namespace neuralpath::cli {

// The lesson library does not yet offer loading a lesson file into a ModelSpec, nor a
// validator; until it does, these say so plainly instead of pretending.
ModelSpec model_spec_from_lesson_file(const std::string& path) {
    throw InputError("--lesson " + path + ": this build has no lesson loader yet (engine/lesson)");
}

std::vector<std::string> check_lesson_files(const std::vector<std::string>& paths) {
    throw InputError("check " + paths.front() + ": this build has no lesson checker yet (engine/lesson)");
}

}  // namespace neuralpath::cli
