// The spotlight as a learner uses it: where "it" looks in sentence A and B, the weighted sum,
// the learner's own sentence (and what happens when it is bad), drawn at every page width.
#include "widgets_support.h"

#include "engine/ui/widgets/kit.h"
#include "engine/widgets/spotlight/spotlight_settings.h"

#include "engine/text/format.h"
#include "engine/lesson/model_spec.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;
using widgets_test::send;

namespace {
const char* kTired = "The animal didn't cross the street because it was too tired.";
const char* kWide = "The animal didn't cross the street because it was too wide.";
}  // namespace

TEST_CASE("the spotlight shows 'it' looking at 'animal' when tired and at 'street' when wide") {
  auto spotlight = widgets_test::widget("it-spotlight");
  json s = spotlight->state();
  CHECK(s["kind"] == "spotlight");
  CHECK(s["sentence"] == kTired);
  CHECK(s["query"] == "it");
  CHECK(s["top"]["token"] == "animal");

  CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", kWide}}) == "");
  s = spotlight->state();
  CHECK(s["sentence"] == kWide);
  CHECK(s["query"] == "it");
  CHECK(s["top"]["token"] == "street");
  CHECK(s["custom"] == false);  // one of the block's own sentences, not the learner's
}

TEST_CASE("the spotlight's weights are the engine's, for every sentence the block offers") {
  const auto& block = widgets_test::settings<widgets::SpotlightSettings>("it-spotlight");
  auto spotlight = widgets_test::widget("it-spotlight");
  std::vector<std::string> sentences = {block.sentence};
  sentences.insert(sentences.end(), block.alternatives.begin(), block.alternatives.end());
  for (const std::string& sentence : sentences) {
    CAPTURE(sentence);
    REQUIRE(send(*spotlight, {{"type", "setSentence"}, {"text", sentence}}) == "");
    const auto engine = lesson::spotlight_weights(widgets_test::lesson(), sentence, block.query);
    REQUIRE(engine);
    const json s = spotlight->state();
    REQUIRE(s["weights"].size() == engine->weights.size());
    for (std::size_t j = 0; j < engine->weights.size(); ++j) CHECK(s["weights"][j].get<float>() == engine->weights[j]);
    CHECK(s["query_index"] == engine->query);
    CHECK(s["top"]["index"] == engine->top);
    CHECK(s["tokens"] == json(engine->tokens));
  }
}

TEST_CASE("the new vector is written as the engine's weighted sum: top terms plus the rest") {
  auto spotlight = widgets_test::widget("it-spotlight");
  const json s = spotlight->state();
  const json& blend = s["blend"];
  REQUIRE(blend.size() >= 2);
  CHECK(blend[0]["token"] == "animal");
  CHECK(blend[0]["weight"].get<float>() == s["weights"][s["top"]["index"].get<int>()].get<float>());
  float total = 0;
  for (const json& term : blend) total += term["weight"].get<float>();
  CHECK(total == doctest::Approx(1.0f).epsilon(1e-5));
  const json& last = blend.back();
  CHECK(last["token"] == "others");
  CHECK(last["count"].get<int>() >= 1);
  // The vector itself is the blend step's row for "it" (one head: exactly the new vector).
  REQUIRE(s.contains("vector"));
  CHECK(s["vector"].size() == 8);
}

TEST_CASE("picking another query word recomputes the spotlight from the same run") {
  auto spotlight = widgets_test::widget("it-spotlight");
  CHECK(send(*spotlight, {{"type", "setQuery"}, {"query", "tired"}}) == "");
  json s = spotlight->state();
  CHECK(s["query"] == "tired");
  float total = 0;
  for (const json& w : s["weights"]) total += w.get<float>();
  CHECK(total == doctest::Approx(1.0f).epsilon(1e-5));
  CHECK(send(*spotlight, {{"type", "setQuery"}, {"query", 1}}) == "");
  CHECK(spotlight->state()["query"] == "animal");
  CHECK(send(*spotlight, {{"type", "setQuery"}, {"query", "zebra"}}) != "");
  CHECK(send(*spotlight, {{"type", "setQuery"}, {"query", 99}}) != "");
  CHECK(spotlight->state()["query"] == "animal");  // a refused command changes nothing
}

