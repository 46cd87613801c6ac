// The multi-head lesson's split-and-join step-through and cost readout, drawn headless: every
// stage and setting at phone and desktop widths with ImGui's stacks balanced, everything inside
// the phone's width, each slider's value printed clear of its track, and a click on Next or on
// + doing what it says.
#include "widgets_support.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/split_join/split_join_view.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace neuralpath;
using nlohmann::json;
namespace kit = neuralpath::ui::kit;
using widgets_test::Headless;
using widgets_test::send;

namespace {

bool overlap(const json& a, const json& b) {
  const auto v = [](const json& r, int i) { return r[static_cast<std::size_t>(i)].get<float>(); };
  return v(a, 0) < v(b, 0) + v(b, 2) && v(b, 0) < v(a, 0) + v(a, 2) && v(a, 1) < v(b, 1) + v(b, 3) &&
         v(b, 1) < v(a, 1) + v(a, 3);
}
float right(const json& r) { return r[0].get<float>() + r[2].get<float>(); }
ImVec2 centre(const json& r) {
  return ImVec2(r[0].get<float>() + r[2].get<float>() * 0.5f, r[1].get<float>() + r[3].get<float>() * 0.5f);
}

// A click on the split-join walk's Next where its last frame drew it, and three frames after.
void click_next(Headless& page, ui::Widget& walk) {
  page.click(centre(walk.state()["layout"]["next"]));
  CHECK(widgets_test::draw_frames(page, walk, 3));
}

// The multi-head lesson's split-join walk, drawn on `page` for two frames.
std::unique_ptr<ui::Widget> drawn_walk(Headless& page) {
  auto walk = widgets_test::widget("split-join-walk", "multi-head");
  CHECK(widgets_test::draw_frames(page, *walk, 2));
  return walk;
}

// The split-join walk drawn on `page` and stepped to its "slice" stage by a click on Next.
std::unique_ptr<ui::Widget> walk_at_slice(Headless& page) {
  auto walk = drawn_walk(page);
  click_next(page, *walk);
  REQUIRE(walk->state()["stage"] == "slice");
  return walk;
}

}  // namespace

TEST_CASE("split-join draws every stage, head and role at 375 and 1440 px, inside the width") {
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 900.0f);
    auto walk = widgets_test::widget("split-join-walk", "multi-head");
    for (const char* stage : {"cut", "slice", "scores", "scale", "softmax", "mix", "concat", "output"})
      for (int head : {0, 3}) {
        const std::string stage_name = stage;
        CAPTURE(stage_name);
        CHECK(send(*walk, {{"type", "stage"}, {"stage", stage}}) == "");
        CHECK(send(*walk, {{"type", "setHead"}, {"head", head}}) == "");
        CHECK(widgets_test::draw_frames(page, *walk, 2));
        const json layout = walk->state()["layout"];
        CHECK(right(layout["grid"]) <= width);
        CHECK(right(layout["narration"]) <= width);
        // Every column on screen without a sideways scroll (at 375 px the 7 × 8 cut grid used to
        // hide its last heads' columns): the last cell ends inside the grid's own rectangle.
        const json& cells = layout["cells"];
        const auto columns = static_cast<float>(walk->state()["columns"].size());
        CHECK(cells["origin"][0].get<float>() + cells["size"][0].get<float>() * columns <=
              right(layout["grid"]) + 0.5f);
      }
    CHECK(send(*walk, {{"type", "stage"}, {"stage", "cut"}}) == "");
    for (const char* role : {"q", "k", "v"}) {
      CHECK(send(*walk, {{"type", "setRole"}, {"role", role}}) == "");
      CHECK(widgets_test::draw_frames(page, *walk, 2));
    }
  }
}

TEST_CASE("a click on split-join's Next moves one step, and a click on a head chip picks that head") {
  Headless page(375.0f, 2000.0f);
  auto walk = walk_at_slice(page);
  page.click(centre(walk->state()["layout"]["heads"][2]));
  CHECK(widgets_test::draw_frames(page, *walk, 3));
  CHECK(walk->state()["head"] == 2);
}

