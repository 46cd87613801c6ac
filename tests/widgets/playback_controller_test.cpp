// The playback clock: what play, pause, step, speed and the voice do to the current caption.
#include "engine/widgets/playback/playback_controller.h"

#include <doctest/doctest.h>

using namespace neuralpath::widgets::playback;

namespace {

std::vector<CaptionStep> three_steps() {
  return {{"'AI' scores 'AI' at 1.90.", "score", "Scores (head 1)", 7},
          {"Divided by √4 that is 0.95.", "scale", "Scaled by 1/√4 (head 1)", 8},
          {"Softmax turns the scores into weights that sum to 1: 'AI' gets 1.00.", "softmax", "Softmax (head 1)", 10}};
}

// Runs the clock for `seconds` in frames of 1/60 s.
void run(PlaybackController& c, float seconds) {
  for (float t = 0; t < seconds; t += 1.0f / 60) c.update(1.0f / 60);
}

std::vector<nlohmann::json> of_type(const std::vector<nlohmann::json>& events, const char* type) {
  std::vector<nlohmann::json> out;
  for (const auto& e : events)
    if (e["type"] == type) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("play advances to the next caption once the caption's timed duration has passed") {
  PlaybackController c(three_steps());
  c.play();
  REQUIRE(c.playing());
  run(c, c.duration() * 0.9f);
  CHECK(c.index() == 0);
  run(c, c.duration() * 0.2f);
  CHECK(c.index() == 1);
  CHECK(c.current()->caption == "Divided by √4 that is 0.95.");
}

TEST_CASE("pause stops the board where it is") {
  PlaybackController c(three_steps());
  c.play();
  run(c, c.duration() * 0.5f);
  c.pause();
  CHECK_FALSE(c.playing());
  run(c, 60);
  CHECK(c.index() == 0);
  c.play();  // resumes the same step where it was, not from its start
  run(c, timed_duration(three_steps()[0].caption, 1) * 0.6f);
  CHECK(c.index() == 1);
}

TEST_CASE("step back returns the previous caption and seek and step stay within the steps") {
  PlaybackController c(three_steps());
  c.step(2);
  CHECK(c.current()->caption == three_steps()[2].caption);
  c.step(-1);
  CHECK(c.current()->caption == three_steps()[1].caption);
  c.step(-5);
  CHECK(c.index() == 0);
  c.seek(99);
  CHECK(c.index() == 2);
  c.restart();
  CHECK(c.index() == 0);
}

TEST_CASE("speechEnded advances only when the voice is on and the board is playing") {
  PlaybackController c(three_steps());
  c.play();
  CHECK_FALSE(c.speech_ended());  // voice off: the timer decides, not the speech
  CHECK(c.index() == 0);

  c.set_voice(true);
  run(c, c.duration() * 2);  // with a voice, the caption's length no longer moves the board
  CHECK(c.index() == 0);
  CHECK(c.speech_ended(0));
  CHECK(c.index() == 1);

  c.pause();
  CHECK_FALSE(c.speech_ended(1));  // paused: the end of an utterance changes nothing
  CHECK(c.index() == 1);
}

TEST_CASE("a late speechEnded for a step the board has already left does nothing") {
  PlaybackController c(three_steps());
  c.set_voice(true);
  c.play();
  c.step(1);  // the learner skipped ahead while step 0 was being read
  CHECK_FALSE(c.speech_ended(0));
  CHECK(c.index() == 1);
}

TEST_CASE("with the voice on a board whose utterance never ends still moves on eventually") {
  PlaybackController c(three_steps());
  c.set_voice(true);
  c.play();
  const float limit = std::max(3 * c.duration(), c.duration() + 10);
  run(c, limit * 0.95f);
  CHECK(c.index() == 0);
  run(c, limit * 0.1f);
  CHECK(c.index() == 1);
}

TEST_CASE("speed scales the timed duration from half speed to double speed") {
  const std::string caption = three_steps()[0].caption;
  CHECK(timed_duration(caption, 2.0f) == doctest::Approx(timed_duration(caption, 1.0f) / 2));
  CHECK(timed_duration(caption, 0.5f) == doctest::Approx(timed_duration(caption, 1.0f) * 2));
  CHECK(timed_duration(caption, 9.0f) == doctest::Approx(timed_duration(caption, 2.0f)));  // clamped
  CHECK(timed_duration(caption + caption, 1.0f) > timed_duration(caption, 1.0f));          // longer text, longer step

  PlaybackController c(three_steps());
  c.set_speed(2.0f);
  c.play();
  run(c, timed_duration(caption, 1.0f) * 0.55f);
  CHECK(c.index() == 1);
  c.set_speed(0.1f);
  CHECK(c.speed() == doctest::Approx(kMinSpeed));
}

TEST_CASE("playing through the last step stops the board and play then starts again from the first step") {
  PlaybackController c(three_steps());
  c.seek(2);
  c.play();
  run(c, c.duration() + 0.1f);
  CHECK_FALSE(c.playing());
  CHECK(c.finished());
  CHECK(c.index() == 2);
  c.play();
  CHECK(c.playing());
  CHECK(c.index() == 0);
}

TEST_CASE("every step change emits a caption event with its text and step and trace index") {
  PlaybackController c(three_steps());
  c.step(1);
  c.play();
  run(c, c.duration() + 0.05f);
  c.step(-2);
  const auto captions = of_type(c.take_events(), "caption");
  REQUIRE(captions.size() == 3);
  CHECK(captions[0]["text"] == three_steps()[1].caption);
  CHECK(captions[0]["step"] == 1);
  CHECK(captions[0]["index"] == 8);
  CHECK(captions[1]["step"] == 2);
  CHECK(captions[2]["step"] == 0);
  CHECK(captions[2]["text"] == three_steps()[0].caption);
  CHECK(c.take_events().empty());
}

TEST_CASE("play and pause and speed and voice changes emit a playback event for the speech module") {
  PlaybackController c(three_steps());
  c.play();
  c.set_speed(1.5f);
  c.set_voice(true);
  c.pause();
  const auto states = of_type(c.take_events(), "playback");
  REQUIRE(states.size() == 4);
  CHECK(states[0]["playing"] == true);
  CHECK(states[1]["speed"] == doctest::Approx(1.5));
  CHECK(states[2]["voice"] == true);
  CHECK(states[3]["playing"] == false);
  CHECK(states[3]["caption"] == three_steps()[0].caption);
}

TEST_CASE("the cells fill over the first part of a step, a pause shows them whole, and a new step starts over") {
  PlaybackController c(three_steps());
  CHECK(c.fill_progress() == doctest::Approx(0));
  c.play();
  run(c, 0.3f);
  const float part = c.fill_progress();
  CHECK(part > 0);
  CHECK(part < 1);
  c.pause();  // #34: paused mid-fill, half the matrices stayed empty
  CHECK(c.fill_progress() == doctest::Approx(1));
  CHECK_FALSE(c.animating());
  run(c, 2);
  CHECK(c.fill_progress() == doctest::Approx(1));
  CHECK(c.index() == 0);  // and the board stays on its step
  c.step(1);
  CHECK(c.fill_progress() == doctest::Approx(0));
  run(c, 20);
  CHECK(c.fill_progress() == doctest::Approx(1));  // stepping by hand still animates the new step
}

TEST_CASE("a controller without steps ignores every command") {
  PlaybackController c;
  c.play();
  c.step(1);
  c.seek(3);
  c.update(1);
  CHECK_FALSE(c.playing());
  CHECK(c.current() == nullptr);
  CHECK(c.count() == 0);
}
