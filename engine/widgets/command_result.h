// command_result.h: what a widget made of a command, and the helpers that read commands —
// shared by the widget models (no ImGui) and the Widget seam (widget.h).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace neuralpath::widgets {

// What a widget made of a command. A refusal changes nothing and says why (for the learner);
// "not taken" means the command is not one of this kind's, so the App offers it to the next
// widget. A reason converts to a refusal and std::nullopt to done, so a model's
// std::optional<std::string> (its error, if any) reads as a result.
class CommandResult {
 public:
  enum class Outcome { done, refused, not_taken };

  CommandResult(std::nullopt_t = std::nullopt) {}
  CommandResult(std::string reason) : outcome_(Outcome::refused), reason_(std::move(reason)) {}
  CommandResult(const char* reason) : CommandResult(std::string(reason)) {}
  CommandResult(std::optional<std::string> error) {
    if (error) *this = CommandResult(std::move(*error));
  }
  static CommandResult not_taken(const std::string& type);

  Outcome outcome() const { return outcome_; }
  bool done() const { return outcome_ == Outcome::done; }
  const std::string& reason() const { return reason_; }  // empty when done

 private:
  Outcome outcome_ = Outcome::done;
  std::string reason_;
};

// An integer field of a command ({"head": 1}), or nothing when absent or not an integer.
inline std::optional<int> int_field(const nlohmann::json& message, const char* name) {
  if (!message.contains(name) || !message[name].is_number_integer()) return std::nullopt;
  return message[name].get<int>();
}

// A command of one value read from the message (int_field(), a number in range, ...): the
// command `Part{*value}`, or `refusal` when the message did not give the value.
template <class Command, class Part, class Value>
std::variant<Command, CommandResult> command_with(const std::optional<Value>& value, CommandResult refusal) {
  if (!value) return refusal;
  return Command(Part{*value});
}

}  // namespace neuralpath::widgets
