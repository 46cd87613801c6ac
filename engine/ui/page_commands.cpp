// page_commands.cpp: each page command's JSON read into its struct (page_commands.h). The
// reasons are the catalogue's words (commands.* in lessons/strings/en.strings).
#include "engine/ui/page_commands.h"

#include "engine/text/catalogue.h"

namespace neuralpath::ui::page {

using nlohmann::json;

namespace {

// {"key": true|false}, or the refusal naming the command and the key.
std::optional<bool> flag(const json& message, const char* command, const char* key, std::string& error) {
  if (!message.contains(key) || !message[key].is_boolean()) {
    error = tr("commands.needs_flag", {{"command", command}, {"key", key}});
    return std::nullopt;
  }
  return message[key].get<bool>();
}

// A non-empty text field, or the refusal naming it.
std::optional<std::string> text(const json& message, const char* key, std::string& error) {
  if (!message.contains(key) || !message[key].is_string() || message[key].get<std::string>().empty()) {
    error = tr("commands.needs_text", {{"key", key}});
    return std::nullopt;
  }
  return message[key].get<std::string>();
}

// An optional boolean field: absent is `otherwise`; true only when it is the boolean true.
bool optional_true(const json& message, const char* key) {
  return message.contains(key) && message[key].is_boolean() && message[key].get<bool>();
}

// "option": 2 or [0, 2] -> {2} / {0, 2}; anything else is refused.
std::optional<std::vector<int>> options_of(const json& value, std::string& error) {
  std::vector<int> out;
  auto one = [&](const json& v) {
    if (!v.is_number_integer()) return false;
    out.push_back(v.get<int>());
    return true;
  };
  if (value.is_array()) {
    for (const json& v : value)
      if (!one(v)) {
        error = tr("commands.option_not_whole");
        return std::nullopt;
      }
  } else if (!one(value)) {
    error = tr("commands.option_what");
    return std::nullopt;
  }
  return out;
}

// Reads a command whose only argument is one flag.
template <class C, auto member>
Parsed flag_command(const json& message, const char* command, const char* key) {
  std::string error;
  const std::optional<bool> value = flag(message, command, key, error);
  if (!value) return error;
  C c;
  c.*member = *value;
  return Command(c);
}

// Reads a command whose only argument is one text field.
template <class C, auto member>
Parsed text_command(const json& message, const char* key) {
  std::string error;
  std::optional<std::string> value = text(message, key, error);
  if (!value) return error;
  C c;
  c.*member = std::move(*value);
  return Command(std::move(c));
}

Parsed scroll(const json& message) {
  const bool by = message.contains("by"), to = message.contains("to");
  if (by == to || !message[by ? "by" : "to"].is_number()) return tr("commands.scroll_needs");
  Scroll s;
  s.css_px = message[by ? "by" : "to"].get<float>();
  s.mode = by ? Scroll::Mode::by : optional_true(message, "placed") ? Scroll::Mode::placed : Scroll::Mode::to;
  return Command(s);
}

Parsed visible(const json& message) {
  const bool band = message.contains("top") || message.contains("height");
  if (band && !(message.contains("top") && message["top"].is_number() && message.contains("height") &&
                message["height"].is_number() && message["height"].get<double>() >= 0))
    return tr("commands.visible_needs");
  SetVisibleBand v;
  if (band) v.band = std::make_pair(message["top"].get<float>(), message["height"].get<float>());
  v.learner = optional_true(message, "learner");
  return Command(v);
}

Parsed answer(const json& message) {
  std::string error;
  std::optional<std::string> check = text(message, "check", error);
  if (!check) return error;
  if (!message.contains("option")) return tr("commands.answer_needs");
  std::optional<std::vector<int>> options = options_of(message["option"], error);
  if (!options) return error;
  return Command(Answer{std::move(*check), std::move(*options)});
}

Parsed reveal(const json& message) {
  std::string error;
  std::optional<std::string> id = text(message, "id", error);
  if (!id) return error;
  if (message.contains("open") && !message["open"].is_boolean()) return tr("commands.open_flag");
  return Command(Reveal{std::move(*id), message.value("open", true)});
}

Parsed restore(const json& message) {
  if (!message.contains("progress")) return tr("commands.restore_needs");
  const json& saved = message["progress"];
  if (!saved.is_string() && !saved.is_object()) return tr("commands.progress_what");
  return Command(RestoreProgress{saved.is_string() ? saved.get<std::string>() : saved.dump()});
}

// {"href": text, "title"?: text}: the course's next lesson, for the card at the lesson's end (an
// empty title: this was the last lesson, and href leads to the list).
Parsed next_lesson(const json& message) {
  if (!message.contains("href") || !message["href"].is_string() ||
      (message.contains("title") && !message["title"].is_string()))
    return tr("commands.next_lesson_needs");
  return Command(NextLesson{message["href"].get<std::string>(), message.value("title", std::string())});
}

Parsed restore_snapshot(const json& message) {
  if (!message.contains("widgets") || !message["widgets"].is_object()) return tr("share.restore_needs");
  return Command(RestoreSnapshot{message["widgets"]});
}

const CommandName kCommands[] = {
    {"theme", false, [](const json& m) { return flag_command<SetTheme, &SetTheme::dark>(m, "theme", "dark"); }},
    {"reducedMotion", false,
     [](const json& m) {
       return flag_command<SetReducedMotion, &SetReducedMotion::reduce>(m, "reducedMotion", "reduce");
     }},
    {"scrollThumb", false,
     [](const json& m) { return flag_command<ShowScrollThumb, &ShowScrollThumb::shown>(m, "scrollThumb", "shown"); }},
    {"scroll", false, scroll},
    {"visible", false, visible},
    {"goto", true, [](const json& m) { return text_command<GotoSection, &GotoSection::section>(m, "section"); }},
    {"answer", true, answer},
    {"reveal", true, reveal},
    {"hint", true, [](const json& m) { return text_command<Hint, &Hint::check>(m, "check"); }},
    {"retry", true, [](const json& m) { return text_command<Retry, &Retry::check>(m, "check"); }},
    {"restore", true, restore},
    {"reset", true, [](const json&) { return Parsed(Command(Reset{})); }},
    {"contents", true,
     [](const json& m) { return flag_command<OpenContents, &OpenContents::open>(m, "contents", "open"); }},
    {"snapshot", true, [](const json&) { return Parsed(Command(TakeSnapshot{})); }},
    {"restoreSnapshot", true, restore_snapshot},
    {"nextLesson", true, next_lesson},
};

}  // namespace

std::span<const CommandName> commands() { return kCommands; }

const CommandName* find_command(std::string_view name) {
  for (const CommandName& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace neuralpath::ui::page
