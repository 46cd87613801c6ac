// The train widget on the page, headless: drawn at phone and desktop widths while it trains a
// slice per frame, its explanations open from commands, and the App wants frames only while the
// model trains (so an idle page sleeps).
#include "headless.h"
#include "widgets_support.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/widgets/train/train_model.h"
#include "engine/ui/widgets/train/train_view.h"

#include <doctest/doctest.h>

#include <string>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::send;

TEST_CASE("the train widget draws every frame while it trains, at 375 and 1440 px") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    widgets_test::Headless page(width, 900);
    auto train = widgets_test::widget("train-pronoun");
    CHECK(widgets_test::draw_frames(page, *train, 2));  // before training: a spread-out spotlight
    REQUIRE(send(*train, {{"type", "train"}}) == "");
    CHECK(train->wants_another_frame());
    int frames = 0;
    while (train->wants_another_frame() && frames < 1000) {
      REQUIRE(widgets_test::draw_frames(page, *train, 1));
      ++frames;
    }
    const json s = train->state();
    CHECK(s["finished"] == true);
    CHECK(frames >= s["total_steps"].get<int>() / 2);  // two steps a frame at most: it can be watched
    REQUIRE(send(*train, {{"type", "setSentence"}, {"text", "The fox sat by the river because it was too deep."}}) ==
            "");
    REQUIRE(send(*train, {{"type", "explain"}, {"what", "loss"}}) == "");
    CHECK(widgets_test::draw_frames(page, *train, 2));
    CHECK(train->state()["explained"]["open"] == true);
    REQUIRE(send(*train, {{"type", "useTrained"}, {"trained", false}}) == "");
    CHECK(widgets_test::draw_frames(page, *train, 2));
  }
}

TEST_CASE("the App wants frames while the train widget trains, and sleeps once paused or finished") {
  neuralpath::ui::test::Headless page(1280, 800);
  page.load_file("lessons/self-attention.md");
  page.frames(3);
  CHECK_FALSE(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "train"}, {"widget", "train-pronoun"}})["ok"] == true);
  CHECK(page.app().wants_another_frame());
  page.frames(5);
  CHECK(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "pause"}, {"widget", "train-pronoun"}})["ok"] == true);
  CHECK_FALSE(page.app().wants_another_frame());
  REQUIRE(page.command({{"type", "train"}, {"widget", "train-pronoun"}})["ok"] == true);
  int frames = 0;
  for (; frames < 1000 && page.app().wants_another_frame(); ++frames) page.frames(1);
  CHECK(frames < 1000);
  CHECK_FALSE(page.app().wants_another_frame());
  // "reset" stays the App's (the learner's progress), never the widget's restart.
  REQUIRE(page.command({{"type", "reset"}})["ok"] == true);
}