TEST_CASE("split-join's Next does not slide sideways when Back appears beside it") {
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 2000.0f);
    auto walk = drawn_walk(page);
    const json first_next = walk->state()["layout"]["next"];
    CHECK_FALSE(walk->state()["layout"].contains("back"));
    page.click(centre(first_next));
    CHECK(widgets_test::draw_frames(page, *walk, 3));
    const json next = walk->state()["layout"]["next"];
    CHECK(walk->state()["layout"].contains("back"));
    CHECK(next[0] == first_next[0]);  // Back took the place kept for it, left of Next
    CHECK(next[2] == first_next[2]);
    // Where the stage's grid keeps its height (the cut and slice grids at 1440 px), a second
    // click on the same spot is a second step, not a step back.
    if (width > 1000.0f) {
      REQUIRE(next == first_next);
      page.click(centre(first_next));
      CHECK(widgets_test::draw_frames(page, *walk, 3));
      CHECK(walk->state()["stage"] == "scores");
    }
  }
}

TEST_CASE("split-join's Next never moves up as the learner steps on, and once every stage is seen it stays put") {
  // #15 walk: at 375 px each stage's grid and sentence differ in height, so a second tap on Next
  // landed on the narration or on Back.
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 4000.0f);
    auto walk = drawn_walk(page);
    float lowest = walk->state()["layout"]["next"][1].get<float>();
    for (int step = 1; step < 8; ++step) {  // the first pass: a tap on Next wherever it is
      click_next(page, *walk);
      const float y =
          walk->state()["layout"]["next"].is_null() ? lowest : walk->state()["layout"]["next"][1].get<float>();
      CHECK(y >= lowest - 0.5f);
      lowest = std::max(lowest, y);
    }
    REQUIRE(walk->state()["stage"] == "output");
    CHECK(send(*walk, {{"type", "stage"}, {"stage", "cut"}}) == "");
    CHECK(widgets_test::draw_frames(page, *walk, 2));
    const json spot = walk->state()["layout"]["next"];
    for (int step = 1; step < 8; ++step) {  // the second pass: every tap on the same spot steps on
      page.click(centre(spot));
      CHECK(widgets_test::draw_frames(page, *walk, 3));
      CHECK(walk->state()["stage_index"] == step);
      if (step < 7) CHECK(walk->state()["layout"]["next"][1] == spot[1]);
    }
  }
}

TEST_CASE("the cost readout draws at 375 and 1440 px with each value clear of its slider") {
  for (float width : {375.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 1200.0f);
    auto cost = widgets_test::widget("heads-cost", "multi-head");
    for (const json& change : {json{{"type", "setLength"}, {"T", 100000}},
                               json{{"type", "setWidth"}, {"d_model", 1600}}, json{{"type", "setHeads"}, {"heads", 25}},
                               json{{"type", "setWidth"}, {"d_model", 8}}, json{{"type", "setLength"}, {"T", 1}}}) {
      CAPTURE(change.dump());
      CHECK(send(*cost, change) == "");
      CHECK(widgets_test::draw_frames(page, *cost, 2));
      const json layout = cost->state()["layout"];
      for (const char* part : {"width", "heads", "length"}) {
        CAPTURE(part);
        CHECK_FALSE(overlap(layout[part]["label"], layout[part]["track"]));
        CHECK(right(layout[part]["more"]) <= width);
        for (const char* button : {"less", "more"}) {  // a fingertip's 32 px, not the label's 29
          CAPTURE(button);
          CHECK(layout[part][button][2].get<float>() >= 32.0f);
          CHECK(layout[part][button][3].get<float>() >= 32.0f);
        }
      }
      CHECK(right(layout["bars"]) <= width);
    }
  }
}

