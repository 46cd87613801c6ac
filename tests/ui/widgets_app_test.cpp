// The widgets inside the real page (App): commands routed by id or to the first widget that
// takes them, state() reporting each widget's numbers, clicks on the drawn widgets.
#include "headless.h"

#include <doctest/doctest.h>

using neuralpath::ui::test::Headless;
using neuralpath::ui::test::with_id;
using nlohmann::json;

TEST_CASE("in the page, switching the spotlight to 'wide' moves its top token from animal to street") {
  Headless page(1440, 900);
  page.load_file("lessons/self-attention.md");
  page.command({{"type", "goto"}, {"section", "spotlight"}});
  page.frames(5);
  CHECK(with_id(page.state()["widgets"], "it-spotlight")["top"]["token"] == "animal");
  const json reply = page.command({{"type", "setSentence"},
                                   {"widget", "it-spotlight"},
                                   {"text", "The animal didn't cross the street because it was too wide."}});
  CHECK(reply["ok"] == true);
  page.frames(30);
  CHECK(with_id(page.state()["widgets"], "it-spotlight")["top"]["token"] == "street");
  CHECK(page.command({{"type", "setSentence"}, {"widget", "it-spotlight"}, {"text", ""}})["ok"] == false);
}

TEST_CASE("in the page, setMask reaches the heatmap and opens its upper triangle") {
  Headless page(768, 1024);
  page.load_file("lessons/self-attention.md");
  page.command({{"type", "goto"}, {"section", "causal-mask"}});
  page.frames(5);
  const auto upper = [&] {
    const json w = with_id(page.state()["widgets"], "causal-grid")["weights"];
    float total = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
      for (std::size_t j = i + 1; j < w.size(); ++j) total += w[i][j].get<float>();
    return total;
  };
  CHECK(upper() == 0.0f);
  CHECK(page.command({{"type", "setMask"}, {"mask", "none"}})["ok"] == true);  // routed, no id
  page.frames(3);
  CHECK(upper() > 0.0f);
  CHECK(page.command({{"type", "stage"}, {"stage", "softmax"}})["ok"] == true);  // the mask steps take it
  CHECK(with_id(page.state()["widgets"], "mask-walkthrough")["stage"] == "softmax");
}

TEST_CASE("in the page, a tap on a heatmap cell selects it and a tap on a spotlight word makes it the query") {
  Headless page(375, 2400, 2);  // tall enough that the whole section is on screen
  page.load_file("lessons/self-attention.md");
  page.command({{"type", "goto"}, {"section", "causal-mask"}});
  page.frames(10);
  json heatmap = with_id(page.state()["widgets"], "causal-grid");
  REQUIRE(heatmap.contains("rect"));
  CHECK(heatmap["selected"].is_null());
  // The grid sits below the switch and the note; tap down the middle of the widget until a
  // cell is selected (the layout is the widget's own business).
  const json r = heatmap["rect"];
  const float x = r[0].get<float>() + r[2].get<float>() * 0.6f;
  for (float y = r[1].get<float>(); y < r[1].get<float>() + r[3].get<float>() && heatmap["selected"].is_null();
       y += 12) {
    if (y < 0 || y > 2400) continue;
    page.click(x, y);
    page.frames(2);
    heatmap = with_id(page.state()["widgets"], "causal-grid");
  }
  INFO(heatmap["rect"].dump());
  CHECK_FALSE(heatmap["selected"].is_null());

  page.command({{"type", "goto"}, {"section", "spotlight"}});
  page.frames(10);
  json spotlight = with_id(page.state()["widgets"], "it-spotlight");
  const json s = spotlight["rect"];
  for (float y = s[1].get<float>(); y < s[1].get<float>() + s[3].get<float>() && spotlight["query"] == "it"; y += 8) {
    if (y < 0 || y > 2400) continue;
    page.click(s[0].get<float>() + s[2].get<float>() * 0.3f, y);
    page.frames(2);
    spotlight = with_id(page.state()["widgets"], "it-spotlight");
  }
  CHECK(spotlight["query"] != "it");
  CHECK(spotlight["top"]["token"] != spotlight["query"]);
}