// The box shows the sentence last asked for, whoever asked (a command, a shared link): refused
// ones too, so that the message under it is about what the learner sees; a sentence longer than
// the box is cut at a character's start.
TEST_CASE("the train widget's sentence box follows commands, refused sentences included") {
  using TrainWidget = neuralpath::ui::ModelViewWidget<neuralpath::widgets::TrainModel, neuralpath::ui::TrainView>;
  widgets_test::Headless page(1440, 900);
  auto widget = widgets_test::widget("train-pronoun");
  auto* train = dynamic_cast<TrainWidget*>(widget.get());
  REQUIRE(train);
  REQUIRE(widgets_test::draw_frames(page, *widget, 1));
  CHECK(std::string(train->view().sentence_box()).empty());

  const std::string fox = "The fox sat by the river because it was too deep.";
  REQUIRE(send(*widget, {{"type", "setSentence"}, {"text", fox}}) == "");
  REQUIRE(widgets_test::draw_frames(page, *widget, 1));
  CHECK(train->view().sentence_box() == fox);

  CHECK(send(*widget, {{"type", "setSentence"}, {"text", "The horse sat down."}}) != "");  // no "it"
  REQUIRE(widgets_test::draw_frames(page, *widget, 1));
  CHECK(train->view().sentence_box() == std::string("The horse sat down."));
  CHECK_FALSE(train->model().input_error().empty());
  CHECK(train->model().custom_sentence() == fox);  // the refused one replaced nothing

  std::string long_one = "it ";
  while (long_one.size() < 600) long_one += "café ";  // "é" is two bytes: some cut falls inside one
  (void)send(*widget, {{"type", "setSentence"}, {"text", long_one}});
  REQUIRE(widgets_test::draw_frames(page, *widget, 1));
  const std::string shown = train->view().sentence_box();
  CHECK(shown.size() < long_one.size());
  CHECK(long_one.compare(0, shown.size(), shown) == 0);
  CHECK((static_cast<unsigned char>(long_one[shown.size()]) & 0xC0) != 0x80);  // cut before a character

  // An emoji cannot be drawn (it would show as "?"): refused, and left out of the box.
  CHECK(send(*widget, {{"type", "setSentence"}, {"text", "The dog \xF0\x9F\x90\xB6 sat because it was tired."}}) != "");
  REQUIRE(widgets_test::draw_frames(page, *widget, 1));
  CHECK(std::string(train->view().sentence_box()).find("\xF0") == std::string::npos);
  CHECK(std::string(train->view().sentence_box()).find("sat because it was tired.") != std::string::npos);
}

// A sentence of only the query word gives one chip and no percentages; a note says why, so the
// learner is not left wondering whether the widget broke. Any other word takes the note away.
TEST_CASE("a sentence of only the query word says there is no other word to look at") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    widgets_test::Headless page(width, 900);
    auto train = widgets_test::widget("train-pronoun");
    REQUIRE(send(*train, {{"type", "setSentence"}, {"text", "it"}}) == "");
    json custom = train->state()["custom"];
    REQUIRE(custom["tokens"].size() == 1);
    CHECK(custom["top"] == -1);
    REQUIRE(custom.contains("note"));
    CHECK(custom["note"].get<std::string>().find("no other word") != std::string::npos);
    REQUIRE(widgets_test::draw_frames(page, *train, 2));
    CHECK(widgets_test::rightmost_vertex() <= width + 2);

    REQUIRE(send(*train, {{"type", "setSentence"}, {"text", "it was"}}) == "");
    custom = train->state()["custom"];
    CHECK(custom["top"] == 1);
    CHECK_FALSE(custom.contains("note"));
  }
}

TEST_CASE("a word wider than the card is cut with an ellipsis, so the train widget's chips stay inside the page") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    widgets_test::Headless page(width, 900);
    auto train = widgets_test::widget("train-pronoun");
    const std::string link = "https://example.org/" + std::string(300, 'x');
    REQUIRE(send(*train, {{"type", "setSentence"}, {"text", "The dog read " + link + " because it was bored"}}) == "");
    REQUIRE(train->state()["custom"]["tokens"].size() >= 6);
    REQUIRE(widgets_test::draw_frames(page, *train, 2));
    // Every vertex the frame drew (chips, text, card) lies within the page's width (up to a pixel
    // over: the harness window's own border line). Uncut, the link's chip reached 2,600 px.
    CHECK(widgets_test::rightmost_vertex() <= width + 2);

    // the multi-head lesson's widget: one row per word, the words in a column of their own (a
    // page tall enough to show the sentence's rows: text below the screen is not drawn at all)
    widgets_test::Headless tall(width, 3000);
    auto heads = widgets_test::widget("train-heads", "multi-head");
    REQUIRE(send(*heads, {{"type", "setSentence"}, {"text", "The " + link + " carried the bag because it was old."}}) ==
            "");
    REQUIRE(widgets_test::draw_frames(tall, *heads, 2));
    CHECK(widgets_test::rightmost_vertex() <= width + 2);
    CHECK(widgets_test::drawn_glyphs(0x2026) >= 1);
  }
}
