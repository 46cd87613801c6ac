// The board as a learner and a host page use it: drawn headless at several widths, driven by
// commands, keys and clicks, reporting what it shows.
#include "playback_harness.h"

#include "engine/core/model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace neuralpath;
using nlohmann::json;
using playback_test::Headless;

namespace {

std::vector<json> of_type(const std::vector<json>& events, const char* type) {
  std::vector<json> out;
  for (const auto& e : events)
    if (e["type"] == type) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("the board draws every step for many frames at phone and tablet and desktop widths") {
  for (const float width : {320.0f, 390.0f, 768.0f, 1280.0f, 1920.0f}) {
    CAPTURE(width);
    Headless page(width, 900);
    REQUIRE(page.font_error.empty());
    auto board = playback_test::example_board();
    REQUIRE(board->model().error().empty());
    REQUIRE(board->command({{"type", "play"}}).done());
    REQUIRE(board->command({{"type", "speed"}, {"rate", 2.0}}).done());
    int frames = 0;
    // ~150 s at 60 fps covers every step at 2x (the captions' reading time is about 100 s; a
    // caption grows when the narrator explains more, as the next word's did for #30)
    while (frames < 9000 && board->model().controller().playing()) {
      board->update(1.0f / 60);
      CHECK(page.frame([&](const ui::UiContext& ui) { board->draw(ui); }));
      ++frames;
    }
    CHECK(board->model().controller().finished());
    CHECK(board->model().controller().index() == board->model().controller().count() - 1);
    // And once more in the dark theme at a HiDPI scale.
    page.ui.theme = ui::Theme::dark;
    page.ui.scale = 2;
    for (int i = 0; i < 30; ++i) CHECK(page.frame([&](const ui::UiContext& ui) { board->draw(ui); }));
  }
}

TEST_CASE("every number a caption says is drawn on the board at phone and desktop widths") {
  for (const float width : {340.0f, 1280.0f}) {
    CAPTURE(width);
    Headless page(width, 900);
    page.ui.reduced_motion = true;  // each step complete at once
    auto board = playback_test::example_board();
    for (int k = 0; k < board->model().controller().count(); ++k) {
      REQUIRE(board->command({{"type", "seek"}, {"step", k}}).done());
      page.frame([&](const ui::UiContext& ui) { board->draw(ui); });
      std::set<std::string> shown;
      for (const std::string& s : board->view().drawn_strings())
        for (const std::string& n : playback_test::numbers_in(s)) shown.insert(n);
      const std::string& caption = board->model().controller().current()->caption;
      CAPTURE(caption);
      for (const std::string& n : playback_test::numbers_in(caption))
        CHECK_MESSAGE(shown.count(n) == 1, n << " is said but not shown");
    }
  }
}

TEST_CASE("cells fill in as the step runs and at once with reduced motion") {
  Headless page(1280, 900);
  auto board = playback_test::example_board();
  REQUIRE(board->command({{"type", "seek"}, {"step", 4}}).done());  // Q = X·W_Q
  page.frame([&](const ui::UiContext& ui) { board->draw(ui); });
  const std::size_t at_start = board->view().drawn_strings().size();
  for (int i = 0; i < 120; ++i) board->update(1.0f / 60);
  page.frame([&](const ui::UiContext& ui) { board->draw(ui); });
  const std::size_t later = board->view().drawn_strings().size();
  CHECK(later > at_start);

  REQUIRE(board->command({{"type", "seek"}, {"step", 5}}).done());
  page.ui.reduced_motion = true;
  page.frame([&](const ui::UiContext& ui) { board->draw(ui); });
  CHECK(board->view().drawn_strings().size() >= later);
}

TEST_CASE("commands drive the board and state() reports it as the learner sees it") {
  auto board = playback_test::example_board();
  json s = board->state();
  CHECK(s["kind"] == "playback");
  CHECK(s["step"] == 0);
  CHECK(s["steps"] == static_cast<int>(board->model().trace()->steps.size()));
  CHECK(s["step_kind"] == "tokens");
  CHECK(s["sentence"] == "AI Agents Build Future");
  CHECK(s["tokens"] == json::array({"AI", "Agents", "Build", "Future"}));
  CHECK(s["playing"] == false);
  CHECK(s["voice"] == false);
  CHECK(s["speed"] == doctest::Approx(1.0));
  CHECK(s["caption"] == board->model().trace()->steps[0].narration);

  CHECK(board->command({{"type", "play"}}).done());
  CHECK(board->state()["playing"] == true);
  CHECK(board->command({{"type", "pause"}}).done());
  CHECK(board->state()["playing"] == false);
  CHECK(board->command({{"type", "step"}, {"n", 3}}).done());
  CHECK(board->state()["step"] == 3);
  CHECK(board->command({{"type", "step"}, {"n", -1}}).done());
  CHECK(board->state()["step"] == 2);
  CHECK(board->command({{"type", "step"}}).done());
  CHECK(board->state()["step"] == 3);
  CHECK(board->command({{"type", "seek"}, {"step", 9}}).done());
  CHECK(board->state()["step"] == 9);
  CHECK(board->command({{"type", "restart"}}).done());
  CHECK(board->state()["step"] == 0);
  CHECK(board->command({{"type", "speed"}, {"rate", 0.5}}).done());
  CHECK(board->state()["speed"] == doctest::Approx(0.5));
  CHECK(board->command({{"type", "voice"}, {"on", true}}).done());
  CHECK(board->state()["voice"] == true);

  const auto events = board->take_events();
  CHECK(of_type(events, "caption").size() == 5);  // steps 3, 2, 3, 9 and 0, each with its text
  CHECK(of_type(events, "caption").back()["text"] == board->model().trace()->steps[0].narration);
}

TEST_CASE("speechEnded moves a playing board on only when the voice is on") {
  auto board = playback_test::example_board();
  REQUIRE(board->command({{"type", "play"}}).done());
  CHECK(board->command({{"type", "speechEnded"}, {"step", 0}}).done());
  CHECK(board->state()["step"] == 0);
  REQUIRE(board->command({{"type", "voice"}, {"on", true}}).done());
  CHECK(board->command({{"type", "speechEnded"}, {"step", 0}}).done());
  CHECK(board->state()["step"] == 1);
  CHECK(board->command({{"type", "speechEnded"}, {"step", 0}}).done());  // stale: already past step 0
  CHECK(board->state()["step"] == 1);
}

TEST_CASE("malformed commands are refused with a message and change nothing") {
  auto board = playback_test::example_board();
  const json before = board->state();
  for (const json& bad :
       {json{{"type", "seek"}, {"step", -1}}, json{{"type", "seek"}, {"step", 1000}},
        json{{"type", "seek"}, {"step", "3"}}, json{{"type", "seek"}}, json{{"type", "step"}, {"n", 1.5}},
        json{{"type", "speed"}, {"rate", 3}}, json{{"type", "speed"}, {"rate", "fast"}},
        json{{"type", "voice"}, {"on", "yes"}}, json{{"type", "setSentence"}, {"text", 5}},
        json{{"type", "head"}, {"head", 7}}, json{{"type", "dance"}}, json{{"type", "speechEnded"}, {"step", "x"}}}) {
    CAPTURE(bad.dump());
    const widgets::CommandResult result = board->command(bad);
    REQUIRE_FALSE(result.done());
    CHECK_FALSE(result.reason().empty());
  }
  CHECK(board->state() == before);
}

TEST_CASE("setSentence runs the block on the learner's sentence and a bad one keeps the old and says why") {
  auto board = playback_test::example_board();
  REQUIRE(board->command({{"type", "seek"}, {"step", 5}}).done());
  CHECK(board->command({{"type", "setSentence"}, {"text", "the cat sat"}}).done());
  CHECK(board->state()["tokens"] == json::array({"the", "cat", "sat"}));
  CHECK(board->state()["step"] == 5);  // the same point in the block, on the new sentence
  CHECK(board->state()["caption"] == board->model().trace()->steps[5].narration);
  const auto captions = of_type(board->take_events(), "caption");
  REQUIRE_FALSE(captions.empty());
  CHECK(captions.back()["text"] == board->model().trace()->steps[5].narration);

  const auto empty = board->command({{"type", "setSentence"}, {"text", "   "}});
  REQUIRE(empty.outcome() == widgets::CommandResult::Outcome::refused);
  CHECK(board->state()["sentence"] == "the cat sat");
  std::string long_sentence;
  for (int i = 0; i < 40; ++i) long_sentence += "word ";
  const auto too_long = board->command({{"type", "setSentence"}, {"text", long_sentence}});
  REQUIRE(too_long.outcome() == widgets::CommandResult::Outcome::refused);
  CHECK(too_long.reason().find("16") != std::string::npos);
  CHECK(board->state()["sentence"] == "the cat sat");
  CHECK(board->state()["error"] != "");

  Headless page(800, 900);
  for (int i = 0; i < 5; ++i) CHECK(page.frame([&](const ui::UiContext& ui) { board->draw(ui); }));
}

TEST_CASE("a lesson sentence the engine refuses shows why instead of a board") {
  auto board = playback_test::example_board("");
  CHECK(board->model().trace() == nullptr);
  CHECK_FALSE(board->model().error().empty());
  CHECK(board->state()["steps"] == 0);
  CHECK(board->command({{"type", "play"}}).done());  // nothing to play: a no-op, not a crash
  Headless page(600, 800);
  for (int i = 0; i < 5; ++i) CHECK(page.frame([&](const ui::UiContext& ui) { board->draw(ui); }));
  CHECK(board->command({{"type", "setSentence"}, {"text", "AI Agents Build Future"}}).done());
  CHECK(board->state()["steps"] > 0);
}

TEST_CASE("the head selector shows the same calculation in the chosen head") {
  auto board = playback_test::example_board();
  REQUIRE(board->model().trace()->heads == 2);
  int score_head_1 = -1;
  for (int k = 0; k < static_cast<int>(board->model().step_indices().size()); ++k)
    if (board->model().trace()->steps[static_cast<std::size_t>(k)].kind == StepKind::score) {
      score_head_1 = k;
      break;
    }
  REQUIRE(score_head_1 >= 0);
  REQUIRE(board->command({{"type", "seek"}, {"step", score_head_1}}).done());
  CHECK(board->state()["head"] == 0);
  REQUIRE(board->command({{"type", "head"}, {"head", 1}}).done());
  CHECK(board->state()["head"] == 1);
  CHECK(board->state()["step_kind"] == "score");
  CHECK(board->model().current_step()->head == 1);
}

TEST_CASE("once clicked the board takes space and the arrows but not while a text field takes the keys") {
  Headless page(1024, 2000);
  auto board = playback_test::example_board();
  auto draw = [&] { page.frame([&](const ui::UiContext& ui) { board->draw(ui); }); };
  auto tap = [&](ImGuiKey key) {  // down for one frame, up for the next
    page.press(key);
    draw();
    draw();
  };
  draw();
  tap(ImGuiKey_Space);  // not clicked yet: space is the page's (it scrolls)
  CHECK_FALSE(board->model().controller().playing());
  tap(ImGuiKey_RightArrow);
  CHECK(board->model().controller().index() == 0);

  page.click(ImVec2(400, 200));  // on the board's step view
  draw();
  draw();
  tap(ImGuiKey_Space);
  CHECK(board->model().controller().playing());
  tap(ImGuiKey_Space);
  CHECK_FALSE(board->model().controller().playing());
  tap(ImGuiKey_RightArrow);
  tap(ImGuiKey_RightArrow);
  CHECK(board->model().controller().index() == 2);
  tap(ImGuiKey_LeftArrow);
  CHECK(board->model().controller().index() == 1);

  ImGui::GetIO().WantTextInput = true;  // as when the sentence field has focus (set by the previous frame)
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[io.KeyMap[ImGuiKey_RightArrow]] = true;
  ImGui::NewFrame();
  io.WantTextInput = true;
  ImGui::Begin("page");
  board->draw(page.ui);
  ImGui::End();
  ImGui::Render();
  CHECK(board->model().controller().index() == 1);

  page.click(ImVec2(400, 1990));  // below the board: the page has the keys again
  draw();
  draw();
  tap(ImGuiKey_RightArrow);
  CHECK(board->model().controller().index() == 1);
}

TEST_CASE("clicking the play button starts the board and clicking a flow stage jumps to it") {
  Headless page(1280, 2000);
  auto board = playback_test::example_board();
  auto draw = [&] { page.frame([&](const ui::UiContext& ui) { board->draw(ui); }); };
  draw();
  // The flow strip is the first row of the card; "Next token" is its last box: sweep along it.
  bool jumped = false;
  for (float x = 20; x < 1260 && !jumped; x += 12) {
    page.click(ImVec2(x, 30));
    draw();
    draw();
    jumped = board->state()["step_kind"] == "next_token";
  }
  CHECK(jumped);
}

TEST_CASE("a wide model on the longest sentence the board takes still draws with every caption number shown") {
  ModelSpec spec;
  for (int f = 0; f < 24; ++f) spec.vocabulary.feature_names.push_back("feature" + std::to_string(f));
  spec.attention.heads = 4;
  widgets::PlaybackSettings p = playback_test::example_playback();
  std::string sentence;
  for (int i = 0; i < widgets::kPlaybackMaxTokens; ++i) sentence += "word" + std::to_string(i) + " ";
  p.sentence = sentence;
  ui::PlaybackWidget board(widgets::PlaybackModel(p, playback_test::example_lesson(), spec));
  REQUIRE(board.model().error().empty());
  REQUIRE(board.model().trace()->d_model == 24);
  for (const float width : {320.0f, 1400.0f}) {
    Headless page(width, 1200);
    page.ui.reduced_motion = true;
    for (int k = 0; k < board.model().controller().count(); ++k) {
      REQUIRE(board.command({{"type", "seek"}, {"step", k}}).done());
      CHECK(page.frame([&](const ui::UiContext& ui) { board.draw(ui); }));
      std::set<std::string> shown;
      for (const std::string& s : board.view().drawn_strings())
        for (const std::string& n : playback_test::numbers_in(s)) shown.insert(n);
      const std::string& caption = board.model().controller().current()->caption;
      CAPTURE(caption);
      for (const std::string& n : playback_test::numbers_in(caption)) CHECK(shown.count(n) == 1);
    }
  }
}

TEST_CASE("a key the focused board takes does not also reach the page drawn after it") {
  Headless page(1024, 2000);
  auto board = playback_test::example_board();
  page.frame([&](const ui::UiContext& ui) { board->draw(ui); });  // ImGui knows which window is hovered from here on
  page.click(ImVec2(400, 200));
  for (int i = 0; i < 2; ++i) page.frame([&](const ui::UiContext& ui) { board->draw(ui); });
  page.press(ImGuiKey_Space);
  bool page_saw_space = true;
  page.frame([&](const ui::UiContext& ui) {
    board->draw(ui);
    page_saw_space = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space));  // what the page's scrolling reads next
  });
  CHECK(board->model().controller().playing());
  CHECK_FALSE(page_saw_space);
}
