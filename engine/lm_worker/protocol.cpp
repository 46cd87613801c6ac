// protocol.cpp: the trainer worker's messages as JSON, both ways (protocol.h).
//
// [SECTION] Encoding
// [SECTION] Decoding
#include "engine/lm_worker/protocol.h"

#include "engine/lm_worker/message_fields.h"

#include <cstdio>
#include <cstdlib>
#include <set>

namespace neuralpath::lmworker {

namespace {

using worker_messages::decode_with;
using worker_messages::Fields;
using worker_messages::number;
using worker_messages::Refused;

// Attention weights to 3 decimals: what a grid cell can show, and a third of the bytes.
Json weight(float v) {
  return std::isfinite(v) ? Json(std::round(static_cast<double>(v) * 1000.0) / 1000.0) : Json(nullptr);
}

int run_of(Fields& f) { return static_cast<int>(f.integer("run", 0, 1 << 30)); }

// [SECTION] Encoding -----------------------------------------------------------------------------

Json encode_attention(const Attention& a) {
  Json weights = Json::array();
  for (const std::vector<float>& head : a.weights) {
    Json row = Json::array();
    for (float w : head) row.push_back(weight(w));
    weights.push_back(std::move(row));
  }
  return {{"tokens", a.tokens}, {"weights", std::move(weights)}, {"cut", a.cut}};
}

Json encode_milestone(const std::optional<Milestone>& m) {
  if (!m) return nullptr;
  return {{"step", m->step}, {"layer", m->layer}, {"head", m->head}, {"score", number(m->score)}};
}

struct EncodeRequest {
  Json operator()(const Open& o) const {
    return {{"type", "open"}, {"run", o.run},     {"data", o.data},     {"config", o.config},
            {"seed", o.seed}, {"steps", o.steps}, {"prompt", o.prompt}, {"text", o.text}};
  }
  Json operator()(const Start& s) const { return {{"type", "start"}, {"run", s.run}, {"seed", s.seed}}; }
  Json operator()(const Train& t) const {
    Json j{{"type", "train"}, {"run", t.run}};
    if (t.until) j["until"] = *t.until;
    return j;
  }
  Json operator()(const Pause& p) const { return {{"type", "pause"}, {"run", p.run}}; }
  Json operator()(const Text& t) const { return {{"type", "text"}, {"run", t.run}, {"text", t.text}}; }
};

struct EncodeReply {
  Json operator()(const Progress& p) const {
    return {{"type", "progress"}, {"what", p.what}, {"loaded", p.loaded}, {"total", p.total}};
  }
  Json operator()(const Ready& r) const {
    return {{"type", "ready"},
            {"run", r.run},
            {"lang", r.lang},
            {"source", r.source},
            {"config", r.config},
            {"vocab_size", r.vocab_size},
            {"context", r.context},
            {"layers", r.layers},
            {"heads", r.heads},
            {"train_tokens", r.train_tokens},
            {"validation_tokens", r.validation_tokens},
            {"train_documents", r.train_documents},
            {"train_bytes", r.train_bytes},
            {"bigram_loss", number(r.bigram_loss)}};
  }
  Json operator()(const Snapshot& s) const {
    Json curve = Json::array(), history = Json::array(), samples = Json::array(), heads = Json::array();
    for (const CurvePoint& p : s.curve)
      curve.push_back({{"step", p.step}, {"loss", number(p.loss)}, {"val_loss", number(p.val_loss)}});
    for (const HeadsRow& r : s.history) {
      Json prev = Json::array(), ind = Json::array();
      for (float v : r.previous_token) prev.push_back(number(v));
      for (float v : r.induction) ind.push_back(number(v));
      history.push_back({{"step", r.step}, {"previous_token", std::move(prev)}, {"induction", std::move(ind)}});
    }
    for (const SampleText& t : s.samples) samples.push_back({{"step", t.step}, {"text", t.text}});
    for (const HeadNow& h : s.heads)
      heads.push_back({{"layer", h.layer},
                       {"head", h.head},
                       {"previous_token", number(h.previous_token)},
                       {"induction", number(h.induction)}});
    Json j{{"type", "snapshot"},
           {"run", s.run},
           {"step", s.step},
           {"steps", s.steps},
           {"running", s.running},
           {"loss", number(s.loss)},
           {"val_loss", number(s.val_loss)},
           {"first_copy_loss", number(s.first_copy_loss)},
           {"second_copy_loss", number(s.second_copy_loss)},
           {"curve_from", s.curve_from},
           {"curve", std::move(curve)},
           {"history_from", s.history_from},
           {"history", std::move(history)},
           {"samples_from", s.samples_from},
           {"samples", std::move(samples)},
           {"heads", std::move(heads)},
           {"previous_token", encode_milestone(s.previous_token)},
           {"induction", encode_milestone(s.induction)}};
    if (s.text) j["text"] = encode_attention(*s.text);
    if (s.probe) j["probe"] = encode_attention(*s.probe);
    return j;
  }
  Json operator()(const Error& e) const { return {{"type", "error"}, {"run", e.run}, {"message", e.message}}; }
};

// [SECTION] Decoding -----------------------------------------------------------------------------

std::optional<Milestone> decode_milestone(Fields& f, const char* name) {
  const Json& v = f.need(name);
  if (v.is_null()) return std::nullopt;
  if (!v.is_object()) f.fail(std::string("'") + name + "' must be an object or null");
  Fields m(v, name);
  Milestone out;
  out.step = static_cast<int>(m.integer("step", 0, kMaxSteps));
  out.layer = static_cast<int>(m.integer("layer", 0, 64));
  out.head = static_cast<int>(m.integer("head", 0, 64));
  out.score = m.real("score");
  m.done();
  return out;
}

std::vector<float> decode_floats(const Json& v, const Fields& f, const char* what) {
  if (!v.is_array()) f.fail(std::string("'") + what + "' must be an array of numbers");
  std::vector<float> out;
  out.reserve(v.size());
  for (const Json& x : v) {
    if (x.is_null())
      out.push_back(NAN);
    else if (x.is_number())
      out.push_back(x.get<float>());
    else
      f.fail(std::string("'") + what + "' must hold numbers");
  }
  return out;
}

std::optional<Attention> decode_attention(Fields& f, const char* name) {
  const Json* v = f.find(name);
  if (!v) return std::nullopt;
  if (!v->is_object()) f.fail(std::string("'") + name + "' must be an object");
  Fields a(*v, name);
  Attention out;
  const Json& tokens = a.array("tokens");
  for (const Json& t : tokens) {
    if (!t.is_string()) a.fail("'tokens' must hold strings");
    out.tokens.push_back(t.get<std::string>());
  }
  const std::size_t cells = out.tokens.size() * out.tokens.size();
  for (const Json& head : a.array("weights")) {
    out.weights.push_back(decode_floats(head, a, "weights"));
    if (out.weights.back().size() != cells) a.fail("'weights' must hold tokens × tokens numbers per head");
  }
  out.cut = a.flag("cut");
  a.done();
  return out;
}

Request read_request(const std::string& type, Fields& f) {
  if (type == "open") {
    Open o;
    o.run = run_of(f);
    o.data = f.text("data", kMaxUrlBytes);
    o.config = f.text("config", 16);
    o.seed = f.integer("seed", 0, kMaxSeed);
    o.steps = static_cast<int>(f.integer("steps", 0, kMaxSteps));
    o.prompt = f.text("prompt", kMaxTextBytes);
    o.text = f.text("text", kMaxTextBytes);
    return o;
  }
  if (type == "start") return Start{run_of(f), f.integer("seed", 0, kMaxSeed)};
  if (type == "train") {
    Train t;
    t.run = run_of(f);
    if (auto until = f.optional_integer("until", 0, kMaxSteps)) t.until = static_cast<int>(*until);
    return t;
  }
  if (type == "pause") return Pause{run_of(f)};
  if (type == "text") {
    Text t;
    t.run = run_of(f);
    t.text = f.text("text", kMaxTextBytes);
    return t;
  }
  f.fail("is not a message the trainer takes (open, start, train, pause, text)");
}

Reply read_reply(const std::string& type, Fields& f) {
  if (type == "progress") {
    Progress p;
    p.what = f.text("what", 8);
    if (p.what != "code" && p.what != "data") f.fail("'what' must be \"code\" or \"data\"");
    p.loaded = f.count("loaded");
    p.total = f.count("total");
    return p;
  }
  if (type == "ready") {
    Ready r;
    r.run = run_of(f);
    r.lang = f.text("lang", 16);
    r.source = f.text("source", 400);
    r.config = f.text("config", 16);
    r.vocab_size = static_cast<int>(f.integer("vocab_size", 257, 65536));
    r.context = static_cast<int>(f.integer("context", 4, 1024));
    r.layers = static_cast<int>(f.integer("layers", 1, 16));
    r.heads = static_cast<int>(f.integer("heads", 1, 64));
    r.train_tokens = f.integer("train_tokens", 1, 1LL << 40);
    r.validation_tokens = f.integer("validation_tokens", 0, 1LL << 40);
    r.train_documents = f.integer("train_documents", 1, 1LL << 40);
    r.train_bytes = f.integer("train_bytes", 0, 1LL << 40);
    r.bigram_loss = f.real("bigram_loss");
    return r;
  }
  if (type == "snapshot") {
    Snapshot s;
    s.run = run_of(f);
    s.step = static_cast<int>(f.integer("step", 0, kMaxSteps));
    s.steps = static_cast<int>(f.integer("steps", 1, kMaxSteps));
    s.running = f.flag("running");
    s.loss = f.real("loss");
    s.val_loss = f.real("val_loss");
    s.first_copy_loss = f.real("first_copy_loss");
    s.second_copy_loss = f.real("second_copy_loss");
    s.curve_from = static_cast<int>(f.integer("curve_from", 0, kMaxSteps + 1));
    s.history_from = static_cast<int>(f.integer("history_from", 0, kMaxSteps + 1));
    s.samples_from = static_cast<int>(f.integer("samples_from", 0, kMaxSteps + 1));
    for (const Json& p : f.array("curve")) {
      if (!p.is_object()) f.fail("'curve' must hold objects");
      Fields c(p, "curve point");
      s.curve.push_back({static_cast<int>(c.integer("step", 0, kMaxSteps)), c.real("loss"), c.real("val_loss")});
      c.done();
    }
    for (const Json& r : f.array("history")) {
      if (!r.is_object()) f.fail("'history' must hold objects");
      Fields h(r, "history row");
      HeadsRow row;
      row.step = static_cast<int>(h.integer("step", 0, kMaxSteps));
      row.previous_token = decode_floats(h.need("previous_token"), h, "previous_token");
      row.induction = decode_floats(h.need("induction"), h, "induction");
      if (row.previous_token.size() != row.induction.size()) h.fail("needs one score of each kind per head");
      h.done();
      s.history.push_back(std::move(row));
    }
    for (const Json& t : f.array("samples")) {
      if (!t.is_object()) f.fail("'samples' must hold objects");
      Fields x(t, "sample");
      s.samples.push_back({static_cast<int>(x.integer("step", 0, kMaxSteps)), x.text("text", 64 * kMaxTextBytes)});
      x.done();
    }
    for (const Json& h : f.array("heads")) {
      if (!h.is_object()) f.fail("'heads' must hold objects");
      Fields x(h, "head");
      HeadNow now;
      now.layer = static_cast<int>(x.integer("layer", 0, 64));
      now.head = static_cast<int>(x.integer("head", 0, 64));
      now.previous_token = x.real("previous_token");
      now.induction = x.real("induction");
      x.done();
      s.heads.push_back(now);
    }
    s.previous_token = decode_milestone(f, "previous_token");
    s.induction = decode_milestone(f, "induction");
    s.text = decode_attention(f, "text");
    s.probe = decode_attention(f, "probe");
    return s;
  }
  if (type == "error") {
    Error e;
    e.run = run_of(f);
    e.message = f.text("message", 4000);
    return e;
  }
  f.fail("is not a message the trainer sends (progress, ready, snapshot, error)");
}

}  // namespace

Json encode(const Request& request) { return std::visit(EncodeRequest{}, request); }
Json encode(const Reply& reply) { return std::visit(EncodeReply{}, reply); }

std::variant<Request, std::string> decode_request(const Json& message) {
  return decode_with<Request>(message, read_request);
}
std::variant<Reply, std::string> decode_reply(const Json& message) { return decode_with<Reply>(message, read_reply); }

const char* type_name(const Request& request) {
  static const char* names[] = {"open", "start", "train", "pause", "text"};
  return names[request.index()];
}
const char* type_name(const Reply& reply) {
  static const char* names[] = {"progress", "ready", "snapshot", "error"};
  return names[reply.index()];
}

}  // namespace neuralpath::lmworker
