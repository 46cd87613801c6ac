// progress.h: what a learner has done in one lesson, and its storage string.
//
// The web layer keeps the string (localStorage or the host's LMS) and gives it back on the
// next visit. The format is a small JSON object, stable and versioned:
//   {"v":1,"lesson":"self-attention","section":"causal-masking","visited":["a","b"],
//    "answers":{"qk-first":[0]},"reveals":["bert"],"step":3,"order":2718281828}
// "order" is the learner's own seed for the order a check shows its options in (option_order):
// answers are kept by the options' places in the lesson, whatever order they were shown in.
// Reading salvages: a record with one bad field (or written by a newer version) gives back
// every part that can be read, and lists what was left out and why, so the caller can keep the
// original aside and tell the learner. Keys this version does not know are kept and written
// back unchanged. Only a record with nothing usable (not JSON, not an object, no lesson, too
// big or too deeply nested) gives no Progress, with the reason; never a crash.
#pragma once

#include "engine/lesson/lesson.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

inline constexpr int kProgressVersion = 1;
inline constexpr std::size_t kMaxProgressBytes = 1024 * 1024;  // a lesson of 10k sections fits

struct Progress {
  std::string lesson;                               // the lesson id
  std::string section;                              // current section anchor ("" = top)
  std::set<std::string> visited;                    // section anchors seen
  std::map<std::string, std::vector<int>> answers;  // check id -> chosen options (sorted)
  std::set<std::string> reveals;                    // reveal ids opened
  int step = 0;                                     // playback position (0 = start)
  std::uint32_t order = 0;                          // the learner's option-order seed (0 = none yet)
  std::map<std::string, std::string> extra;         // unknown keys -> their JSON text, kept as found

  friend bool operator==(const Progress&, const Progress&) = default;
};

struct ProgressParse {
  std::optional<Progress> progress;  // what could be read (all of it when `dropped` is empty)
  std::string error;                 // why nothing could be read (when progress is empty)
  std::vector<std::string> dropped;  // each part left out, with the reason, in reading order
  int version = 0;                   // the record's "v" (0 when it had none)
  bool complete() const { return progress && dropped.empty(); }
};

std::string serialize_progress(const Progress& progress);
ProgressParse parse_progress(std::string_view stored);

// Learner actions. Each checks its target against the lesson and returns false (changing
// nothing) for an unknown id, anchor or option, or another answer to a committed prediction.
bool go_to_section(Progress& p, const Lesson& lesson, std::string_view anchor);
std::optional<CheckGrade> answer_check(Progress& p, const Lesson& lesson, std::string_view check_id,
                                       std::vector<int> chosen);
bool open_reveal(Progress& p, const Lesson& lesson, std::string_view reveal_id);

// Drops what no longer exists in the lesson (an author renamed a check or removed a section)
// so old progress never points at nothing; each part dropped is described in `dropped`.
Progress reconcile(const Lesson& lesson, Progress progress, std::vector<std::string>* dropped = nullptr);

struct ProgressSummary {
  int checks = 0, answered = 0, correct = 0;
  int sections = 0, visited = 0;
  double score = 1.0;      // correct / checks (1 when the lesson has no checks)
  bool completed = false;  // every section visited and every check answered
  int percent = 100;       // (visited + answered) / (sections + checks), rounded down:
                           // 100 exactly when completed
  bool success = false;    // completed with every answer correct
};
ProgressSummary summarize(const Lesson& lesson, const Progress& progress);

// The order in which a learner with seed `order` sees the `options` options of check `check_id`:
// a permutation of 0..options-1 (display position -> the option's place in the lesson), the
// same for the same seed and check on every visit and machine, and different from check to
// check. Seed 0 (none yet) keeps the lesson's order. A lesson's right answer written first is
// then not where every learner finds it (#34).
std::vector<int> option_order(std::uint32_t order, std::string_view check_id, int options);

}  // namespace neuralpath::lesson
