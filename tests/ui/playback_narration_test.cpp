// playback_narration_test.cpp: narration that teaches on the board (#15 item 2): the mask step
// speaks about a row it changes, the learner picks the word the captions follow, and the
// next-token step's temperature re-computes the probabilities and the caption live.
#include "playback_harness.h"

#include "engine/text/format.h"
#include "engine/core/narration.h"

#include <doctest/doctest.h>

#include <string>

using namespace neuralpath;
using nlohmann::json;

namespace {

int seek_kind(ui::PlaybackWidget& board, const std::string& kind) {
  for (int k = 0; k < board.model().controller().count(); ++k) {
    REQUIRE(board.command({{"type", "seek"}, {"step", k}}).done());
    if (board.state()["step_kind"] == kind) return k;
  }
  FAIL("no step of kind " << kind);
  return -1;
}

}  // namespace

TEST_CASE("the mask step narrates a row that has masked cells, even when the last word is followed") {
  auto board = playback_test::example_board();
  seek_kind(*board, "mask");
  const Step& s = *board->model().current_step();
  CHECK(board->state()["focus"] == 3);                   // the captions follow 'Future'...
  CHECK(s.focus.row == 2);                               // ...but the mask teaches on 'Build''s row
  CHECK(s.focus.col == 3);
  CHECK(board->state()["caption"] == "'Build' may not look ahead at 'Future': its score becomes -∞, so its weight will be exactly 0.");
  bool row_masked = false;
  for (const Cell& c : s.masked_cells) row_masked = row_masked || c.row == s.focus.row;
  CHECK(row_masked);
}

TEST_CASE("the learner picks the word the captions follow; the step stays where it was") {
  auto board = playback_test::example_board();
  const int softmax = seek_kind(*board, "softmax");
  CHECK(board->state()["caption"].get<std::string>().find("'Future'") != std::string::npos);
  board->take_events();
  REQUIRE(board->command({{"type", "focus"}, {"token", 1}}).done());
  const json state = board->state();
  CHECK(state["focus"] == 1);
  CHECK(state["step"] == softmax);
  const std::string caption = state["caption"];
  CHECK(caption.find("'Agents'") != std::string::npos);
  CHECK(caption.find("'Future'") == std::string::npos);  // 'Agents' cannot see 'Future' (causal)
  CHECK(caption == board->model().current_step()->narration);
  bool announced = false;
  for (const json& e : board->take_events()) announced = announced || (e["type"] == "caption" && e["text"] == caption);
  CHECK(announced);  // the page's voice reads the new sentence

  CHECK_FALSE(board->command({{"type", "focus"}, {"token", 4}}).done());   // no fifth word: refused, nothing changes
  CHECK_FALSE(board->command({{"type", "focus"}, {"token", "x"}}).done());
  CHECK(board->state()["focus"] == 1);
  REQUIRE(board->command({{"type", "setSentence"}, {"text", "AI Agents Build better tools"}}).done());
  CHECK(board->state()["focus"] == 4);                   // a new sentence follows its last word again
}

TEST_CASE("the temperature slider re-computes the next-word probabilities and their caption") {
  auto board = playback_test::example_board();
  seek_kind(*board, "next_token");
  const Step before = *board->model().current_step();
  CHECK(board->state()["temperature"] == doctest::Approx(1.0));
  REQUIRE(board->command({{"type", "temperature"}, {"value", 0.5}}).done());
  const Step& after = *board->model().current_step();
  CHECK(board->state()["temperature"] == doctest::Approx(0.5));
  const int top = before.focus.col;
  REQUIRE(after.focus.col == top);                       // the ranking does not change...
  CHECK(after.result.values(0, top) > before.result.values(0, top));  // ...the top word gets sharper
  CHECK(after.inputs[0].values(0, top) == before.inputs[0].values(0, top));  // same logits
  const std::string caption = board->state()["caption"];
  CHECK(caption.find("divided by the temperature " + format_number(0.5f)) != std::string::npos);
  CHECK(caption.find(format_percent(after.result.values(0, top))) != std::string::npos);

  CHECK_FALSE(board->command({{"type", "temperature"}, {"value", 0}}).done());
  CHECK_FALSE(board->command({{"type", "temperature"}, {"value", 50}}).done());
  CHECK(board->state()["temperature"] == doctest::Approx(0.5));
}

TEST_CASE("the focus picker and the temperature slider draw at phone and desktop widths") {
  for (const float width : {320.0f, 1280.0f}) {
    CAPTURE(width);
    playback_test::Headless page(width, 900);
    REQUIRE(page.font_error.empty());
    auto board = playback_test::example_board();
    seek_kind(*board, "next_token");
    for (int i = 0; i < 3; ++i) CHECK(page.frame([&](const ui::UiContext& ui) { board->draw(ui); }));
  }
}
