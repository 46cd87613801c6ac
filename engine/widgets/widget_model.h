// widget_model.h: what a widget kind's model is, said once. A model holds a widget's state
// (settings, sentence, the engine's results, selection) with no ImGui: the UI draws it as a
// const object (engine/ui/widgets/model_view_widget.h), and what the learner or the page's
// JavaScript asks for comes back as the model's typed commands.
//
//   kKind, Settings             "heatmap"; the settings its block parses into
//   Command                     a std::variant of the kind's typed commands
//   parse(json) -> variant<Command, CommandResult>   a JSON command, or why it is refused
//   apply(Command) -> CommandResult                  a refusal changes nothing and says why
//   update(dt)                  work done with time alone (a training run); default nothing
//   take_explanation()          an explanation a command asked to open ("explain")
//   take_events()               events for the page's host since the last call
//   state(), snapshot(), restore(json)   the numbers on screen; what a shared link reopens
//   summary()                   the text version's sentence about the numbers
//   describe(settings, json&)  static: what the author set up and the choices the text version
//                              offers before the first frame (document_json's widget block,
//                              docs/protocol.md); widget_kinds.h calls it; choice() and
//                              choices() make its buttons
//
// NEURALPATH_WIDGET_MODEL_MEMBERS (below) declares the members every model defines, so that a
// model's header shows only what is its own: its commands, constructor and view accessors.
//
// This header brings what every model header needs (CommandResult, Explanation, the shared
// commands, lesson::Inline, json, optional, string, variant, vector). WidgetModelBase<Settings>
// keeps what every kind keeps the same way (its settings and caption, why the learner's last
// input was refused, its events, the asked explanation) and gives the defaults: no work with
// time, the events in events_ until the page takes them, the explanation in to_explain_ until
// the view takes it.
#pragma once
#include "engine/lesson/lesson.h"
#include "engine/widgets/command_result.h"
#include "engine/widgets/commands.h"
#include "engine/widgets/explanation.h"

#include <nlohmann/json.hpp>

#include <concepts>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace neuralpath::widgets {

template <class M>
concept WidgetModel = requires(M model, const M& shown, const nlohmann::json& message,
                               const typename M::Command& command) {
  { M::kKind } -> std::convertible_to<const char*>;
  typename M::Settings;
  { M::parse(message) } -> std::same_as<std::variant<typename M::Command, CommandResult>>;
  { model.apply(command) } -> std::same_as<CommandResult>;
  model.update(0.0f);
  { model.take_explanation() } -> std::same_as<std::optional<Explanation>>;
  { model.take_events() } -> std::same_as<std::vector<nlohmann::json>>;
  { shown.state() } -> std::same_as<nlohmann::json>;
  { shown.snapshot() } -> std::same_as<nlohmann::json>;
  { model.restore(message) } -> std::same_as<CommandResult>;
};

// The text version's buttons before the first frame (describe()'s "choices"): a labelled group,
// and each button's label, the command it sends and, when given, the state() values under which
// it shows as chosen.
inline nlohmann::json choice(std::string label, nlohmann::json command, nlohmann::json when = nullptr) {
  nlohmann::json item = {{"label", std::move(label)}, {"command", std::move(command)}};
  if (!when.is_null()) item["when"] = std::move(when);
  return item;
}
inline nlohmann::json choices(std::string label, nlohmann::json items) {
  return {{"label", std::move(label)}, {"items", std::move(items)}};
}

// The members every model defines, declared once. A model's class puts it in its public part,
// after `using Command = ...`; its .cpp defines each of them, and the WidgetModel concept above
// checks the signatures wherever a kind is registered. What differs from kind to kind (the
// constructor, update() and wants_another_frame() for models that work with time, the accessors
// for the view) the class declares itself.
#define NEURALPATH_WIDGET_MODEL_MEMBERS                                             \
  static std::variant<Command, CommandResult> parse(const nlohmann::json& message); \
  static void describe(const Settings& settings, nlohmann::json& out);              \
  CommandResult apply(const Command& command);                                      \
  nlohmann::json state() const;                                                     \
  nlohmann::json snapshot() const;                                                  \
  CommandResult restore(const nlohmann::json& snapshot);                            \
  std::string summary() const /* the text version's sentence about the numbers */

template <class SettingsType>
class WidgetModelBase {
 public:
  using Settings = SettingsType;

  void update(float /*dt*/) {}
  std::vector<nlohmann::json> take_events() { return std::exchange(events_, {}); }
  std::optional<Explanation> take_explanation() { return std::exchange(to_explain_, std::nullopt); }

  const Settings& settings() const { return settings_; }
  const lesson::Inline& caption() const { return caption_; }
  const std::string& input_error() const { return input_error_; }  // why the learner's last input was refused, or ""

 protected:
  WidgetModelBase(const Settings& settings, const lesson::Inline& caption) : settings_(settings), caption_(caption) {}

  // The result of the learner's own input (a sentence typed in): a refusal is kept as
  // input_error_ for the view to show beside the box, and success clears the last one.
  CommandResult keep_input_error(std::optional<std::string> problem) {
    input_error_ = problem.value_or("");
    return problem;
  }

  Settings settings_;
  lesson::Inline caption_;
  std::string input_error_;
  std::vector<nlohmann::json> events_;     // for the page's host, until take_events()
  std::optional<Explanation> to_explain_;  // set by an "explain" command, until the view takes it
};

}  // namespace neuralpath::widgets
