// protocol_dump: writes what the engine hands the page, for every lesson in both languages, as
// JSON files a Node test validates against the shell's one list of the fields it reads
// (web/shell/np-protocol.js, tests/protocol/protocol.test.mjs). No browser: the App runs
// headless, as in the UI suites.
//
//   NP_PROTOCOL_OUT=OUT_DIR protocol_dump    (run from the repository's root; a doctest program)
//     OUT_DIR/engine.json              {"limits": np_limits, "counts": [{lang, key, n, text}],
//                                       "broken": {"state"} (a lesson with errors)}
//     OUT_DIR/<lang>/<lesson>.json     {"lesson", "lang", "state" (just loaded), "document",
//                                       "events" (a scripted walk's), "walked" (state() after it),
//                                       "snapshot" (the snapshot command's reply)}
#include "headless.h"
#include "engine/text/catalogue.h"
#include "engine/ui/page_limits.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)
namespace fs = std::filesystem;

namespace {

// The lessons of one language: English in lessons/, a translation in lessons/<lang>/.
std::vector<std::string> lessons_of(const std::string& lang) {
  if (lang == "en") return lesson_files();
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator("lessons/" + lang))
    if (entry.path().extension() == ".md") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A learner's first visit (walk_as_a_learner), then the transport paused: the events it sent,
// in the order the page's modules see them.
json walk(Headless& page) {
  walk_as_a_learner(page);
  page.command({{"type", "pause"}});
  page.frames(1);
  json events = json::array();
  for (json& e : page.events()) events.push_back(std::move(e));
  return events;
}

void write(const fs::path& path, const json& value) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << value.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
}

// A count's words in this language, as the engine's tr_n picks the form: the page's copy of the
// rule (web/shell/np-strings.js countKey) must print the same.
json counts(const std::string& lang) {
  json out = json::array();
  for (long long n : {0, 1, 2, 5, 11, 21})
    out.push_back({{"lang", lang},
                   {"key", "mirror.progress"},
                   {"n", n},
                   {"text", neuralpath::tr_n("mirror.progress", n, {{"done", "0"}, {"total", std::to_string(n)}})}});
  return out;
}

}  // namespace

TEST_CASE("the state, document and events of every lesson in both languages, written for the Node test") {
  const char* where = std::getenv("NP_PROTOCOL_OUT");
  REQUIRE_MESSAGE(where != nullptr, "NP_PROTOCOL_OUT names the folder the dumps go to");
  const fs::path out = where;
  json engine = {{"limits", json::parse(page_limits_json())}, {"counts", json::array()}};
  int written = 0;
  for (const std::string lang : {"en", "es"}) {
    if (lang != "en") {
      const std::vector<neuralpath::Catalogue::Problem> problems =
          neuralpath::use_language(lang, read_file("lessons/strings/" + lang + ".strings"));
      REQUIRE_MESSAGE(problems.empty(), "lessons/strings/" << lang << ".strings has problems");
    }
    for (json& c : counts(lang)) engine["counts"].push_back(std::move(c));
    for (const std::string& file : lessons_of(lang)) {
      Headless page(1280, 800);
      page.load_file(file);
      page.frames(3);
      REQUIRE_MESSAGE(page.state()["errors"].empty(), file);
      const std::string id = fs::path(file).stem().string();
      json dump = {{"lesson", id},
                   {"lang", lang},
                   {"state", page.state()},
                   {"document", json::parse(page.app().document_json())}};
      json events = json::array();  // the load's own (ready, section, progress), then the walk's
      for (json& e : page.events()) events.push_back(std::move(e));
      dump["snapshot"] = page.command({{"type", "snapshot"}});
      for (json& e : walk(page)) events.push_back(std::move(e));
      dump["events"] = std::move(events);
      dump["walked"] = page.state();
      write(out / lang / (id + ".json"), dump);
      ++written;
    }
    neuralpath::use_language("en", "");
  }
  // A lesson that does not load: the page still reads its state (errors, no sections, no progress).
  Headless broken(1280, 800);
  broken.load("broken", "---\nid: broken\ntitle: Broken\n---\n\n## One\n\n```heatmap\nsentence: zzyzx qwv\n```\n");
  broken.frames(2);
  REQUIRE(!broken.state()["errors"].empty());
  engine["broken"] = {{"state", broken.state()}};
  write(out / "engine.json", engine);
  MESSAGE("protocol_dump: " << written << " lessons written to " << out.string());
  CHECK(written >= 8);  // five English lessons and their translations
}
