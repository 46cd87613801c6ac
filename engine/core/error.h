// error.h: the one exception type engine/core throws for bad input.
//
// Every public function validates what a learner, a lesson or the CLI can get wrong (empty
// input, mismatched shapes, non-finite numbers, too many tokens) and throws InputError with a
// one-line message meant to be shown as-is. Nothing in engine/core aborts on bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace neuralpath {

class InputError : public std::invalid_argument {
 public:
  explicit InputError(const std::string& message) : std::invalid_argument(message) {}
};

}  // namespace neuralpath
