// The playback's steps: the whole block in order, named as authors name them, each caption
// saying exactly the numbers its step computed.
#include "playback_harness.h"

#include "engine/trace/block_trace.h"
#include "engine/text/format.h"
#include "engine/core/model.h"
#include "engine/ui/widgets/playback/code_panel.h"
#include "engine/widgets/playback/playback_steps.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace neuralpath;
using namespace neuralpath::ui::playback;       // the board's drawing (code_window)
using namespace neuralpath::widgets::playback;  // its steps and stages

namespace {

// Every string a step could print for its numbers: its result, inputs and scalar, as
// format_number shows them, and its probabilities as format_percent shows them.
std::set<std::string> printed_values(const Step& s) {
  std::set<std::string> out;
  auto add = [&](const Matrix& m) {
    for (Index i = 0; i < m.size(); ++i) out.insert(format_number(m.data()[i]));
  };
  add(s.result.values);
  for (const NamedMatrix& m : s.inputs) add(m.values);
  out.insert(format_number(s.scalar));
  if (s.kind == StepKind::next_token)
    for (Index i = 0; i < s.result.values.size(); ++i) out.insert(format_percent(s.result.values.data()[i]));
  return out;
}

std::vector<std::string> kinds_of(const Trace& t, const std::vector<int>& steps) {
  std::vector<std::string> kinds;
  for (int i : steps) kinds.push_back(step_kind_name(t.steps[static_cast<std::size_t>(i)].kind));
  return kinds;
}

}  // namespace

TEST_CASE("the playback covers the whole block in order from the tokens to the next-token probabilities") {
  auto board = playback_test::example_board();
  const Trace& trace = *board->model().trace();
  REQUIRE(board->model().step_indices().size() == trace.steps.size());
  for (std::size_t k = 0; k < trace.steps.size(); ++k) CHECK(board->model().step_indices()[k] == static_cast<int>(k));

  std::vector<std::string> expected = {"tokens", "embedding", "positions"};
  for (std::size_t c = 0; c < trace.context.size(); ++c) expected.push_back("context_layer");
  for (const char* k : {"project_q", "project_k", "project_v"}) expected.push_back(k);
  for (int h = 0; h < trace.heads; ++h)
    for (const char* k : {"score", "scale", "mask", "softmax", "blend"}) expected.push_back(k);
  for (const char* k : {"concat_heads", "output_projection", "residual", "layer_norm", "feed_forward", "residual",
                        "layer_norm", "next_token"})
    expected.push_back(k);
  CHECK(kinds_of(trace, board->model().step_indices()) == expected);

  // The flow diagram's stages never go backwards, except to start the next head's pass.
  int last = -1, last_head = -1;
  for (int i : board->model().step_indices()) {
    const Step& s = trace.steps[static_cast<std::size_t>(i)];
    const int stage = static_cast<int>(stage_of(s.kind));
    if (stage < last) {
      CHECK(s.kind == StepKind::score);
      CHECK(s.head == last_head + 1);
    }
    last = stage;
    last_head = std::max(last_head, s.head);
  }
}

TEST_CASE("each caption is its step's narration from the trace") {
  auto board = playback_test::example_board();
  const Trace& trace = *board->model().trace();
  const PlaybackController& c = board->model().controller();
  for (int k = 0; k < c.count(); ++k) {
    REQUIRE(board->command({{"type", "seek"}, {"step", k}}).done());
    CHECK(c.current()->caption == trace.steps[static_cast<std::size_t>(k)].narration);
    CHECK(c.current()->index == k);
  }
}

