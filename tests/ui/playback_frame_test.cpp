// playback_frame_test.cpp: the board as a fixed frame (#15 item 1): the same height at every
// step, its caption and transport inside a phone's screen, seek segments a finger can hit,
// numbers on demand (a tap zooms a matrix), and the model's snapshot and refusals.
#include "playback_harness.h"

#include "engine/text/format.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

using namespace neuralpath;
using nlohmann::json;
using playback_test::Headless;

namespace {

float bottom(const json& rect) { return rect[1].get<float>() + rect[3].get<float>(); }
ImVec2 centre(const json& rect) {
  return ImVec2(rect[0].get<float>() + rect[2].get<float>() / 2, rect[1].get<float>() + rect[3].get<float>() / 2);
}

json draw(Headless& page, ui::PlaybackWidget& board) {
  page.frame([&](const ui::UiContext& ui) { board.draw(ui); });
  return board.view().layout();
}

// The last matrix of a drawn layout that `pick` accepts; null when none does.
json drawn_matrix(const json& layout, const std::function<bool(const json&)>& pick) {
  json found;
  for (const json& m : layout.value("matrices", json::array()))
    if (pick(m)) found = m;
  return found;
}

// The example board seeked forward to its first step of `step_kind` ("project_q").
std::unique_ptr<ui::PlaybackWidget> board_at(const std::string& step_kind) {
  auto board = playback_test::example_board();
  int k = 0;
  while (board->state()["step_kind"] != step_kind) REQUIRE(board->command({{"type", "seek"}, {"step", ++k}}).done());
  return board;
}

}  // namespace

TEST_CASE("the board keeps one height at every step and its caption and transport fit a phone's screen") {
  for (const auto& [width, height] : {std::pair{375.0f, 740.0f}, std::pair{1440.0f, 900.0f}}) {
    CAPTURE(width);
    Headless page(width, height);
    page.ui.reduced_motion = true;
    auto board = playback_test::example_board();
    std::set<int> heights;
    for (int k = 0; k < board->model().controller().count(); ++k) {
      CAPTURE(k);
      REQUIRE(board->command({{"type", "seek"}, {"step", k}}).done());
      const json layout = draw(page, *board);
      REQUIRE(layout.contains("frame"));
      heights.insert(static_cast<int>(std::lround(layout["board"][3].get<float>())));
      // The frame (flow, step, caption, transport, timeline) fits the screen from its top.
      const float top = layout["frame"][1].get<float>();
      CHECK(layout["frame"][3].get<float>() <= height);
      CHECK(bottom(layout["caption"]) <= top + height);
      for (const char* button : {"restart", "back", "play", "next"})
        CHECK(bottom(layout["controls"][button]) <= top + height);
      for (const json& segment : layout["segments"]) CHECK(bottom(segment) <= top + height);
    }
    CHECK(heights.size() == 1);
  }
}

TEST_CASE("every seek segment is at least 24 px wide and a tap on one goes to its step") {
  for (const float width : {320.0f, 375.0f, 768.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 800);
    auto board = playback_test::example_board();
    const json layout = draw(page, *board);
    REQUIRE(layout["segments"].size() == static_cast<std::size_t>(board->model().controller().count()));
    for (const json& segment : layout["segments"]) CHECK(segment[2].get<float>() >= 24.0f);
    const int target = board->model().controller().count() - 3;
    page.click(centre(layout["segments"][static_cast<std::size_t>(target)]));
    draw(page, *board);
    draw(page, *board);
    CHECK(board->state()["step"] == target);
  }
}

TEST_CASE("a tap on a matrix too small for its numbers shows them with their labels, and a tap goes back") {
  Headless page(375, 740);
  page.ui.reduced_motion = true;
  auto board = board_at("project_q");
  json layout = draw(page, *board);
  const json small = drawn_matrix(layout, [](const json& m) { return !m["numbers"].get<bool>(); });
  REQUIRE_MESSAGE(small.is_object(), "at 375 px some matrix of Q = X·W_Q is drawn without its numbers");
  const std::string name = small["name"];
  const NamedMatrix* matrix = nullptr;
  const Step& step = *board->model().current_step();
  for (const NamedMatrix& m : step.inputs)
    if (m.name == name) matrix = &m;
  if (step.result.name == name) matrix = &step.result;
  REQUIRE(matrix != nullptr);

  page.click(centre(small["rect"]));
  draw(page, *board);
  draw(page, *board);
  layout = draw(page, *board);
  CHECK(board->view().zoomed() == name);
  const std::vector<std::string>& drawn = board->view().drawn_strings();
  const std::multiset<std::string> shown(drawn.begin(), drawn.end());
  for (Index i = 0; i < matrix->values.rows(); ++i)
    for (Index j = 0; j < matrix->values.cols(); ++j) CHECK(shown.count(format_number(matrix->values(i, j))) > 0);
  for (const std::string& label : matrix->col_labels) {
    const bool found = std::any_of(drawn.begin(), drawn.end(), [&](const std::string& s) { return s == label; });
    CHECK_MESSAGE(found, "column label " << label);
  }
  REQUIRE(layout.contains("unzoom"));
  page.click(centre(layout["unzoom"]));
  draw(page, *board);
  draw(page, *board);
  CHECK(board->view().zoomed().empty());
}

