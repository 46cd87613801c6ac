// The model view (multi-head lesson, #16): every layer × head as a thumbnail holding the trace's
// weights, for any number of layers and heads; a tap on a thumbnail opens that head, a tap on a
// cell explains its weight from the trace; the text version's summary and table; snapshots.
#include "widgets_support.h"

#include "engine/trace/block_trace.h"
#include "engine/text/format.h"
#include "engine/widgets/model_view/head_weights.h"
#include "engine/ui/widgets/model_view/model_view_view.h"
#include "engine/ui/widgets/model_view_widget.h"

#include <doctest/doctest.h>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;
using widgets_test::send;

namespace {

using ModelView = ui::ModelViewWidget<widgets::ModelViewModel, ui::ModelViewView>;

// The default model with a second context layer of two heads: three layers of 1, 2 and 2 heads.
ModelSpec three_layers() {
  ModelSpec spec = default_model_spec();
  AttentionLayer extra;  // seeded W_Q, W_K, W_V, identity W_O (model.h)
  extra.heads = 2;
  spec.context_layers.push_back(extra);
  return spec;
}

std::unique_ptr<ModelView> model_view(const ModelSpec& spec, const std::string& sentence) {
  widgets::ModelViewSettings settings;
  settings.sentence = sentence;
  return std::make_unique<ModelView>(widgets::ModelViewModel(settings, {}, spec));
}

Trace trace_of(const ModelSpec& spec, const std::string& sentence) {
  TraceOptions options;
  options.mask = Mask::none();
  return run_block(spec, sentence, options);
}

// The centre of a layout rectangle [x, y, w, h] (CSS px; the headless page has scale 1).
ImVec2 centre(const json& rect) {
  return {rect[0].get<float>() + rect[2].get<float>() / 2, rect[1].get<float>() + rect[3].get<float>() / 2};
}

void tap(Headless& page, ui::Widget& widget, ImVec2 at) {
  page.click(at);
  CHECK(widgets_test::draw_frames(page, widget, 3));
}

}  // namespace

TEST_CASE("the model view's thumbnails hold the trace's weights of every head of the multi-head lesson") {
  auto view = widgets_test::widget("every-head", "multi-head");
  const json s = view->state();
  REQUIRE(s["kind"] == "model-view");
  REQUIRE(s["layers"] == 1);
  REQUIRE(s["heads"] == json({4}));
  const Trace trace = trace_of(widgets_test::spec("multi-head"), s["sentence"].get<std::string>());
  const auto t = static_cast<Index>(trace.tokens.size());
  for (int h = 0; h < 4; ++h)
    for (Index i = 0; i < t; ++i)
      for (Index j = 0; j < t; ++j) CHECK(s["weights"][0][h][i][j].get<float>() == trace.weights(h)(i, j));
  CHECK(s["open"].is_null());
  CHECK(s["table"]["rows"].size() == 4);  // one row per head
}

TEST_CASE("the model view shows any number of layers and heads, context layers first") {
  const ModelSpec spec = three_layers();
  const std::string sentence = "the animal didn't cross the street because it was too tired.";
  auto view = model_view(spec, sentence);
  const json s = view->state();
  const Trace trace = trace_of(spec, sentence);
  REQUIRE(s["layers"] == 3);
  REQUIRE(s["heads"] == json({trace.context[0].heads.size(), 2, 2}));
  const auto t = static_cast<Index>(trace.tokens.size());
  for (int l = 0; l < 3; ++l) {
    const MultiHeadResult& layer = l < 2 ? trace.context[static_cast<std::size_t>(l)] : trace.attention;
    for (std::size_t h = 0; h < layer.heads.size(); ++h)
      for (Index i = 0; i < t; ++i)
        for (Index j = 0; j < t; ++j) CHECK(s["weights"][l][h][i][j].get<float>() == layer.heads[h].weights(i, j));
  }
  // A context layer's weight explained: its score is the dot product of that head's columns.
  CHECK(send(*view, {{"type", "explain"}, {"layer", 1}, {"head", 1}, {"row", 7}, {"col", 1}}) == "");
  const json e = view->state()["explained"];
  REQUIRE(e["open"] == true);
  CHECK(e["title"].get<std::string>().find("Layer 2, head 2") != std::string::npos);
  const float score = trace.context[1].heads[1].scores(7, 1), weight = trace.context[1].heads[1].weights(7, 1);
  CHECK(e["inputs"][0]["value"].get<std::string>().find("= " + format_number(score)) != std::string::npos);
  CHECK(e["title"].get<std::string>().find(format_percent(weight)) != std::string::npos);
  CHECK(view->state()["open"] == json({{"layer", 1}, {"head", 1}, {"label", "Layer 2, head 2"}}));
  // Stepping walks the heads in reading order and wraps around.
  CHECK(send(*view, {{"type", "step"}, {"by", 1}}) == "");
  CHECK(view->state()["open"]["layer"] == 2);
  CHECK(view->state()["open"]["head"] == 0);
  CHECK(send(*view, {{"type", "step"}, {"by", 1}}) == "");
  CHECK(send(*view, {{"type", "step"}, {"by", 1}}) == "");
  CHECK(view->state()["open"]["layer"] == 0);
  CHECK(view->state()["table"]["rows"].size() == static_cast<std::size_t>(t));  // the open head's whole grid
  for (float width : {375.0f, 1440.0f}) {
    Headless page(width, 900.0f);
    CHECK(widgets_test::draw_frames(page, *view, 3));
    CHECK(view->state()["layout"]["thumbs"].size() == 5);
  }
}

