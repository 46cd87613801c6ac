// protocol_test.cpp: docs/protocol.md documents the whole page protocol. Every page command of
// the name table (page_commands.h), every field state() reports for every lesson (and its
// translation), and every event the page sends while a learner goes through a lesson must be
// named there in backticks; a name added without its line in the document fails here.
#include "headless.h"
#include "engine/ui/page_commands.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

const std::string& protocol() {
  static const std::string text = read_file("docs/protocol.md");
  return text;
}

// The part of protocol.md under `heading` (a "## " or "### " line), up to the next heading of
// the same or a higher level.
std::string section(const std::string& heading) {
  const std::string& text = protocol();
  const std::size_t at = text.find("\n" + heading + "\n");
  REQUIRE_MESSAGE(at != std::string::npos, "docs/protocol.md has no heading '" << heading << "'");
  const std::string level = heading.substr(0, heading.find(' ') + 1);  // "## " or "### "
  std::size_t end = text.find("\n" + level, at + 1);
  if (level == "### ") end = std::min(end, text.find("\n## ", at + 1));
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

bool names(const std::string& text, const std::string& name) {
  return text.find("`" + name + "`") != std::string::npos;
}

// Every key of `object` must be named in `where`; `what` says whose keys they are.
void documented_keys(const json& object, const std::string& where, const std::string& what,
                     std::set<std::string>& missing) {
  if (!object.is_object()) return;
  for (const auto& [key, value] : object.items())
    if (!names(where, key)) missing.insert(what + "." + key);
}

std::vector<std::string> every_lesson() {
  std::vector<std::string> files = lesson_files();
  for (const auto& entry : std::filesystem::directory_iterator("lessons/es"))
    if (entry.path().extension() == ".md") files.push_back(entry.path().string());
  return files;
}

}  // namespace

TEST_CASE("every page command of the name table is documented in docs/protocol.md") {
  const std::string commands = section("### Page commands");
  REQUIRE(!page::commands().empty());
  for (const page::CommandName& c : page::commands())
    CHECK_MESSAGE(names(commands, std::string(c.name)), std::string(c.name));
  CHECK(page::find_command("setSentence") == nullptr);  // a widget's, not the page's
}

TEST_CASE("every field state() reports for every lesson is documented in docs/protocol.md") {
  std::set<std::string> missing;
  std::set<std::string> kinds;
  for (const std::string& file : every_lesson()) {
    Headless page(1280, 800);
    page.load_file(file);
    page.frames(3);
    const json state = page.state();
    REQUIRE_MESSAGE(state["errors"].empty(), file);
    documented_keys(state, section("### Top level"), "state", missing);
    documented_keys(state["layout"], section("### `layout`"), "layout", missing);
    for (const json& s : state["sections"]) documented_keys(s, section("### Top level"), "sections[]", missing);
    for (const json& c : state["checks"]) documented_keys(c, section("### `checks[]`"), "checks[]", missing);
    for (const json& r : state["reveals"]) documented_keys(r, section("### `reveals[]`"), "reveals[]", missing);
    documented_keys(state["playback"], section("### Top level"), "playback", missing);
    documented_keys(state["progress"], section("### `progress`"), "progress", missing);
    const std::string widgets = section("### `widgets[]`");
    for (const json& w : state["widgets"]) {
      REQUIRE(w.contains("kind"));
      const std::string kind = w["kind"].get<std::string>();
      kinds.insert(kind);
      CHECK_MESSAGE(names(section("### Widget commands"), kind), "kind " << kind << " has no commands row");
      documented_keys(w, widgets, kind, missing);
    }
  }
  CHECK(kinds.size() >= 9);  // the launch lessons use nearly every kind; the check reads them all
  for (const std::string& name : missing) CHECK_MESSAGE(false, "undocumented state field " << name);
}

TEST_CASE("every event a learner's walk through the lessons sends is documented in docs/protocol.md") {
  const std::string events = section("## Events");
  std::set<std::string> missing;
  std::set<std::string> types;
  for (const std::string& file : lesson_files()) {
    Headless page(1280, 800);
    page.load_file(file);
    page.frames(2);
    walk_as_a_learner(page);
    for (const json& e : page.events()) {
      REQUIRE(e.contains("type"));
      const std::string type = e["type"].get<std::string>();
      types.insert(type);
      if (!names(events, type)) missing.insert(type);
      for (const auto& [key, value] : e.items())
        if (key != "type" && !names(events, key)) missing.insert(type + "." + key);
    }
  }
  for (const char* type : {"ready", "section", "answered", "progress", "theme", "caption", "playback"})
    CHECK_MESSAGE(types.count(type), "the walk sent no '" << type << "' event");
  for (const std::string& name : missing) CHECK_MESSAGE(false, "undocumented event " << name);
}