TEST_CASE("the learner's own sentence recomputes, and unknown words are marked as seeded") {
  auto spotlight = widgets_test::widget("it-spotlight");
  CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", "The zebra crossed the road because it was sleepy"}}) ==
        "");
  const json s = spotlight->state();
  CHECK(s["custom"] == true);
  CHECK(s["query"] == "it");
  CHECK(s["seeded"] == json({"zebra", "crossed"}));
  CHECK(s["sentences"].back() == "The zebra crossed the road because it was sleepy");
}

TEST_CASE("bad sentences get a clear message and the spotlight keeps what it showed") {
  auto spotlight = widgets_test::widget("it-spotlight");
  const json before = spotlight->state();
  std::string long_sentence;
  for (int i = 0; i < 60; ++i) long_sentence += "word ";
  const std::string empty = send(*spotlight, {{"type", "setSentence"}, {"text", "   "}});
  CHECK(empty.find("Type a sentence") != std::string::npos);
  const std::string too_long = send(*spotlight, {{"type", "setSentence"}, {"text", long_sentence}});
  CHECK(too_long.find("60 tokens") != std::string::npos);
  CHECK(too_long.find("at most 48") != std::string::npos);
  const std::string invalid = send(*spotlight, {{"type", "setSentence"}, {"text", "caf\xC3"}});
  CHECK(invalid.find("UTF-8") != std::string::npos);
  CHECK(send(*spotlight, {{"type", "setSentence"}}) != "");
  CHECK(send(*spotlight, {{"type", "dance"}}) != "");
  const json after = spotlight->state();
  CHECK(after["weights"] == before["weights"]);
  CHECK(after["sentence"] == before["sentence"]);
}

TEST_CASE(
    "after a refusal the sentence box holds the refused sentence beside its message, and a chosen sentence clears "
    "both") {
  Headless page(375, 900);
  auto spotlight = widgets_test::widget("it-spotlight");
  const auto box = [&] {
    REQUIRE(widgets_test::draw_frames(page, *spotlight, 2));
    return spotlight->state()["layout"]["field"].get<std::string>();
  };
  CHECK(box() == kTired);
  // A command's sentence, not only a typed one: the box showed the old sentence beside "Type a sentence first".
  CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", ""}}).find("Type a sentence") != std::string::npos);
  CHECK(box() == "");
  CHECK(spotlight->state()["sentence"] == kTired);  // the spotlight keeps what it showed
  CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", "the cat 🙂 saw it"}}) != "");
  CHECK(box() == "the cat saw it");  // what the fonts cannot draw is left out of the box, never a "?"
  std::string long_sentence;
  for (int i = 0; i < 60; ++i) long_sentence += "word ";
  CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", long_sentence}}).find("60 tokens") != std::string::npos);
  CHECK(box() == long_sentence);
  // Choosing the sentence already shown puts it back in the box; choosing B puts B there. The
  // refusal's message goes with the refused text.
  CHECK(send(*spotlight, {{"type", "chooseSentence"}, {"index", 0}}) == "");
  CHECK(box() == kTired);
  CHECK_FALSE(spotlight->state().contains("input_error"));
  CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", ""}}) != "");
  CHECK(send(*spotlight, {{"type", "chooseSentence"}, {"index", 1}}) == "");
  CHECK(box() == kWide);
  CHECK_FALSE(spotlight->state().contains("input_error"));
}

TEST_CASE("each weight explains how the engine made it") {
  auto spotlight = widgets_test::widget("it-spotlight");
  CHECK(spotlight->state()["explained"]["open"] == false);
  CHECK(send(*spotlight, {{"type", "explain"}, {"token", "animal"}}) == "");
  const json e = spotlight->state()["explained"];
  CHECK(e["open"] == true);
  CHECK(e["title"].get<std::string>().find("'animal'") != std::string::npos);
  const std::string weight = format_percent(spotlight->state()["weights"][1].get<float>());
  CHECK(e["title"].get<std::string>().find(weight) != std::string::npos);
  std::vector<std::string> inputs;
  for (const json& in : e["inputs"]) inputs.push_back(in["name"]);
  CHECK(inputs == std::vector<std::string>{"q·k", "scaled s", "exp(s − max)", "1 / Σ exp(s − max) over the row"});
  CHECK(e["text"].get<std::string>().find("Softmax") != std::string::npos);
  const auto events = spotlight->take_events();
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "explain");
}