// #15 walk: at 375 px a zoomed W_V stacked its columns in two blocks, and the fixed frame cut the
// second after one row. Blocks that do not all fit show one at a time, picked by chips.
TEST_CASE("a zoomed matrix whose column blocks do not fit the frame shows one block at a time, every row of it") {
  Headless page(375, 740);
  page.ui.reduced_motion = true;
  auto board = board_at("project_v");
  json layout = draw(page, *board);
  const json wv = drawn_matrix(layout, [](const json& m) { return m["name"] == "W_V"; });
  REQUIRE(wv.is_object());
  page.click(centre(wv["rect"]));
  draw(page, *board);
  draw(page, *board);
  layout = draw(page, *board);
  REQUIRE(board->view().zoomed() == "W_V");
  REQUIRE(layout.contains("zoom_blocks"));
  const std::size_t blocks = layout["zoom_blocks"].size();
  REQUIRE(blocks >= 2);
  const Step& step = *board->model().current_step();
  const NamedMatrix* w = nullptr;
  for (const NamedMatrix& m : step.inputs)
    if (m.name == "W_V") w = &m;
  REQUIRE(w != nullptr);
  // Together the blocks show every number and column label; each block's rows end inside the board.
  std::multiset<std::string> seen;
  for (std::size_t b = 0; b < blocks; ++b) {
    CAPTURE(b);
    page.click(centre(layout["zoom_blocks"][b]));
    draw(page, *board);
    draw(page, *board);
    layout = draw(page, *board);
    CHECK(layout["zoom_block"] == static_cast<int>(b));
    const std::vector<std::string>& drawn = board->view().drawn_strings();
    seen.insert(drawn.begin(), drawn.end());
    // The block ends inside the board's frame: no row is cut off.
    CHECK(bottom(layout["zoom"]) <= bottom(layout["stage"]) + 0.5f);
  }
  for (const std::string& label : w->col_labels) CHECK_MESSAGE(seen.count(label) > 0, "column label " << label);
  for (Index i = 0; i < w->values.rows(); ++i)
    for (Index j = 0; j < w->values.cols(); ++j) CHECK(seen.count(format_number(w->values(i, j))) > 0);
}

TEST_CASE("a snapshot of the learner's board reopens the same board, and a bad one changes nothing") {
  auto board = playback_test::example_board();
  REQUIRE(board->command({{"type", "setSentence"}, {"text", "The robot fixed the road"}}).done());
  REQUIRE(board->command({{"type", "focus"}, {"token", 1}}).done());
  REQUIRE(board->command({{"type", "temperature"}, {"value", 2.0}}).done());
  REQUIRE(board->command({{"type", "seek"}, {"step", 7}}).done());
  const json snapshot = board->model().snapshot();
  auto again = playback_test::example_board();
  REQUIRE(again->model().state()["sentence"] != board->model().state()["sentence"]);
  widgets::PlaybackModel copy = again->model();
  CHECK(copy.restore(snapshot).done());
  for (const char* key : {"sentence", "step", "head", "focus", "temperature", "caption"}) {
    CAPTURE(key);
    CHECK(copy.state()[key] == board->model().state()[key]);
  }
  const json before = copy.state();
  CHECK_FALSE(copy.restore(json{{"step", "three"}}).done());
  CHECK_FALSE(copy.restore(json::array()).done());
  CHECK(copy.state() == before);
}

TEST_CASE("an empty sentence is refused with 'type a sentence first' and the board keeps its sentence") {
  auto board = playback_test::example_board();
  const widgets::CommandResult result = board->command({{"type", "setSentence"}, {"text", "   "}});
  REQUIRE_FALSE(result.done());
  CHECK(result.reason().find("Type a sentence first") != std::string::npos);
  CHECK(board->state()["sentence"] == "AI Agents Build Future");
  CHECK(board->state()["error"].get<std::string>().find("Type a sentence first") != std::string::npos);
}

