// progress.h: what a learner has done in one lesson, and its storage string.
//
// The web layer keeps the string (localStorage or the host's LMS) and gives it back on the
// next visit. The format is a small JSON object, stable and versioned:
//   {"v":1,"lesson":"self-attention","section":"causal-masking","visited":["a","b"],
//    "answers":{"qk-first":[0]},"reveals":["bert"],"step":3}
// Anything unexpected in a stored string (corrupt, truncated, from a newer version, too big)
// gives an error message and no Progress, never a crash; callers then start fresh.
#pragma once

#include "engine/lesson/lesson.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

inline constexpr int         kProgressVersion = 1;
inline constexpr std::size_t kMaxProgressBytes = 64 * 1024;

struct Progress {
    std::string                             lesson;    // the lesson id
    std::string                             section;   // current section anchor ("" = top)
    std::set<std::string>                   visited;   // section anchors seen
    std::map<std::string, std::vector<int>> answers;   // check id -> chosen options (sorted)
    std::set<std::string>                   reveals;   // reveal ids opened
    int                                     step = 0;  // playback position (0 = start)

    friend bool operator==(const Progress&, const Progress&) = default;
};

struct ProgressParse {
    std::optional<Progress> progress;
    std::string             error;     // set when progress is empty
};

std::string   serialize_progress(const Progress& progress);
ProgressParse parse_progress(std::string_view stored);

// Learner actions. Each checks its target against the lesson and returns false (changing
// nothing) for an unknown id, anchor or option.
bool go_to_section(Progress& p, const Lesson& lesson, std::string_view anchor);
std::optional<CheckGrade> answer_check(Progress& p, const Lesson& lesson, std::string_view check_id,
                                       std::vector<int> chosen);
bool open_reveal(Progress& p, const Lesson& lesson, std::string_view reveal_id);

// Drops what no longer exists in the lesson (an author renamed a check or removed a section)
// so old progress never points at nothing.
Progress reconcile(const Lesson& lesson, Progress progress);

struct ProgressSummary {
    int    checks = 0, answered = 0, correct = 0;
    int    sections = 0, visited = 0;
    double score = 1.0;                // correct / checks (1 when the lesson has no checks)
    bool   completed = false;          // every section visited and every check answered
    bool   success = false;            // completed with every answer correct
};
ProgressSummary summarize(const Lesson& lesson, const Progress& progress);

}  // namespace neuralpath::lesson