TEST_CASE("a click on the cost readout's + moves to the next head count that divides d_model") {
  Headless page(375.0f, 1200.0f);
  auto cost = widgets_test::widget("heads-cost", "multi-head");
  CHECK(widgets_test::draw_frames(page, *cost, 2));
  page.click(centre(cost->state()["layout"]["heads"]["more"]));
  CHECK(widgets_test::draw_frames(page, *cost, 3));
  const json s = cost->state();
  CHECK(s["heads"] == 16);
  CHECK(s["total_mults"] == 2'072'576'000ull);
}

TEST_CASE("split-join: after a click on a head chip, a click on a number opens that head's explanation") {
  Headless page(375.0f, 2000.0f);
  auto walk = widgets_test::widget("split-join-walk", "multi-head");
  CHECK(send(*walk, {{"type", "stage"}, {"stage", "scores"}}) == "");
  CHECK(widgets_test::draw_frames(page, *walk, 2));
  page.click(centre(walk->state()["layout"]["heads"][1]));
  CHECK(widgets_test::draw_frames(page, *walk, 3));
  REQUIRE(walk->state()["head"] == 1);
  // The last row's first cell: always inside the clip, even where the grid scrolls sideways.
  const json cells = walk->state()["layout"]["cells"];
  const int last = static_cast<int>(walk->state()["tokens"].size()) - 1;
  page.click(ImVec2(cells["origin"][0].get<float>() + cells["size"][0].get<float>() * 0.5f,
                    cells["origin"][1].get<float>() + cells["size"][1].get<float>() * (last + 0.5f)));
  CHECK(widgets_test::draw_frames(page, *walk, 3));
  const json s = walk->state();
  CHECK(s["selected"] == json{last, 0});
  CHECK(s["explained"]["open"] == true);
}

TEST_CASE("split-join: Enter on the focused Next steps again, as Space does") {
  Headless page(1440.0f, 1200.0f);
  auto walk = walk_at_slice(page);
  page.press(ImGuiKey_Enter);
  CHECK(widgets_test::draw_frames(page, *walk, 3));
  CHECK(walk->state()["stage"] == "scores");
}

TEST_CASE("narration wraps between words, never inside a number where Dear ImGui's own wrap would cut it") {
  Headless page(375.0f, 800.0f);
  ImFont* face = kit::font(page.ui, kit::Face::body);
  const std::string text = "Head 2: 'pushed' scores 'boy' 0.83 and 'chair' 1.26, so 0,54 of 1.048.576 goes to 'boy'.";
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  int imgui_cuts_a_number = 0;
  for (float width = 90.0f; width < 420.0f; width += 1.0f) {
    CAPTURE(width);
    // Dear ImGui's own cuts, for the precondition: at some widths one lands inside a number.
    for (const char *p = text.data(), *end = p + text.size(); p < end;) {
      const char* cut = face->CalcWordWrapPositionA(1.0f, p, end, width);
      if (cut <= p) break;
      if (cut < end && digit(*cut) && (cut[-1] == '.' || cut[-1] == ',')) ++imgui_cuts_a_number;
      for (p = cut; p < end && *p == ' ';) ++p;
    }
    const std::vector<std::string> lines = kit::wrap_lines(face, text, width);
    std::string joined;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      joined += (i ? " " : "") + lines[i];
      CHECK(kit::text_size(face, lines[i]).x <= width + 0.5f);
      if (i == 0) continue;
      const std::string& before = lines[i - 1];
      const bool cut_number = before.size() >= 2 && (before.back() == '.' || before.back() == ',') &&
                              digit(before[before.size() - 2]) && !lines[i].empty() && digit(lines[i].front());
      CHECK_FALSE(cut_number);
    }
    CHECK(joined == text);  // nothing lost or doubled
  }
  CHECK(imgui_cuts_a_number > 0);
}

TEST_CASE("the cost chart's words over its flat line wrap whole at 375 px, in Spanish too") {
  std::ifstream in("lessons/strings/es.strings");
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(use_language("es", text.str()).empty());
  Headless page(375.0f, 1400.0f);
  auto cost = widgets_test::widget("heads-cost", "multi-head");
  const bool drawn = widgets_test::draw_frames(page, *cost, 2);
  const json s = cost->state();
  const std::string said = tr("head-cost.chart_flat", {{"total", format_count(s["total_mults"].get<std::uint64_t>())}});
  use_language("en", "");
  CHECK(drawn);
  const json flat = s["layout"]["flat"];
  std::string joined;
  for (const json& line : flat["lines"]) {
    const std::string l = line.get<std::string>();
    CHECK(l.find("…") == std::string::npos);
    joined += (joined.empty() ? "" : " ") + l;
  }
  CHECK(joined == said);  // every word drawn, none cut
  CHECK(said.find("cualquier número de cabezas") != std::string::npos);
  CHECK(right(flat["rect"]) <= 375.0f);
  CHECK(flat["rect"][1].get<float>() + flat["rect"][3].get<float>() <= s["layout"]["bars"][1].get<float>() + 0.5f);
}

