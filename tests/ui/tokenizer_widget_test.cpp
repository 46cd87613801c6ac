// tokenizer_widget_test.cpp: the tokenizer view in the page, a kind added as its folder, its view
// and its words alone: the block parses, the widget draws its chips at phone and desktop widths,
// state() carries the tokenizer's tokens, and a click on a chip opens its explanation.
#include "headless.h"

#include <doctest/doctest.h>

using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

const char* kLesson = "tests/ui/fixtures/tokenizer.md";

}  // namespace

TEST_CASE("the tokenizer view draws every token as a chip, at 375 and 1440 px, and its state is the tokenizer's") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 900, width < 500 ? 2.0f : 1.0f);
    page.load_file(kLesson);
    page.frames(4);
    const json w = with_id(page.state()["widgets"], "cut-words");
    REQUIRE(w["kind"] == "tokenizer");
    std::string joined;
    for (const json& t : w["tokens"]) joined += t["text"].get<std::string>();
    CHECK(joined == "unbelievable and undeniable");
    REQUIRE(w["layout"]["chips"].size() == w["tokens"].size());
    for (const json& chip : w["layout"]["chips"]) {
      CHECK(chip[0].get<float>() >= 0);
      CHECK(chip[0].get<float>() + chip[2].get<float>() <= width);  // every chip within the page
    }
  }
}

TEST_CASE("the tokenizer view takes its commands through the page and explains a clicked chip") {
  Headless page(1440, 900);
  page.load_file(kLesson);
  page.frames(3);
  const std::size_t all = with_id(page.state()["widgets"], "cut-words")["tokens"].size();
  REQUIRE(page.command({{"type", "setMerges"}, {"widget", "cut-words"}, {"merges", 0}})["ok"] == true);
  page.frames(2);
  json w = with_id(page.state()["widgets"], "cut-words");
  CHECK(w["tokens"].size() == std::string("unbelievable and undeniable").size());
  CHECK(w["tokens"].size() > all);
  const json chip = w["layout"]["chips"][0];
  page.click(chip[0].get<float>() + chip[2].get<float>() / 2, chip[1].get<float>() + chip[3].get<float>() / 2);
  page.frames(2);
  w = with_id(page.state()["widgets"], "cut-words");
  CHECK(!w["explained"].is_null());
}
