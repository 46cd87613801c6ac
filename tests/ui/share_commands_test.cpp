// share_commands_test.cpp: what a shared link carries (issue #14). The page's "snapshot"
// command gathers the section and every changed widget; "restoreSnapshot" puts them back in a
// fresh page; the "Save image" button under a widget asks the page's JS to export it, by id.
#include "headless.h"

#include "engine/text/catalogue.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

const char* kLesson = "lessons/self-attention.md";

}  // namespace

TEST_CASE("a page snapshot reopens the section and the changed widgets in a fresh page") {
  Headless first(1280, 800);
  first.load_file(kLesson);
  first.frames(2);
  REQUIRE(first.command({{"type", "snapshot"}})["widgets"].empty());  // nothing changed yet
  REQUIRE(first.command({{"type", "goto"}, {"section", "causal-mask"}})["ok"] == true);
  REQUIRE(first.command({{"type", "setMask"}, {"mask", "none"}, {"widget", "causal-grid"}})["ok"] == true);
  REQUIRE(first.command({{"type", "stage"}, {"stage", "masked"}, {"widget", "mask-walkthrough"}})["ok"] == true);
  first.frames(1);
  const json snap = first.command({{"type", "snapshot"}});
  REQUIRE(snap["ok"] == true);
  CHECK(snap["section"] == "causal-mask");
  CHECK(snap["widgets"].size() == 2);
  CHECK(snap["widgets"].contains("causal-grid"));

  Headless second(1280, 800);
  second.load_file(kLesson);
  second.frames(2);
  CHECK(with_id(second.state()["widgets"], "causal-grid") != with_id(first.state()["widgets"], "causal-grid"));
  const json reply = second.command({{"type", "restoreSnapshot"}, {"widgets", snap["widgets"]}});
  REQUIRE(reply["ok"] == true);
  CHECK_FALSE(reply.contains("dropped"));
  second.frames(1);
  for (const char* id : {"causal-grid", "mask-walkthrough"}) {
    CAPTURE(id);
    json a = with_id(first.state()["widgets"], id), b = with_id(second.state()["widgets"], id);
    for (const char* where : {"rect", "layout"}) {  // where it is drawn depends on the scroll, not the state
      a.erase(where);
      b.erase(where);
    }
    CHECK(a == b);
  }
}

TEST_CASE("a snapshot naming an unknown widget or holding a bad state is reported, the rest restored") {
  Headless source(1280, 800);
  source.load_file(kLesson);
  source.frames(1);
  REQUIRE(source.command({{"type", "setLength"}, {"T", 5000}, {"widget", "cost"}})["ok"] == true);
  const json good = source.command({{"type", "snapshot"}})["widgets"]["cost"];
  REQUIRE(good.is_object());

  Headless page(1280, 800);
  page.load_file(kLesson);
  page.frames(1);
  const json reply = page.command(
      {{"type", "restoreSnapshot"},
       {"widgets", {{"no-such-grid", {{"mask", "none"}}}, {"causal-grid", json::array({1, 2})}, {"cost", good}}}});
  REQUIRE(reply["ok"] == true);
  REQUIRE(reply["dropped"].size() == 2);
  CHECK(reply["dropped"][0]["widget"] == "causal-grid");
  CHECK(reply["dropped"][1]["widget"] == "no-such-grid");
  CHECK(reply["dropped"][1]["error"] == "no widget has the id 'no-such-grid'");
  json restored = with_id(page.state()["widgets"], "cost"), wanted = with_id(source.state()["widgets"], "cost");
  restored.erase("rect");
  wanted.erase("rect");
  CHECK(restored == wanted);
  CHECK(page.command({{"type", "restoreSnapshot"}})["ok"] == false);
}

TEST_CASE("the buttons under a widget ask for its picture, and the heatmap's for its numbers") {
  Headless page(1280, 2400);  // tall enough that the grid and its buttons are on screen
  page.load_file(kLesson);
  REQUIRE(page.command({{"type", "goto"}, {"section", "causal-mask"}})["ok"] == true);
  page.frames(3);
  page.events();
  const json grid = with_id(page.state()["widgets"], "causal-grid");
  REQUIRE(grid["rect"].is_array());
  const float x = grid["rect"][0].get<float>() + grid["rect"][2].get<float>();
  const float below = grid["rect"][1].get<float>() + grid["rect"][3].get<float>();
  page.click(x - 8, below + 20);  // the last button on the row: the CSV
  page.frames(1);
  auto asked = page.events_of("export");
  REQUIRE(asked.size() == 1);
  CHECK(asked[0]["widget"] == "causal-grid");
  CHECK(asked[0]["format"] == "csv");
  CHECK_FALSE(asked[0].contains("block"));
  page.click(x - 160, below + 20);  // the one before it: the picture
  page.frames(1);
  asked = page.events_of("export");
  REQUIRE(asked.size() == 1);
  CHECK(asked[0]["format"] == "png");
}

TEST_CASE("the level badges and export buttons speak the page's language") {
  std::ifstream in("lessons/strings/es.strings");
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(neuralpath::use_language("es", text.str()).empty());
  Headless page(1280, 800);
  page.load_file("lessons/es/self-attention.md");
  REQUIRE(page.command({{"type", "goto"}, {"section", "causal-mask"}})["ok"] == true);
  page.frames(3);
  CHECK(neuralpath::take_missing_keys().empty());
  CHECK(neuralpath::tr("levels.Medium") == "Intermedio");
  CHECK(neuralpath::tr("share.save_image") == "Guardar imagen");
  neuralpath::use_language("en", "");
}
