// lesson_hook.cpp: the CLI's calls into engine/lesson (see lesson_hook.h).
#include "lesson_hook.h"

#include "engine/core/error.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"

namespace neuralpath::cli {

ModelSpec model_spec_from_lesson_file(const std::string& path) {
    const lesson::LoadResult loaded = lesson::load_lesson_file(path);
    if (!loaded.ok()) {
        // One line: the first problem, and how many more `check` would list.
        std::string message = loaded.diagnostics.empty() ? path + ": the lesson could not be loaded"
                                                         : loaded.diagnostics.front().to_string();
        if (loaded.diagnostics.size() > 1)
            message += " (and " + std::to_string(loaded.diagnostics.size() - 1) + " more; run: neuralpath-cli check " +
                       path + ")";
        throw InputError(message);
    }
    return lesson::model_spec_for(*loaded.lesson);
}

std::vector<std::string> check_lesson_files(const std::vector<std::string>& paths) {
    std::vector<std::string> lines;
    for (const std::string& path : paths)
        for (const lesson::Diagnostic& d : lesson::check_lesson_file(path)) lines.push_back(d.to_string());
    return lines;
}

}  // namespace neuralpath::cli
