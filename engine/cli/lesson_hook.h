// lesson_hook.h: the CLI's one seam to the lesson library (engine/lesson owns parsing and
// validation; the CLI only calls it). Both throw InputError with a one-line message.
#pragma once

#include "engine/core/model.h"

#include <string>
#include <vector>

namespace neuralpath::cli {

// The ModelSpec a lesson file defines (its vocabulary, weights and settings).
ModelSpec model_spec_from_lesson_file(const std::string& path);

// One "file:line:col: error: message" line per problem found in the given lesson files.
std::vector<std::string> check_lesson_files(const std::vector<std::string>& paths);

}  // namespace neuralpath::cli
