// playback_narration_test.cpp: narration that teaches on the board (#15 item 2): the mask step
// speaks about a row it changes, the learner picks the word the captions follow, and the
// next-token step's temperature re-computes the probabilities and the caption live.
#include "playback_harness.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/trace/narration.h"
#include "engine/widgets/widget_kinds.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/ui/widget.h"

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

using namespace neuralpath;
using nlohmann::json;
using playback_test::course_board;
using playback_test::LessonBoard;

namespace {

int seek_kind(ui::PlaybackWidget& board, const std::string& kind) {
  for (int k = 0; k < board.model().controller().count(); ++k) {
    REQUIRE(board.command({{"type", "seek"}, {"step", k}}).done());
    if (board.state()["step_kind"] == kind) return k;
  }
  FAIL("no step of kind " << kind);
  return -1;
}

// Speaks Spanish for one scope (the catalogue the site ships), English again after it.
struct Spanish {
  Spanish() {
    std::ifstream in("lessons/strings/es.strings");
    std::stringstream text;
    text << in.rdbuf();
    REQUIRE(use_language("es", text.str()).empty());
  }
  ~Spanish() { use_language("en", ""); }
  Spanish(const Spanish&) = delete;
  Spanish& operator=(const Spanish&) = delete;
};

// Every caption of the board, step by step.
std::vector<std::string> captions(ui::PlaybackWidget& board) {
  std::vector<std::string> out;
  for (int k = 0; k < board.model().controller().count(); ++k) {
    REQUIRE(board.command({{"type", "seek"}, {"step", k}}).done());
    out.push_back(board.state()["caption"].get<std::string>());
  }
  return out;
}

}  // namespace

TEST_CASE("the mask step narrates a row that has masked cells, even when the last word is followed") {
  auto board = playback_test::example_board();
  seek_kind(*board, "mask");
  const Step& s = *board->model().current_step();
  CHECK(board->state()["focus"] == 3);  // the captions follow 'Future'...
  CHECK(s.focus.row == 2);              // ...but the mask teaches on 'Build''s row
  CHECK(s.focus.col == 3);
  CHECK(board->state()["caption"] ==
        "'Build' may not look ahead at 'Future': its score becomes -∞, so its weight will be exactly 0.");
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

  CHECK_FALSE(board->command({{"type", "focus"}, {"token", 4}}).done());  // no fifth word: refused, nothing changes
  CHECK_FALSE(board->command({{"type", "focus"}, {"token", "x"}}).done());
  CHECK(board->state()["focus"] == 1);
  REQUIRE(board->command({{"type", "setSentence"}, {"text", "AI Agents Build better tools"}}).done());
  CHECK(board->state()["focus"] == 4);  // a new sentence follows its last word again
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
  REQUIRE(after.focus.col == top);                                           // the ranking does not change...
  CHECK(after.result.values(0, top) > before.result.values(0, top));         // ...the top word gets sharper
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

TEST_CASE(
    "step 17 names the joined vector's entry as the board does, concat[Future, 3], in both languages (#34 item 8)") {
  const auto step17 = [](ui::PlaybackWidget& board) {
    const int k = seek_kind(board, "concat_heads");
    CHECK(k == 16);  // the 17th step of the lesson's playback
    const Step& s = *board.model().current_step();
    CHECK(s.result.col_labels[static_cast<std::size_t>(s.focus.col)] == "3");
    return board.state()["caption"].get<std::string>();
  };
  LessonBoard en = course_board("lessons/course-playback.md");
  CHECK(step17(*en.board) ==
        "The 2 heads' outputs sit side by side: entry 3 of the joined vector of 'Future' is entry 3 of head 1, which "
        "is 1.09.");
  Spanish es;
  LessonBoard board = course_board("lessons/es/course-playback.md");
  CHECK(step17(*board.board) ==
        "Las salidas de las 2 cabezas se colocan una junto a otra: la componente 3 del vector unido "
        "de «Future» vale 1,09 y es la componente 3 de la cabeza 1.");
}

TEST_CASE(
    "the Spanish course playback speaks Spanish a native speaker would: its features, its numbers, its articles") {
  Spanish es;
  LessonBoard b = course_board("lessons/es/course-playback.md");
  const std::vector<std::string> said = captions(*b.board);
  REQUIRE(said.size() == 24);
  const std::regex english_feature(R"(\b(thing|agent|action|time|tech|function|punctuation|quality)\b)");
  const std::regex number_then_comma(R"(\d,\d+,)"), comma_then_number(R"(,\s−?-?\d+,\d)");
  int features = 0;
  for (const std::string& caption : said) {
    CAPTURE(caption);
    CHECK_FALSE(std::regex_search(caption, english_feature));
    CHECK_FALSE(std::regex_search(caption, number_then_comma));
    CHECK_FALSE(std::regex_search(caption, comma_then_number));
    CHECK(caption.find("...") == std::string::npos);
    CHECK(caption.find("la subcapa") == std::string::npos);
    CHECK(caption.find("(none)") == std::string::npos);
    features += caption.find("rasgo de ") != std::string::npos ? 1 : 0;
  }
  CHECK(features >= 6);
  CHECK(said[1] == "«Future» sale del vocabulario: su rasgo de cosa vale 1,00.");
  CHECK(said[18] ==
        "«Future» conserva su propio vector y le suma lo que encontró la atención: su rasgo de acción vale "
        "0,15 + 1,09 = 1,24.");
  CHECK(said[23].find("el modelo da a «.» un 35,8\u00a0%: la softmax compara su logit") != std::string::npos);
}