TEST_CASE("each caption's numbers are the step's own values printed as the board prints them") {
  for (const char* sentence :
       {"AI Agents Build Future", "the animal didn't cross the street because it was too tired"}) {
    for (const Mask& mask : {Mask::causal_mask(), Mask::none()}) {
      TraceOptions options;
      options.mask = mask;
      const Trace trace = run_block(default_model_spec(), sentence, options);
      for (const Step& s : trace.steps) {
        CAPTURE(s.narration);
        const std::vector<std::string> spoken = playback_test::numbers_in(s.narration);
        const std::set<std::string> values = printed_values(s);
        for (const std::string& n : spoken) CHECK_MESSAGE(values.count(n) == 1, n << " is not a value of the step");
        // The focus cell's value is what the sentence is about.
        if (s.kind == StepKind::tokens) continue;
        const float focus = s.result.values(s.focus.row, s.focus.col);
        const std::string printed = s.kind == StepKind::next_token ? format_percent(focus) : format_number(focus);
        CHECK(std::find(spoken.begin(), spoken.end(), printed) != spoken.end());
      }
    }
  }
}

TEST_CASE("a lesson's step list keeps only the named steps in block order") {
  const Trace trace = run_block(default_model_spec(), "AI Agents Build Future");
  const std::vector<int> chosen = select_steps(trace, {"softmax", "scores", "next-token"});
  std::vector<std::string> expected;
  for (int h = 0; h < trace.heads; ++h) expected.insert(expected.end(), {"score", "softmax"});
  expected.push_back("next_token");
  CHECK(kinds_of(trace, chosen) == expected);
  CHECK(std::is_sorted(chosen.begin(), chosen.end()));
}

TEST_CASE("every trace step has a lesson step name authors can write") {
  const Trace trace = run_block(default_model_spec(), "AI Agents Build Future");
  for (const Step& s : trace.steps) CHECK(lesson::is_playback_step(lesson_step_name(s.kind)));
}

TEST_CASE("the code panel's lines follow the code block's step table") {
  const lesson::Lesson lesson = playback_test::example_lesson();
  const auto& code = std::get<lesson::CodeBlock>(lesson.sections[0].blocks[0].content);
  CHECK(code_lines_for(code, StepKind::score) == std::vector<int>{3});
  CHECK(code_lines_for(code, StepKind::mask) == std::vector<int>{4, 5});
  CHECK(code_lines_for(code, StepKind::next_token).empty());

  auto board = playback_test::example_board();
  const PlaybackController& c = board->model().controller();
  for (int k = 0; k < c.count(); ++k) {
    REQUIRE(board->command({{"type", "seek"}, {"step", k}}).done());
    if (c.current()->kind == "softmax") {
      CHECK(board->state()["code_lines"] == nlohmann::json::array({6}));
      return;
    }
  }
  FAIL("no softmax step");
}

TEST_CASE("the lit operands follow the cell being computed") {
  const Trace trace = run_block(default_model_spec(), "AI Agents Build Future");
  const auto score =
      std::find_if(trace.steps.begin(), trace.steps.end(), [](const Step& s) { return s.kind == StepKind::score; });
  REQUIRE(score != trace.steps.end());
  const InputFocus q = input_focus(*score, 0, {2, 1});
  const InputFocus k = input_focus(*score, 1, {2, 1});
  CHECK(q.row == 2);                                // the query of token 2...
  CHECK(k.row == 1);                                // ...times the key of token 1
  CHECK(input_focus(*score, 5, {2, 1}).row == -1);  // no such input: nothing lit
}

TEST_CASE("the code panel shows a window of lines with the lit lines in its middle") {
  lesson::CodeBlock code;
  for (int i = 0; i < 40; ++i) code.lines.push_back({"line", {}});
  CHECK(code_window(code, {30}, 10).first == 26);
  CHECK(code_window(code, {30}, 10).last == 35);
  CHECK(code_window(code, {1}, 10).first == 1);
  CHECK(code_window(code, {40}, 10).last == 40);
  CHECK(code_window(code, {}, 10).first == 1);
  CHECK(code_window(code, {5, 25}, 10).first == 5);  // a span longer than the window starts at its top
  lesson::CodeBlock short_code;
  short_code.lines.resize(3);
  CHECK(code_window(short_code, {2}, 10).first == 1);
  CHECK(code_window(short_code, {2}, 10).last == 3);
}
