// train_protocol.h: the messages between a lesson page's train widget and its trainer, which
// runs in a Web Worker (web/attention_trainer.cpp, web/shell/np-train-worker.js) so that no frame
// of the page waits on a training step. JSON both ways, the wire format of postMessage and of the
// engine's events and commands; decode refuses anything that is not exactly one message.
//
//   page -> worker (Request)                         worker -> page (Reply)
//   prepare {lesson, task, probe, query}             progress {run, running, steps_per_second,
//   train {run, lesson, task, probe, query, seed,              state, points}
//          state?}                                   error    {run, message}
//   pause {run}
//
// prepare the widget came on screen: load the trainer and build the session a train of the
//         same fields will use, so the learner's first Train starts at once (its download,
//         compile and build done while the learner reads, not while the curves should move).
//         No reply, unless it fails (an error of run 0: the widget will train in its frames).
// train   builds the trainer of the lesson's task (the very TrainSession the page builds: same
//         lesson text, task, probe sentence and query word) and trains it until the end or a
//         pause, from step 0 with `seed`, or from `state` (the page's trainer as numbers). The
//         widget fills every field but `lesson`, which the page's script adds (the text the
//         engine loaded).
// progress at every curve point (TrainSession::kRecordEvery steps) and when the run stops: the
//         worker's whole trainer state (Trainer::State: the page's session loads it and is where
//         the worker is, bit for bit) and the curve points measured since the last progress.
// A state is {step, order_state, order, cursor, values}: order_state a 64-bit integer in a
// decimal string, values every float's 32 bits in 8 hex digits, one string.
// `run` numbers a run: the page starts one with each train message and ignores replies of any
// other (one in flight when the learner pressed Pause or Reset).
#pragma once

#include "engine/core/training.h"
#include "engine/widgets/train/train_session.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace neuralpath::widgets::trainworker {

inline constexpr std::int64_t kMaxSeed = 2147483647;  // the seed field holds an int
inline constexpr std::size_t kMaxNumbers = 1u << 22;  // a state's numbers (the models are far smaller)

struct Train {
  int run = 1;
  std::string lesson;        // the lesson's text, as the page's engine loaded it
  std::string task;          // the ```task id the widget trains on
  std::string probe, query;  // the widget's sentence and its query word (the spotlight)
  std::int64_t seed = 1;
  std::optional<Trainer::State> state;  // absent: from step 0
};
struct Pause {
  int run = 1;
};
struct Prepare {
  std::string lesson;  // the page's script adds it, as for train
  std::string task, probe, query;
};
using Request = std::variant<Train, Pause, Prepare>;

struct Progress {
  int run = 1;
  bool running = false;  // false: the run stopped (paused or finished) at state.step
  double steps_per_second = 0.0;
  Trainer::State state;
  std::vector<CurvePoint> points;  // measured since the last progress, in step order
};
struct Error {
  int run = 0;
  std::string message;
};
using Reply = std::variant<Progress, Error>;

using Json = nlohmann::json;

Json encode(const Request& request);
Json encode(const Reply& reply);
// The message, or a one-line reason it is not exactly one (unknown type or field, a missing or
// mistyped field, a number out of range, a text over its limit).
std::variant<Request, std::string> decode_request(const Json& message);
std::variant<Reply, std::string> decode_reply(const Json& message);

}  // namespace neuralpath::widgets::trainworker