TEST_CASE("a tap on a thumbnail opens that head and a tap on a cell explains its weight, at 375 and 1440 px") {
  const Trace trace =
      trace_of(widgets_test::spec("multi-head"), "The farmer carefully carried the bag because it was old.");
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 1400.0f);
    auto view = widgets_test::widget("every-head", "multi-head");
    REQUIRE(view->state()["sentence"] == "The farmer carefully carried the bag because it was old.");
    CHECK(widgets_test::draw_frames(page, *view, 3));
    json layout = view->state()["layout"];
    REQUIRE(layout["thumbs"].size() == 4);
    // Every thumbnail lies inside the card's width and above where the caption starts (#15).
    for (const json& thumb : layout["thumbs"]) {
      const json& r = thumb["rect"];
      CHECK(r[0].get<float>() + r[2].get<float>() <= width);
      CHECK(r[1].get<float>() + r[3].get<float>() <= layout["body_end"].get<float>());
    }
    tap(page, *view, centre(layout["thumbs"][3]["rect"]));
    json s = view->state();
    REQUIRE(s["open"].is_object());
    CHECK(s["open"]["head"] == 3);
    CHECK(s["open"]["label"] == "Head 4");
    // Head 4 is the subject head: "carried" (row 3) gives "farmer" (column 1) nearly everything.
    const json& cells = s["layout"]["cells"];
    const ImVec2 at(cells["origin"][0].get<float>() + cells["size"][0].get<float>() * 1.5f,
                    cells["origin"][1].get<float>() + cells["size"][1].get<float>() * 3.5f);
    const json& clip = cells["clip"];
    REQUIRE(at.x < clip[0].get<float>() + clip[2].get<float>());  // on screen, even where the grid scrolls
    tap(page, *view, at);
    s = view->state();
    CHECK(s["selected"]["row"] == 3);
    CHECK(s["selected"]["col"] == 1);
    CHECK(s["selected"]["weight"].get<float>() == trace.weights(3)(3, 1));
    const json e = s["explained"];
    REQUIRE(e["open"] == true);
    const widgets::Explanation expected = widgets::explain_weight(trace, 0, 3, {3, 1});
    CHECK(e["title"] == expected.title);
    CHECK(e["title"].get<std::string>().find("“carried” → “farmer”") != std::string::npos);
    CHECK(e["text"] == expected.text);
    // The score's products and value, read from the trace's own score step.
    const Step* score = widgets::find_step(trace, StepKind::score, 3);
    REQUIRE(score != nullptr);
    CHECK(e["inputs"][0]["value"].get<std::string>().find("= " + format_number(score->result.values(3, 1))) !=
          std::string::npos);
    CHECK(s["summary"].get<std::string>().find(expected.title) != std::string::npos);
    // The derivation is a sheet, not a popup, so no tap is spent closing it: one tap on the open
    // thumbnail closes the head, and the derivation of its cell goes with it.
    const ImVec2 thumb = centre(view->state()["layout"]["thumbs"][3]["rect"]);
    tap(page, *view, thumb);
    CHECK(view->state()["open"].is_null());
    CHECK(view->state()["explained"]["open"] == false);
  }
}

