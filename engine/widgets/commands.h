// commands.h: the commands several kinds take, with one meaning each. A kind names the ones it
// takes in its Command variant beside its own, and its parse() reads them:
//
//   SetSentence{text}     setSentence{text}: run this sentence (or prompt, or text)
//   SetHead{head}         setHead{head}: show this head
//   SelectCell{cell}      selectCell{row, col}: select this cell of the grid on screen
//   SetStage<Stage>       stage{stage: name|index}: a step-through's stage (step_through.h)
//   LoadModel, Train, Pause, Stop, Restart    loadModel, train, pause, stop, restart
//
//   parse_set_sentence<Command>(message)   setSentence{text} as the kind's Command, or the refusal
#pragma once
#include "engine/trace/trace.h"
#include "engine/text/catalogue.h"
#include "engine/widgets/command_result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <variant>

namespace neuralpath::widgets {

struct SetSentence {
  std::string text;
};
struct SetHead {
  int head = 0;  // the spotlight reads -1 as the mean over heads
};
struct SelectCell {
  Cell cell;
};
template <class Stage>
struct SetStage {  // by index, or by name when `stage` is set
  int index = -1;
  std::optional<Stage> stage;
};
struct LoadModel {};  // fetch the kind's language model (language_models.h)
struct Train {};
struct Pause {};
struct Stop {};
struct Restart {};

template <class Command>
std::variant<Command, CommandResult> parse_set_sentence(const nlohmann::json& message) {
  if (!message.contains("text") || !message["text"].is_string()) return CommandResult(tr("widgets.needs_text"));
  return Command(SetSentence{message["text"].get<std::string>()});
}

}  // namespace neuralpath::widgets
