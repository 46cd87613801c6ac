// train_protocol.cpp: the attention trainer's messages as JSON, both ways (train_protocol.h).
#include "engine/widgets/train/train_protocol.h"

#include "engine/lesson/limits.h"
#include "engine/lm_worker/message_fields.h"

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

// The order state is a 64-bit integer: as a decimal string, since a JSON number (a double in
// JavaScript) keeps only 53 bits.
Json encode_state(const Trainer::State& s) {
  Json values = Json::array();
  for (const float v : s.values) values.push_back(number(v));
  return {{"step", s.step},
          {"order_state", std::to_string(s.order_state)},
          {"order", s.order},
          {"cursor", s.cursor},
          {"values", std::move(values)}};
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
  const Json& values = f.array("values");
  if (values.size() > kMaxNumbers) f.fail("'values' is too long");
  s.values.reserve(values.size());
  for (const Json& v : values) {
    if (v.is_null()) {
      s.values.push_back(NAN);  // a weight that overflowed: the page shows the same run as the worker
    } else {
      if (!v.is_number()) f.fail("'values' must hold numbers");
      s.values.push_back(v.get<float>());
    }
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
