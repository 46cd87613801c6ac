// protocol.h: the messages between a lesson page and its language-model trainer, which runs in
// a Web Worker (web/lm_trainer.cpp, web/shell/np-lm-worker.js) so that no frame of the page ever
// waits on a training step. One typed struct per message, and their JSON (the wire format of
// postMessage and of the engine's commands and events). web/shell/np-lm-protocol.js checks the
// same shapes on the JavaScript side; docs/lm-worker.md is the reference.
//
//   page -> worker (Request)                      worker -> page (Reply)
//   open   {run, data, config, seed, steps,       progress {what: "code"|"data", loaded, total}
//           prompt, text}                         ready    {run, lang, source, config, vocab_size,
//   start  {run, seed}                                      context, layers, heads, train_tokens,
//   train  {run, until?}                                    validation_tokens, train_documents,
//   pause  {run}                                            train_bytes, bigram_loss}
//   text   {run, text}                            snapshot {run, step, steps, running, ...}
//                                                 error    {run, message}
//
// `run` numbers a run: the page starts one with open or start and a new number, and ignores
// replies of any other (a reply in flight when the learner pressed Reset). Every reply carries
// the run it belongs to (error may carry 0: before any run).
//
// A snapshot carries what changed since the one before: curve points, head-score rows and
// samples are appended by the receiver (`from` says where they start, so a receiver that missed
// one can tell); heads, milestones, attention and the losses are the latest. The worker sends
// one at step 0 (after open or start), at every measured step (PageRunOptions::measure_every),
// when a run stops (paused, finished, or the `until` step of train reached) and after text.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace neuralpath::lmworker {

// Limits a message is held to on both sides (decode refuses beyond them).
inline constexpr std::size_t kMaxTextBytes = 2000;  // the learner's text and the prompt
inline constexpr int kMaxSteps = 100000;
inline constexpr std::int64_t kMaxSeed = 2147483647;  // a seed field holds an int
inline constexpr std::size_t kMaxUrlBytes = 256;

// [SECTION] Page -> worker ---------------------------------------------------------------------

struct Open {  // load the data (the worker fetches `data`) and start run `run` at step 0
  int run = 1;
  std::string data;             // the packed tokens' URL, relative to the page (models/train-en.nptok)
  std::string config = "page";  // an LmConfig name: "page", or "tiny" (tests)
  std::int64_t seed = 1;
  int steps = 0;                // the schedule's length (0: the config's)
  std::string prompt = "The ";  // what samples start from
  std::string text;             // the learner's text, whose attention the snapshots carry
};
struct Start {  // a new run from step 0 with this seed (same data, config and text)
  int run = 1;
  std::int64_t seed = 1;
};
struct Train {  // run: train until the end, or until step `until` (then pause there)
  int run = 1;
  std::optional<int> until;
};
struct Pause {
  int run = 1;
};
struct Text {  // the learner's text changed
  int run = 1;
  std::string text;
};
using Request = std::variant<Open, Start, Train, Pause, Text>;

// [SECTION] Worker -> page ---------------------------------------------------------------------

struct Progress {                // a download on its way (the worker's code, then the data)
  std::string what;              // "code" or "data"
  double loaded = 0, total = 0;  // bytes (total 0: unknown)
};
struct Ready {  // the data is in and the run exists
  int run = 1;
  std::string lang, source, config;
  int vocab_size = 0, context = 0, layers = 0, heads = 0;
  std::int64_t train_tokens = 0, validation_tokens = 0, train_documents = 0, train_bytes = 0;
  float bigram_loss = NAN;  // nats per token on the validation windows (page_run.h)
};
struct CurvePoint {
  int step = 0;
  float loss = NAN, val_loss = NAN;  // NaN: not measured (null in JSON)
};
struct HeadsRow {  // every head's scores at one step, in layer-major order
  int step = 0;
  std::vector<float> previous_token, induction;
};
struct HeadNow {
  int layer = 0, head = 0;
  float previous_token = 0, induction = 0;
};
struct Milestone {  // the first measured step where a head's score reached 0.5
  int step = 0, layer = 0, head = 0;
  float score = 0;
};
struct SampleText {
  int step = 0;
  std::string text;
};
struct Attention {                          // every head's weights on one token sequence
  std::vector<std::string> tokens;          // "" for the document token
  std::vector<std::vector<float>> weights;  // [layer·heads + head] -> T·T, row-major (query rows)
  bool cut = false;                         // the text had more tokens than the model reads
};
struct Snapshot {
  int run = 1;
  int step = 0, steps = 0;
  bool running = false;
  float loss = NAN, val_loss = NAN;                        // the last curve point's loss, the latest val_loss
  float first_copy_loss = NAN, second_copy_loss = NAN;     // on the repeated random sequences
  int curve_from = 0, history_from = 0, samples_from = 0;  // indices of the first appended item
  std::vector<CurvePoint> curve;
  std::vector<HeadsRow> history;
  std::vector<SampleText> samples;
  std::vector<HeadNow> heads;
  std::optional<Milestone> previous_token, induction;
  std::optional<Attention> text, probe;  // absent: unchanged since the last snapshot
};
struct Error {
  int run = 0;
  std::string message;
};
using Reply = std::variant<Progress, Ready, Snapshot, Error>;

// [SECTION] JSON ---------------------------------------------------------------------------------
// encode: the message as {"type": ..., fields}. decode: a JSON value as a message, or a one-line
// reason (for a log or an error reply) when it is not exactly one: unknown type, a missing or
// mistyped field, a number out of range, a text over its limit, an unknown field.

using Json = nlohmann::json;

Json encode(const Request& request);
Json encode(const Reply& reply);
std::variant<Request, std::string> decode_request(const Json& message);
std::variant<Reply, std::string> decode_reply(const Json& message);

const char* type_name(const Request& request);  // "open", ...
const char* type_name(const Reply& reply);      // "progress", ...

}  // namespace neuralpath::lmworker
