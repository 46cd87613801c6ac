// page_limits.cpp: the limits the page's scripts check first (page_limits.h).
#include "engine/ui/page_limits.h"

#include "engine/lesson/limits.h"
#include "engine/lesson/progress.h"

#include <nlohmann/json.hpp>

namespace neuralpath::ui {

std::string page_limits_json() {
  return nlohmann::json{{"lesson_bytes", lesson::kMaxLessonBytes},   {"command_bytes", kMaxCommandBytes},
                        {"record_bytes", lesson::kMaxProgressBytes}, {"sentence_bytes", lesson::kMaxSentenceBytes},
                        {"json_depth", kMaxCommandNesting},          {"shared_state_chars", kMaxSharedStateChars},
                        {"shared_state_bytes", kMaxSharedStateBytes}}
      .dump();
}

}  // namespace neuralpath::ui