TEST_CASE("the sentence field and the message under it speak of the same sentence: emptied, refused, run") {
  Headless page(375, 740);
  auto board = playback_test::example_board();
  const auto field = [&] {
    page.frame([&](const ui::UiContext& ui) { board->draw(ui); });
    return board->state()["layout"]["field"].get<std::string>();
  };
  CHECK(field() == "AI Agents Build Future");
  // Emptied by the learner: the field stays empty (an empty draft used to mean "no draft", and
  // the field went back to the old sentence while the message said to type one).
  REQUIRE(board->command({{"type", "draft"}, {"text", ""}}).done());
  CHECK(field() == "");
  CHECK_FALSE(board->command({{"type", "setSentence"}, {"text", ""}}).done());
  CHECK(field() == "");
  CHECK(board->state()["error"].get<std::string>().find("Type a sentence first") != std::string::npos);
  // Refused as a command: the field shows those words (without what the fonts cannot draw).
  CHECK_FALSE(board->command({{"type", "setSentence"}, {"text", "AI 🙂 Agents"}}).done());
  CHECK(board->state()["field"] == "AI 🙂 Agents");
  CHECK(field() == "AI Agents");
  const std::string long_sentence = "a b c d e f g h i j k l m n o p q r";  // 18 tokens
  CHECK_FALSE(board->command({{"type", "setSentence"}, {"text", long_sentence}}).done());
  CHECK(field() == long_sentence);
  CHECK(board->state()["sentence"] == "AI Agents Build Future");
  // A shared link carries what the field holds, even an emptied field.
  REQUIRE(board->command({{"type", "draft"}, {"text", ""}}).done());
  CHECK(board->snapshot()["draft"] == "");
  // A sentence that runs: field, board and message agree again.
  REQUIRE(board->command({{"type", "setSentence"}, {"text", "The AI Agents Build"}}).done());
  CHECK(field() == "The AI Agents Build");
  CHECK(board->state()["error"] == "");
  CHECK(board->state()["draft"] == "");
}

TEST_CASE("every stage's name is whole inside its room, beside the dots or under them on a phone") {
  for (const float width : {320.0f, 375.0f, 768.0f, 1440.0f}) {
    CAPTURE(width);
    Headless page(width, 800);
    page.ui.reduced_motion = true;
    auto board = playback_test::example_board();
    for (int k = 0; k < board->model().controller().count(); ++k) {
      CAPTURE(k);
      REQUIRE(board->command({{"type", "seek"}, {"step", k}}).done());
      const json layout = draw(page, *board);
      REQUIRE_FALSE(layout["stage_labels"].empty());
      bool lit_named = false;
      for (const json& label : layout["stage_labels"]) {
        const json &text = label["text_rect"], &room = label["room"];
        CHECK(text[0].get<float>() >= room[0].get<float>() - 0.5f);
        CHECK(text[0].get<float>() + text[2].get<float>() <= room[0].get<float>() + room[2].get<float>() + 0.5f);
        lit_named = lit_named || label["text"] == board->state()["stage"];
      }
      CHECK(lit_named);
    }
  }
}

TEST_CASE("on a phone the longest sentence's row labels never overlap and none is smaller than 8 px") {
  Headless page(375, 740);
  page.ui.reduced_motion = true;
  auto board =
      playback_test::example_board("The quick brown fox jumps over the lazy dog while the old cat sleeps on mats");
  REQUIRE(board->model().trace()->labels.size() == 16);
  int crowded = 0;  // matrices whose rows are too short for a label each
  for (int k = 0; k < board->model().controller().count(); ++k) {
    CAPTURE(k);
    REQUIRE(board->command({{"type", "seek"}, {"step", k}}).done());
    const json layout = draw(page, *board);
    if (!layout.contains("matrices")) continue;
    for (const json& m : layout["matrices"]) {
      CAPTURE(m["name"].get<std::string>());
      CHECK(m["label_size"].get<float>() >= 8.0f - 1e-3f);
      std::vector<std::pair<float, float>> spans;
      for (const json& r : m["row_labels"])
        spans.emplace_back(r[1].get<float>(), r[1].get<float>() + r[3].get<float>());
      std::sort(spans.begin(), spans.end());
      for (std::size_t i = 1; i < spans.size(); ++i) CHECK(spans[i].first >= spans[i - 1].second - 0.5f);
      if (!spans.empty() && spans.size() < 16) ++crowded;
    }
  }
  MESSAGE(crowded << " matrices label every n-th row");
}
