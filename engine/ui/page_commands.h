// page_commands.h: the commands window.neuralpath sends the page (App::command), one struct
// each, read from JSON by one table of names. docs/protocol.md documents every name here (a
// test fails on one it lacks). A message whose "type" is not in the table is a widget's
// command (setSentence, play, step, ...): the App offers it to the widgets.
//
//   name              struct             needs a lesson   reads
//   theme             SetTheme           no               dark: bool
//   reducedMotion     SetReducedMotion   no               reduce: bool
//   scrollThumb       ShowScrollThumb    no               shown: bool
//   scroll            Scroll             no               by | to (CSS px), placed?: bool
//   visible           SetVisibleBand     no               top + height (CSS px) | nothing, learner?: bool
//   goto              GotoSection        yes              section
//   answer            Answer             yes              check, option: n | [n...]
//   reveal            Reveal             yes              id, open?: bool
//   hint, retry       Hint, Retry        yes              check
//   restore           RestoreProgress    yes              progress: object | string
//   reset             Reset              yes
//   contents          OpenContents       yes              open: bool
//   snapshot          TakeSnapshot       yes
//   restoreSnapshot   RestoreSnapshot    yes              widgets: {id: snapshot}
//   nextLesson        NextLesson         yes              href, title? (the card at the lesson's end)
// A bad argument is refused with the reason (catalogue words), and the command does nothing.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace neuralpath::ui::page {

struct SetTheme {
  bool dark = false;
};
struct SetReducedMotion {
  bool reduce = false;
};
struct ShowScrollThumb {
  bool shown = true;
};
struct Scroll {
  enum class Mode { by, to, placed } mode = Mode::by;  // placed: the host moved the canvas, not a scroll
  float css_px = 0;
};
struct SetVisibleBand {
  std::optional<std::pair<float, float>> band;  // top, height in CSS px; none: all of the canvas
  bool learner = false;                         // the learner moved it (not the page settling)
};
struct GotoSection {
  std::string section;
};
struct Answer {
  std::string check;
  std::vector<int> options;
};
struct Reveal {
  std::string id;
  bool open = true;
};
struct Hint {
  std::string check;
};
struct Retry {
  std::string check;
};
struct RestoreProgress {
  std::string record;
};  // the progress record as JSON text
struct Reset {};
struct OpenContents {
  bool open = false;
};
struct TakeSnapshot {};
struct RestoreSnapshot {
  nlohmann::json widgets;
};  // an object: widget id -> its snapshot
struct NextLesson {
  std::string href, title;
};  // title "": this was the course's last lesson

using Command =
    std::variant<SetTheme, SetReducedMotion, ShowScrollThumb, Scroll, SetVisibleBand, GotoSection, Answer, Reveal, Hint,
                 Retry, RestoreProgress, Reset, OpenContents, TakeSnapshot, RestoreSnapshot, NextLesson>;

// A command, or why its arguments are refused (for the learner).
using Parsed = std::variant<Command, std::string>;

struct CommandName {
  std::string_view name;  // the message's "type"
  bool needs_lesson;      // refused while no lesson is loaded (before its arguments are read)
  Parsed (*parse)(const nlohmann::json& message);
};

std::span<const CommandName> commands();                 // the table, in the order above
const CommandName* find_command(std::string_view name);  // nullptr: a widget's command

}  // namespace neuralpath::ui::page