TEST_CASE("split-join: the narration's numbers are printed as the grid prints them, short on a phone, full on a desk") {
  using neuralpath::widgets::SplitJoinModel;
  for (float width : {375.0f, 1440.0f})
    for (const char* sentence :
         {"The boy gently pushed the chair.", "The farmer carefully carried the bag because it was old."}) {
      CAPTURE(width);
      CAPTURE(sentence);
      const bool phone = width < 400.0f;
      Headless page(width, 1400.0f);
      auto walk = widgets_test::widget("split-join-walk", "multi-head");
      CHECK(send(*walk, {{"type", "setSentence"}, {"text", sentence}}) == "");
      // The key the narration follows: the heaviest weight in the query's row.
      CHECK(send(*walk, {{"type", "stage"}, {"stage", "softmax"}}) == "");
      CHECK(widgets_test::draw_frames(page, *walk, 3));
      json s = walk->state();
      const json tokens = s["tokens"];
      std::size_t q = 0, k = 0;
      while (q < tokens.size() && tokens[q] != s["query"]) ++q;
      REQUIRE(q < tokens.size());
      for (std::size_t j = 0; j < tokens.size(); ++j)
        if (s["matrix"][q][j].get<float>() > s["matrix"][q][k].get<float>()) k = j;
      CHECK(s["short_numbers"] == phone);  // a row of "41.2%" and its sum do not fit 375 px
      CHECK(s["narration"].get<std::string>().find(SplitJoinModel::weight(s["matrix"][q][k].get<float>(), phone)) !=
            std::string::npos);
      CHECK(send(*walk, {{"type", "stage"}, {"stage", "scores"}}) == "");
      CHECK(widgets_test::draw_frames(page, *walk, 3));
      s = walk->state();
      const bool short_numbers = s["short_numbers"];
      if (!phone) CHECK_FALSE(short_numbers);
      const float score = s["matrix"][q][k].get<float>();
      const std::string said = s["narration"];
      CAPTURE(said);
      CHECK(said.find(SplitJoinModel::number(score, short_numbers)) != std::string::npos);
      if (short_numbers) CHECK(said.find(SplitJoinModel::number(score, false)) == std::string::npos);
    }
}

TEST_CASE("split-join: a head's unlit columns keep a readable share of its colour, below every lit one") {
  using neuralpath::ui::SplitJoinView;
  CHECK(SplitJoinView::column_tint(false, 0.0f) >= 0.10f);
  CHECK(SplitJoinView::column_tint(false, 1.0f) > SplitJoinView::column_tint(false, 0.0f));  // sizes still read
  CHECK(SplitJoinView::column_tint(false, 1.0f) < SplitJoinView::column_tint(true, 0.0f));   // clearly behind
  CHECK(SplitJoinView::column_tint(true, 1.0f) <= 0.9f);  // room left for the cell's text
}

TEST_CASE("kit::Flow keeps a group together: a new line only when the group would not fit") {
  Headless page(375.0f, 800.0f);
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::Begin("flow");
  const ImVec2 start = ImGui::GetCursorScreenPos();
  kit::Flow flow(100.0f, 4.0f, 2.0f);
  flow.keep_together(500.0f);  // wider than a line, but the line is empty: no new line
  const ImVec2 first = flow.place(ImVec2(60, 10));
  CHECK(first.y == start.y);
  flow.keep_together(30.0f);  // 60 + 4 + 30 fits in 100: same line
  const ImVec2 second = flow.place(ImVec2(30, 10));
  CHECK(second.y == first.y);
  flow.keep_together(20.0f);  // 98 + 20 does not: a new line before the group
  const ImVec2 third = flow.place(ImVec2(10, 10));
  CHECK(third.y > first.y);
  CHECK(third.x == first.x);
  flow.end();
  ImGui::End();
  ImGui::EndFrame();
}
