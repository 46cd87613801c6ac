// LessonSession: the learner's side of one lesson, with no drawing — what each knowledge check
// shows (choice, grade, feedback, hint, revealed answer), which reveals are open, the current
// section, and the lesson::Progress record the host stores.
//
// Clicks (the page views) and commands (App::command) call the same methods, so a click and a
// command leave the same state and queue the same events:
//   answered{check, option, correct, score, attempts}   after every graded answer
//   section{section}                                    the current section changed
//   progress{progress, completed_checks, total_checks}  after every change to the record
//   completed{score, success}                           once, when the lesson is first completed
#pragma once
#include "engine/lesson/lesson.h"
#include "engine/lesson/progress.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::ui {

// What one knowledge check shows right now.
struct CheckState {
  std::vector<int> chosen;                  // the graded choice, sorted (empty: none yet)
  std::vector<int> pending;                 // multiple answers: ticked, not yet checked
  std::optional<lesson::CheckGrade> grade;  // set once `chosen` is graded
  int attempts = 0;
  bool hint_shown = false;
  bool revealed = false;  // the answer was shown
};

// The feedback lines a graded check shows: one per chosen option, then a note on missed ones.
struct FeedbackLine {
  int option = -1;  // -1: the "you missed ..." note
  bool correct = false;
  std::string text;  // plain text of the option's feedback (or the note)
};

class LessonSession {
 public:
  using Error = std::optional<std::string>;  // nothing = done; else why it was refused

  LessonSession(const lesson::Lesson& lesson, std::string lesson_id);

  const lesson::Lesson& lesson() const { return lesson_; }

  // [SECTION] Knowledge checks
  Error answer(std::string_view check, std::vector<int> options);  // grade now (click or command)
  Error toggle_pending(std::string_view check, int option);        // multiple: tick / untick
  Error submit_pending(std::string_view check);                    // multiple: grade the ticks
  Error retry(std::string_view check);                             // clear the choice, keep attempts
  Error show_hint(std::string_view check);
  Error reveal_answer(std::string_view check);
  const CheckState* check_state(std::string_view check) const;
  // The order this learner sees the check's options in: display position -> option (an index
  // into the lesson's options, which answers, events and shared links use). A seed drawn for
  // a new learner is kept in the progress record, so a reload shows the same order.
  std::vector<int> option_order(std::string_view check) const;
  std::vector<FeedbackLine> feedback(std::string_view check) const;
  std::string feedback_text(std::string_view check) const;  // the lines joined, as shown
  // Per-check score in 0..1: 1 correct; multiple answers earn (right picks - wrong picks) /
  // correct options; a wrong single answer 0.
  double score(std::string_view check) const;

  // [SECTION] Reveals and sections
  Error set_reveal(std::string_view id, bool open);
  bool reveal_open(std::string_view id) const;
  Error enter_section(std::string_view anchor);  // the reader is now in this section
  const std::string& section() const { return section_; }
  void set_step(int step);  // playback position, kept in the progress

  // [SECTION] Progress
  // A stored progress string; unreadable -> error. What was readable is restored, and each
  // part left out (bad field, gone from the lesson) is described in *dropped.
  Error restore(std::string_view serialized, std::vector<std::string>* dropped = nullptr);
  void reset();  // forget every answer, reveal and visit
  const lesson::Progress& progress() const { return progress_; }
  lesson::ProgressSummary summary() const { return lesson::summarize(lesson_, progress_); }

  // [SECTION] State for window.neuralpath.state()
  nlohmann::json checks_json() const;    // [{id, question, multiple, options, chosen, correct, ...}]
  nlohmann::json reveals_json() const;   // [{id, open}]
  nlohmann::json progress_json() const;  // the stored record plus its summary

  std::vector<nlohmann::json> take_events();

 private:
  const lesson::Check* find(std::string_view check, Error& error) const;
  void record_changed();         // queue 'progress' (and 'completed' the first time)
  void rebuild_from_progress();  // checks and reveals as the record says

  const lesson::Lesson& lesson_;
  std::string lesson_id_;
  std::map<std::string, CheckState> checks_;
  std::string section_;
  lesson::Progress progress_;
  bool completed_sent_ = false;
  std::uint32_t drawn_order_ = 0;  // the seed drawn for this visit, kept when a record has none
  std::vector<nlohmann::json> events_;
};

}  // namespace neuralpath::ui
