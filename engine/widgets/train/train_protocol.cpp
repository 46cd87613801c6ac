// train_protocol.cpp: the attention trainer's messages as JSON, both ways (train_protocol.h).
#include "engine/widgets/train/train_protocol.h"

#include "engine/lesson/limits.h"
#include "engine/lm_worker/message_fields.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace neuralpath::widgets::trainworker {

namespace {

using worker_messages::decode_with;
using worker_messages::Fields;
using worker_messages::number;
using worker_messages::Refused;

constexpr int kMaxRun = 1 << 30;
constexpr int kMaxSteps = 100000;  // TrainModel::kMaxStepsAtOnce: a schedule is never longer

// [SECTION] Encoding -----------------------------------------------------------------------------

// The values (the weights and AdamW's moments: 3,192 numbers for the self-attention lesson) as
// one string, each float's 32 bits in 8 hex digits: exact by construction (NaN included), and
// cheap to read. As JSON numbers, each progress cost the page's main thread 10-70 ms in the
// first run (JSON.stringify, and number parsing in WebAssembly it had not compiled yet), where
// one string is a copy.
constexpr char kHexDigits[] = "0123456789abcdef";

std::string values_hex(const std::vector<float>& values) {
  std::string hex(values.size() * 8, '0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &values[i], sizeof bits);
    for (int d = 7; d >= 0; --d, bits >>= 4) hex[i * 8 + static_cast<std::size_t>(d)] = kHexDigits[bits & 0xF];
  }
  return hex;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The order state is a 64-bit integer: as a decimal string, since a JSON number (a double in
// JavaScript) keeps only 53 bits.
Json encode_state(const Trainer::State& s) {
  return {{"step", s.step},
          {"order_state", std::to_string(s.order_state)},
          {"order", s.order},
          {"cursor", s.cursor},
          {"values", values_hex(s.values)}};
}

// The fields that say which session the worker builds: a train's and a prepare's alike.
template <class Request>
Json with_session_fields(Json j, const Request& r) {
  j["lesson"] = r.lesson;
  j["task"] = r.task;
  j["probe"] = r.probe;
  j["query"] = r.query;
  return j;
}

struct EncodeRequest {
  Json operator()(const Train& t) const {
    Json j = with_session_fields({{"type", "train"}, {"run", t.run}, {"seed", t.seed}}, t);
    if (t.state) j["state"] = encode_state(*t.state);
    return j;
  }
  Json operator()(const Pause& p) const { return {{"type", "pause"}, {"run", p.run}}; }
  Json operator()(const Prepare& p) const { return with_session_fields({{"type", "prepare"}}, p); }
};

struct EncodeReply {
  Json operator()(const Progress& p) const {
    Json points = Json::array();
    for (const CurvePoint& c : p.points)
      points.push_back({{"step", c.step},
                        {"batch_loss", number(c.batch_loss)},
                        {"loss", number(c.held_out_loss)},
                        {"accuracy", number(c.held_out_accuracy)}});
    return {{"type", "progress"},
            {"run", p.run},
            {"running", p.running},
            {"steps_per_second", p.steps_per_second},
            {"state", encode_state(p.state)},
            {"points", std::move(points)}};
  }
  Json operator()(const Error& e) const { return {{"type", "error"}, {"run", e.run}, {"message", e.message}}; }
};

// [SECTION] Decoding -----------------------------------------------------------------------------

int run_of(Fields& f) { return static_cast<int>(f.integer("run", 0, kMaxRun)); }

Trainer::State decode_state(const Json& j) {
  if (!j.is_object()) throw Refused{"'state' must be an object"};
  Fields f(j, "state");
  Trainer::State s;
  s.step = static_cast<int>(f.integer("step", 0, kMaxSteps));
  const std::string order_state = f.text("order_state", 20);
  std::size_t used = 0;
  try {
    if (order_state.empty() || order_state.front() == '-') throw std::invalid_argument("sign");
    s.order_state = std::stoull(order_state, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != order_state.size()) f.fail("'order_state' must be a whole number in a string");
  const Json& order = f.array("order");
  if (order.size() > kMaxNumbers) f.fail("'order' is too long");
  for (const Json& i : order) {
    if (!i.is_number_integer() || i.get<long long>() < 0 || i.get<long long>() >= kMaxRun)
      f.fail("'order' must hold example indices");
    s.order.push_back(static_cast<int>(i.get<long long>()));
  }
  s.cursor = static_cast<std::size_t>(f.integer("cursor", 0, static_cast<long long>(kMaxNumbers)));
  const std::string hex = f.text("values", kMaxNumbers * 8);
  if (hex.size() % 8 != 0) f.fail("'values' must hold 8 hex digits per number");
  s.values.resize(hex.size() / 8);
  for (std::size_t i = 0; i < s.values.size(); ++i) {
    std::uint32_t bits = 0;
    for (std::size_t d = 0; d < 8; ++d) {
      const int digit = hex_digit(hex[i * 8 + d]);
      if (digit < 0) f.fail("'values' must hold 8 hex digits per number");
      bits = bits << 4 | static_cast<std::uint32_t>(digit);
    }
    std::memcpy(&s.values[i], &bits, sizeof bits);
  }
  f.done();
  return s;
}

template <class Request>
void read_session_fields(Fields& f, Request& r) {
  r.lesson = f.text("lesson", lesson::kMaxLessonBytes);
  r.task = f.text("task", 200);
  r.probe = f.text("probe", lesson::kMaxSentenceBytes);
  r.query = f.text("query", 200);
}

Request read_request(const std::string& type, Fields& f) {
  if (type == "train") {
    Train t;
    t.run = run_of(f);
    read_session_fields(f, t);
    t.seed = f.integer("seed", 0, kMaxSeed);
    if (const Json* state = f.find("state")) t.state = decode_state(*state);
    return t;
  }
  if (type == "pause") return Pause{run_of(f)};
  if (type == "prepare") {
    Prepare p;
    read_session_fields(f, p);
    return p;
  }
  f.fail("is not a message the page sends its trainer (prepare, train, pause)");
}

Reply read_reply(const std::string& type, Fields& f) {
  if (type == "progress") {
    Progress p;
    p.run = run_of(f);
    p.running = f.flag("running");
    p.steps_per_second = f.count("steps_per_second");
    p.state = decode_state(f.need("state"));
    const Json& points = f.array("points");
    if (points.size() > kMaxSteps) f.fail("has too many points");
    for (const Json& j : points) {
      if (!j.is_object()) f.fail("'points' must hold objects");
      Fields c(j, "curve point");
      CurvePoint point;
      point.step = static_cast<int>(c.integer("step", 0, kMaxSteps));
      point.batch_loss = c.real("batch_loss");
      point.held_out_loss = c.real("loss");
      point.held_out_accuracy = c.real("accuracy");
      c.done();
      if (!p.points.empty() && point.step <= p.points.back().step) f.fail("'points' must be in step order");
      p.points.push_back(point);
    }
    return p;
  }
  if (type == "error") {
    Error e;
    e.run = run_of(f);
    e.message = f.text("message", 4000);
    return e;
  }
  f.fail("is not a message the trainer sends (progress, error)");
}

}  // namespace

Json encode(const Request& request) { return std::visit(EncodeRequest{}, request); }
Json encode(const Reply& reply) { return std::visit(EncodeReply{}, reply); }

std::variant<Request, std::string> decode_request(const Json& message) {
  return decode_with<Request>(message, read_request);
}
std::variant<Reply, std::string> decode_reply(const Json& message) { return decode_with<Reply>(message, read_reply); }

}  // namespace neuralpath::widgets::trainworker