TEST_CASE("the spotlight draws for many frames at 375, 768 and 1440 px, light and dark, while switching") {
  for (const float width : {375.0f, 768.0f, 1440.0f}) {
    for (const auto theme : {ui::Theme::light, ui::Theme::dark}) {
      CAPTURE(width);
      Headless page(width, 900);
      REQUIRE(page.font_error.empty());
      page.ui.theme = theme;
      auto spotlight = widgets_test::widget("it-spotlight");
      CHECK(widgets_test::draw_frames(page, *spotlight, 10));
      CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", kWide}}) == "");
      CHECK(widgets_test::draw_frames(page, *spotlight, 40));  // the swing
      CHECK(send(*spotlight, {{"type", "explain"}, {"token", "street"}}) == "");
      CHECK(widgets_test::draw_frames(page, *spotlight, 5));  // with its popup open
      CHECK(send(*spotlight, {{"type", "setSentence"}, {"text", "Sam thinks the café is busy"}}) == "");
      CHECK(widgets_test::draw_frames(page, *spotlight, 10));
    }
  }
  Headless hidpi(390 * 3, 844 * 3, 3.0f);  // a 390 px phone at device pixel ratio 3
  hidpi.ui.reduced_motion = true;
  auto spotlight = widgets_test::widget("it-spotlight");
  CHECK(widgets_test::draw_frames(hidpi, *spotlight, 10));
}

namespace {
// How far a point is outside a [x, y, w, h] rectangle (0 inside it).
float distance_to(const json& rect, float x, float y) {
  const float x0 = rect[0].get<float>(), y0 = rect[1].get<float>();
  const float dx = std::max({x0 - x, 0.0f, x - (x0 + rect[2].get<float>())});
  const float dy = std::max({y0 - y, 0.0f, y - (y0 + rect[3].get<float>())});
  return std::sqrt(dx * dx + dy * dy);
}
}  // namespace

TEST_CASE("on a phone no beam covers the percentage of the word it ends at or starts from, in every sentence") {
  const auto& block = widgets_test::settings<widgets::SpotlightSettings>("it-spotlight");
  for (const float scale : {2.0f, 3.0f}) {
    CAPTURE(scale);
    Headless phone(375 * scale, 740 * scale, scale);
    phone.ui.reduced_motion = true;  // the beams at their weights in the first frame
    auto spotlight = widgets_test::widget("it-spotlight");
    for (int sentence = 0; sentence <= static_cast<int>(block.alternatives.size()); ++sentence) {
      CAPTURE(sentence);
      REQUIRE(send(*spotlight, {{"type", "chooseSentence"}, {"index", sentence}}) == "");
      REQUIRE(widgets_test::draw_frames(phone, *spotlight, 2));
      const json layout = spotlight->state()["layout"];
      const json& labels = layout["labels"];
      REQUIRE(labels.size() == spotlight->state()["tokens"].size());
      int across_lines = 0;
      for (const json& beam : layout["beams"]) {
        const float half = beam["width"].get<float>() / 2;
        const json& dot = beam["dot"];
        for (const int end : {beam["to"].get<int>(), beam["from"].get<int>()}) {
          CAPTURE(end);
          const json& label = labels[static_cast<std::size_t>(end)];
          for (const json& p : beam["points"]) CHECK(distance_to(label, p[0].get<float>(), p[1].get<float>()) > half);
          CHECK(distance_to(label, dot[0].get<float>(), dot[1].get<float>()) > dot[2].get<float>());
        }
        const json& from = beam["points"].front();
        const json& to = beam["points"].back();
        if (std::fabs(from[1].get<float>() - to[1].get<float>()) > 1) ++across_lines;
      }
      CHECK(across_lines > 0);  // the sentence wraps on a phone: some beams come from another line
    }
  }
}