TEST_CASE("a cell's derivation sheet closes once its widget is scrolled out of sight, not before") {
  Headless page(1440.0f, 900.0f);
  auto view = widgets_test::widget("every-head", "multi-head");
  CHECK(send(*view, {{"type", "open"}, {"layer", 0}, {"head", 3}}) == "");
  CHECK(send(*view, {{"type", "explain"}, {"layer", 0}, {"head", 3}, {"row", 3}, {"col", 1}}) == "");
  // Drawn with the page scrolled so far that the widget sits below the screen: opened by a
  // command, the sheet waits for its widget to come into sight.
  const auto draw_below = [&](float offset) {
    for (int i = 0; i < 3; ++i) {
      view->update(1.0f / 60);
      page.frame([&](const ui::UiContext& ui) {
        ImGui::Dummy(ImVec2(1.0f, offset));
        view->draw(ui);
      });
    }
  };
  draw_below(2000.0f);
  CHECK(view->state()["explained"]["open"] == true);
  draw_below(0.0f);  // in sight, the sheet below it
  REQUIRE(view->state()["explained"]["open"] == true);
  CHECK(view->state()["explained"].contains("sheet"));
  draw_below(2000.0f);  // scrolled away: it closes rather than cover what is on screen now
  CHECK(view->state()["explained"]["open"] == false);
  // A widget whose top shows only low on the screen, where the sheet goes, keeps its sheet: a tap
  // there must not open one that closes at once.
  CHECK(send(*view, {{"type", "explain"}, {"layer", 0}, {"head", 3}, {"row", 3}, {"col", 1}}) == "");
  draw_below(800.0f);
  CHECK(view->state()["explained"]["open"] == true);
  CHECK(view->state()["open"]["head"] == 3);  // the open head stays open
}

TEST_CASE("the model view refuses what it cannot do and its snapshot reopens the head and cell") {
  auto view = widgets_test::widget("every-head", "multi-head");
  CHECK(send(*view, {{"type", "open"}, {"layer", 0}, {"head", 4}}) != "");
  CHECK(send(*view, {{"type", "open"}, {"layer", 1}, {"head", 0}}) != "");
  CHECK(send(*view, {{"type", "selectCell"}, {"row", 0}, {"col", 0}}) != "");  // no head open
  CHECK(send(*view, {{"type", "step"}, {"by", 2}}) != "");
  CHECK(send(*view, {{"type", "explain"}, {"layer", 0}, {"head", 0}, {"row", 99}, {"col", 0}}) != "");
  CHECK(view->state()["open"].is_null());
  CHECK(send(*view, {{"type", "nonsense"}}) != "");
  CHECK(send(*view, {{"type", "setSentence"}, {"text", "The girl slowly lifted the box."}}) == "");
  CHECK(send(*view, {{"type", "open"}, {"layer", 0}, {"head", 2}}) == "");
  CHECK(send(*view, {{"type", "selectCell"}, {"row", 3}, {"col", 5}}) == "");
  auto fresh = widgets_test::widget("every-head", "multi-head");
  CHECK(fresh->restore(view->snapshot()).done());
  const json s = fresh->state();
  CHECK(s["sentence"] == "The girl slowly lifted the box.");
  CHECK(s["open"]["head"] == 2);
  CHECK(s["selected"] == view->state()["selected"]);
  CHECK(s["summary"].get<std::string>().find("Head 3") != std::string::npos);
  // The sentence keeps its own full stop, never "box.: 1 layer" (#16 walk); one is added if missing.
  CHECK(s["summary"].get<std::string>().find("for the sentence The girl slowly lifted the box. ") != std::string::npos);
  CHECK(s["summary"].get<std::string>().find(".:") == std::string::npos);
  CHECK(send(*view, {{"type", "setSentence"}, {"text", "The girl lifted the box"}}) == "");
  CHECK(view->state()["summary"].get<std::string>().find("for the sentence The girl lifted the box. ") !=
        std::string::npos);
  CHECK(send(*view, {{"type", "setSentence"}, {"text", "The girl slowly lifted the box."}}) == "");
  CHECK(!fresh->restore(json("not a snapshot")).done());
  CHECK(send(*view, {{"type", "setSentence"}, {"text", ""}}) != "");
  CHECK(view->state()["sentence"] == "The girl slowly lifted the box.");
  CHECK(view->state().contains("input_error"));
  CHECK(send(*view, {{"type", "close"}}) == "");
  CHECK(view->state()["selected"].is_null());
}