TEST_CASE("the presets read different weights, as the lesson tells: C less sure than A, D less than B") {
  const auto& block = widgets_test::settings<widgets::SpotlightSettings>("it-spotlight");
  std::vector<std::string> sentences = {block.sentence};
  sentences.insert(sentences.end(), block.alternatives.begin(), block.alternatives.end());
  // Where "it" looks in each sentence: A tired → animal, B wide → street, C sleepy → dog, D wide → river.
  const std::vector<std::string> expected = {"animal", "street", "dog", "river"};
  REQUIRE(sentences.size() == expected.size());
  std::vector<float> top;
  std::set<std::string> shown;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    CAPTURE(sentences[i]);
    const auto engine = lesson::spotlight_weights(widgets_test::lesson(), sentences[i], block.query);
    REQUIRE(engine);
    CHECK(engine->tokens[static_cast<std::size_t>(engine->top)] == expected[i]);
    top.push_back(engine->weights[static_cast<std::size_t>(engine->top)]);
    shown.insert(format_percent(top.back()));
    MESSAGE(expected[i] << ": " << format_percent(top.back()));
  }
  CHECK(shown.size() == sentences.size());  // no two presets read the same (#15: all said 83.0%)
  // The lesson's words under the spotlight (it writes no percentages: the engine prints them).
  CHECK(top[2] < top[0]);  // "sleepy" also fits a village: "it" is less sure of "dog" than of "animal"
  CHECK(top[3] < top[1]);  // a river is a little less of a place than a street
  CHECK(top[0] > 0.5f);
  CHECK(top[1] > 0.5f);
}

TEST_CASE("a word wider than the card is cut with an ellipsis in the spotlight's chips and its weighted sum") {
  for (const float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    widgets_test::Headless page(width, 900);
    auto spot = widgets_test::widget("it-spotlight");
    const std::string link = "https://example.org/" + std::string(300, 'x');
    REQUIRE(send(*spot, {{"type", "setSentence"}, {"text", "The " + link + " sat because it was tired"}}) == "");
    REQUIRE(widgets_test::draw_frames(page, *spot, 2));
    // up to a pixel over: the harness window's border. Uncut, the chip clipped the word (and,
    // as the query, the word wrapped over the lines below the sum's heading); now it ends in "…"
    CHECK(widgets_test::rightmost_vertex() <= width + 2);
    CHECK(widgets_test::drawn_glyphs(0x2026) >= 1);
    // the link itself as the query: its name in the sum's heading is cut too
    int longest = 0;
    const json tokens = spot->state()["tokens"];
    for (int i = 0; i < static_cast<int>(tokens.size()); ++i)
      if (tokens[i].get<std::string>().size() > tokens[longest].get<std::string>().size()) longest = i;
    REQUIRE(tokens[longest].get<std::string>().size() >= 300);
    REQUIRE(send(*spot, {{"type", "setQuery"}, {"query", longest}}) == "");
    REQUIRE(spot->state()["query_index"] == longest);
    REQUIRE(widgets_test::draw_frames(page, *spot, 2));
    CHECK(widgets_test::rightmost_vertex() <= width + 2);
    CHECK(widgets_test::drawn_glyphs(0x2026) >= 2);  // the chip, and the query in the sum's heading
  }
}

TEST_CASE("kit::fit_text keeps the longest run of whole characters that fits with an ellipsis, even for huge words") {
  Headless page(800, 600);
  ImFont* face = neuralpath::ui::kit::font(page.ui, neuralpath::ui::kit::Face::body);
  const auto width = [&](const std::string& text) { return neuralpath::ui::kit::text_size(face, text).x; };
  // the answer by hand: drop one character at a time from the end until it fits
  const auto by_hand = [&](std::string text, float max_width) {
    if (width(text) <= max_width) return text;
    while (!text.empty()) {
      while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) text.pop_back();
      if (!text.empty()) text.pop_back();
      if (width(text + "…") <= max_width) return text + "…";
    }
    return std::string("…");
  };
  for (const std::string& text : {std::string("because"), std::string("señor → straße ∑"), std::string(1, 'x')})
    for (const float max_width : {0.0f, 5.0f, 20.0f, 40.0f, 60.0f, 1000.0f}) {
      CAPTURE(text);
      CAPTURE(max_width);
      CHECK(neuralpath::ui::kit::fit_text(face, text, max_width) == by_hand(text, max_width));
    }
  const std::string huge(20000, 'x');
  const std::string cut = neuralpath::ui::kit::fit_text(face, huge, 300);
  CHECK(width(cut) <= 300);
  CHECK(width(cut.substr(0, cut.size() - std::string("…").size()) + "x…") > 300);  // one more would not fit
}
