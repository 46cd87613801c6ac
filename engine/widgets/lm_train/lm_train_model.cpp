// lm_train_model.cpp: the in-page trainer's requests, the worker's replies kept, state and
// snapshot (lm_train_model.h). Nothing here trains or measures: every number is a reply's.
#include "engine/widgets/lm_train/lm_train_model.h"

#include "engine/core/lm/config.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/drawable.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::widgets {

using nlohmann::json;
namespace lw = lmworker;

namespace {

json number_or_null(float v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json milestone_json(const std::optional<lw::Milestone>& m) {
  if (!m) return nullptr;
  return {{"step", m->step}, {"layer", m->layer}, {"head", m->head}, {"score", m->score}};
}

// Appends `more` to `kept`, which held `from` items when the sender made it (a resend or a gap
// after a lost message: the items from `from` on are the sender's).
template <class T>
void append_from(std::vector<T>& kept, int from, const std::vector<T>& more) {
  kept.resize(std::min(kept.size(), static_cast<std::size_t>(std::max(0, from))));
  kept.insert(kept.end(), more.begin(), more.end());
}

const char* status_name(LmTrainModel::Status s) {
  switch (s) {
    case LmTrainModel::Status::idle: return "idle";
    case LmTrainModel::Status::loading: return "loading";
    case LmTrainModel::Status::training: return "training";
    case LmTrainModel::Status::paused: return "paused";
    case LmTrainModel::Status::finished: return "finished";
    case LmTrainModel::Status::error: return "error";
  }
  return "idle";
}

// A worker's error: the catalogue's words for a key it sent ("lm_train.no_memory"), else its
// own sentence (a C++ refusal, an HTTP status) inside ours.
std::string worker_error_text(const std::string& message) {
  if (message.rfind("lm_train.", 0) == 0 && strings().has(message)) return tr(message);
  return tr("lm_train.worker_error", {{"error", message}});
}

}  // namespace

LmTrainModel::LmTrainModel(const LmTrainSettings& settings, const lesson::Inline& caption)
    : WidgetModelBase(settings, caption), seed_(settings.seed) {
  text_ = tr("lm_train.default_text");
  prompt_ = tr("lm_train.default_prompt");
}

std::string LmTrainModel::data_url() const {
  const std::string lang = language() == "es" ? "es" : "en";  // the corpora the site packs
  return "models/train-" + lang + ".nptok";
}

int LmTrainModel::steps() const {
  if (latest_.steps > 0) return latest_.steps;
  if (settings_.steps > 0) return settings_.steps;
  const lm::LmConfig* c = lm::find_config(settings_.config);
  return c ? c->steps : 0;
}

// [SECTION] Requests -------------------------------------------------------------------------------

void LmTrainModel::send(const lw::Request& request) {
  events_.push_back({{"type", "lm-worker"}, {"message", lw::encode(request)}});
}

void LmTrainModel::open_run() {
  ++run_;
  curve_.clear();
  history_.clear();
  samples_.clear();
  latest_ = lw::Snapshot{};
  induction_reported_ = finish_reported_ = false;
  text_attention_.reset();
  probe_attention_.reset();
  error_.clear();
  if (!opened_) {
    opened_ = true;
    lw::Open open;
    open.run = run_;
    open.data = data_url();
    open.config = settings_.config;
    open.seed = seed_;
    open.steps = settings_.steps;
    open.prompt = prompt_;
    open.text = text_;
    send(open);
    status_ = Status::loading;
  } else {
    send(lw::Start{run_, seed_});
    status_ = ready_ ? Status::paused : Status::loading;
  }
}

// [SECTION] Commands -------------------------------------------------------------------------------

std::variant<LmTrainModel::Command, CommandResult> LmTrainModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "train") return Command(Train{});
  if (type == "pause") return Command(Pause{});
  if (type == "resetTraining") {
    ResetTraining r;
    if (message.contains("seed")) {
      if (!message["seed"].is_number_integer() || message["seed"].get<long long>() < 0 ||
          message["seed"].get<long long>() > lw::kMaxSeed)
        return CommandResult(tr("lm_train.bad_seed", {{"max", format_count(lw::kMaxSeed)}}));
      r.seed = message["seed"].get<long long>();
    }
    return Command(r);
  }
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "setHead") {
    const std::optional<int> layer = int_field(message, "layer"), head = int_field(message, "head");
    if (!layer || !head) return CommandResult(tr("lm_train.needs_head"));
    return Command(SetLayerHead{*layer, *head});
  }
  if (type == "worker") {
    if (!message.contains("message")) return CommandResult(tr("lm_train.bad_reply", {{"why", "no message"}}));
    auto decoded = lw::decode_reply(message["message"]);
    if (auto* why = std::get_if<std::string>(&decoded)) return CommandResult(tr("lm_train.bad_reply", {{"why", *why}}));
    return Command(Worker{std::get<lw::Reply>(std::move(decoded))});
  }
  return CommandResult::not_taken(type);
}

CommandResult LmTrainModel::apply(const Command& command) {
  if (std::holds_alternative<Train>(command)) {
    if (status_ == Status::finished) return tr("lm_train.already_finished");
    if (status_ == Status::training) return {};
    replay_until_.reset();
    if (!opened_ || status_ == Status::error) {
      if (status_ == Status::error) opened_ = ready_.has_value();  // a failed open is tried again
      open_run();
    }
    send(lw::Train{run_, std::nullopt});
    train_asked_ = true;  // until the worker says it runs, the page shows it as training
    if (status_ != Status::loading) status_ = Status::training;
    return {};
  }
  if (std::holds_alternative<Pause>(command)) {
    resume_after_replay_ = false;
    train_asked_ = false;
    if (!opened_ || status_ == Status::idle || status_ == Status::error) return {};
    send(lw::Pause{run_});
    if (status_ == Status::training) status_ = Status::paused;
    return {};
  }
  if (const auto* c = std::get_if<ResetTraining>(&command)) {
    if (c->seed) seed_ = *c->seed;
    replay_until_.reset();
    resume_after_replay_ = false;
    train_asked_ = false;
    if (!opened_) return {};
    open_run();
    return {};
  }
  if (const auto* c = std::get_if<SetSentence>(&command)) {
    std::optional<std::string> why;
    if (c->text.empty())
      why = tr("lm_train.empty_text");
    else if (c->text.size() > lw::kMaxTextBytes)
      why = tr("lm_train.text_too_long", {{"n", format_count(lw::kMaxTextBytes)}});
    else
      why = refuse_undrawable(c->text);
    if (why) return keep_input_error(why);
    input_error_.clear();
    text_ = c->text;
    if (opened_ && status_ != Status::error) send(lw::Text{run_, text_});
    return {};
  }
  if (const auto* c = std::get_if<SetLayerHead>(&command)) {
    const lm::LmConfig* config = lm::find_config(settings_.config);
    const int layers = ready_ ? ready_->layers : config ? config->layers : 0;
    const int heads = ready_ ? ready_->heads : config ? config->heads : 0;
    if (c->layer < 0 || c->layer >= layers || c->head < 0 || c->head >= heads)
      return tr("lm_train.head_range", {{"layers", std::to_string(layers)}, {"heads", std::to_string(heads)}});
    layer_ = c->layer;
    head_ = c->head;
    head_chosen_ = true;
    return {};
  }
  return on_reply(std::get<Worker>(command).reply);
}

CommandResult LmTrainModel::on_reply(const lw::Reply& reply) {
  if (const auto* p = std::get_if<lw::Progress>(&reply)) {
    if (status_ == Status::loading) download_ = *p;
    return {};
  }
  if (const auto* e = std::get_if<lw::Error>(&reply)) {
    if (e->run != 0 && e->run != run_) return {};  // about a run the learner left
    error_ = worker_error_text(e->message);
    status_ = Status::error;
    train_asked_ = false;
    if (!ready_) opened_ = false;  // nothing was loaded: Train opens again
    download_.reset();
    replay_until_.reset();
    return {};
  }
  if (const auto* r = std::get_if<lw::Ready>(&reply)) {
    if (r->run != run_) return {};
    ready_ = *r;
    download_.reset();
    if (status_ == Status::loading) status_ = train_asked_ ? Status::training : Status::paused;
    return {};
  }
  const lw::Snapshot& s = std::get<lw::Snapshot>(reply);
  if (s.run != run_) return {};
  append_from(curve_, s.curve_from, s.curve);
  append_from(history_, s.history_from, s.history);
  append_from(samples_, s.samples_from, s.samples);
  if (s.text) text_attention_ = s.text;
  if (s.probe) probe_attention_ = s.probe;
  latest_ = s;
  latest_.curve.clear();
  latest_.history.clear();
  latest_.samples.clear();
  latest_.text.reset();
  latest_.probe.reset();
  download_.reset();
  if (s.running) {
    status_ = Status::training;
    train_asked_ = false;
  } else if (s.step >= s.steps && s.steps > 0) {
    status_ = Status::finished;
    train_asked_ = false;
  } else {
    status_ = train_asked_ ? Status::training : Status::paused;  // a Train on its way keeps it so
  }
  const bool replaying = replay_until_.has_value();
  // A restored run has retrained to its saved step: it trains on if it was training then.
  if (replay_until_ && !s.running && s.step >= *replay_until_) {
    replay_until_.reset();
    if (resume_after_replay_ && status_ != Status::finished) {
      send(lw::Train{run_, std::nullopt});
      train_asked_ = true;
      status_ = Status::training;
    }
    resume_after_replay_ = false;
  }
  follow_milestone();
  report(replaying);
  return {};
}

void LmTrainModel::report(bool replaying) {
  const bool finished = status_ == Status::finished;
  if (replaying) {  // a reload retraining to its saved step: nothing new happened
    induction_reported_ = induction_reported_ || latest_.induction.has_value();
    finish_reported_ = finish_reported_ || finished;
    return;
  }
  if (latest_.induction && !induction_reported_) {
    induction_reported_ = true;
    const lw::Milestone& m = *latest_.induction;
    events_.push_back(
        {{"type", "lmInduction"}, {"step", m.step}, {"layer", m.layer}, {"head", m.head}, {"score", m.score}});
  }
  if (finished && !finish_reported_) {
    finish_reported_ = true;
    float induction = 0;  // the strongest induction score of any head now
    for (const lw::HeadNow& h : latest_.heads) induction = std::max(induction, h.induction);
    events_.push_back({{"type", "lmTrained"},
                       {"step", latest_.step},
                       {"steps", latest_.steps},
                       {"loss", number_or_null(latest_.loss)},
                       {"val_loss", number_or_null(latest_.val_loss)},
                       {"induction", induction}});
  }
}

// Until the learner picks a head, the attention shown is the induction head's once one formed
// (else the previous-token head's): the heads the lesson talks about.
void LmTrainModel::follow_milestone() {
  if (head_chosen_) return;
  const auto& m = latest_.induction ? latest_.induction : latest_.previous_token;
  if (m) {
    layer_ = m->layer;
    head_ = m->head;
  }
}

// [SECTION] State and snapshot -------------------------------------------------------------------

namespace {

// One head's weights of an Attention message, as rows (null where masked or not measured).
json head_attention(const std::optional<lw::Attention>& a, int index) {
  if (!a || index < 0 || index >= static_cast<int>(a->weights.size())) return nullptr;
  const std::size_t T = a->tokens.size();
  const std::vector<float>& w = a->weights[static_cast<std::size_t>(index)];
  json rows = json::array();
  for (std::size_t i = 0; i < T && (i + 1) * T <= w.size(); ++i) {
    json row = json::array();
    for (std::size_t j = 0; j < T; ++j) row.push_back(number_or_null(w[i * T + j]));
    rows.push_back(std::move(row));
  }
  return {{"tokens", a->tokens}, {"weights", std::move(rows)}, {"cut", a->cut}};
}

}  // namespace

json LmTrainModel::state() const {
  json training = {{"step", latest_.step},
                   {"steps", steps()},
                   {"running", status_ == Status::training},
                   {"loss", number_or_null(latest_.loss)},
                   {"val_loss", number_or_null(latest_.val_loss)},
                   {"bigram_loss", ready_ ? number_or_null(ready_->bigram_loss) : json(nullptr)}};
  json heads = json::array();
  for (const lw::HeadNow& h : latest_.heads)
    heads.push_back({{"layer", h.layer},
                     {"head", h.head},
                     {"previous_token", number_or_null(h.previous_token)},
                     {"induction", number_or_null(h.induction)}});
  json curve = json::array();
  for (const lw::CurvePoint& p : curve_)
    curve.push_back({{"step", p.step}, {"loss", number_or_null(p.loss)}, {"val_loss", number_or_null(p.val_loss)}});
  json samples = json::array();
  for (const lw::SampleText& s : samples_) samples.push_back({{"step", s.step}, {"text", s.text}});
  const int heads_per_layer = ready_ ? ready_->heads : 0;
  const int index = layer_ * heads_per_layer + head_;
  json s = {
      {"kind", kKind},
      {"status", status_name(status_)},
      {"data", data_url()},
      {"run", run_},
      {"seed", seed_},
      {"download", download_
                       ? json{{"what", download_->what}, {"loaded", download_->loaded}, {"total", download_->total}}
                       : json(nullptr)},
      {"training", training},
      {"heads", heads},
      {"phase",
       {{"previous_token", milestone_json(latest_.previous_token)}, {"induction", milestone_json(latest_.induction)}}},
      {"curve", curve},
      {"samples", samples},
      {"sample", samples_.empty() ? json(nullptr) : json(samples_.back().text)},
      {"text", text_},
      {"head", {{"layer", layer_}, {"head", head_}}},
      {"attention",
       {{"text", head_attention(text_attention_, index)}, {"probe", head_attention(probe_attention_, index)}}},
      {"copy_loss",
       {{"first", number_or_null(latest_.first_copy_loss)}, {"second", number_or_null(latest_.second_copy_loss)}}},
      {"catching_up", replay_until_ ? json(*replay_until_) : json(nullptr)},
      {"error", error_.empty() ? json(nullptr) : json(error_)},
      {"summary", summary()},
      {"table", table().to_json()}};
  if (ready_)
    s["model"] = {{"lang", ready_->lang},
                  {"config", ready_->config},
                  {"layers", ready_->layers},
                  {"heads", ready_->heads},
                  {"vocab_size", ready_->vocab_size},
                  {"context", ready_->context},
                  {"train_tokens", ready_->train_tokens}};
  if (!input_error_.empty()) s["input_error"] = input_error_;
  return s;
}

json LmTrainModel::snapshot() const {
  return {{"seed", seed_},
          {"step", replay_until_.value_or(latest_.step)},
          {"running", status_ == Status::training || (replay_until_ && resume_after_replay_)},
          {"text", text_},
          {"head", head_chosen_ ? json::array({layer_, head_}) : json(nullptr)}};
}

CommandResult LmTrainModel::restore(const json& snap) {
  const auto bad = [] { return CommandResult(tr("widgets.bad_snapshot", {{"kind", kKind}})); };
  if (!snap.is_object() || !snap.contains("seed") || !snap["seed"].is_number_integer() || !snap.contains("step") ||
      !snap["step"].is_number_integer() || !snap.contains("text") || !snap["text"].is_string())
    return bad();
  const long long seed = snap["seed"].get<long long>(), step = snap["step"].get<long long>();
  if (seed < 0 || seed > lw::kMaxSeed || step < 0 || step > std::max(steps(), 0)) return bad();
  if (CommandResult r = apply(SetSentence{snap["text"].get<std::string>()}); !r.done()) return r;
  if (snap.contains("head") && snap["head"].is_array() && snap["head"].size() == 2 &&
      snap["head"][0].is_number_integer() && snap["head"][1].is_number_integer())
    (void)apply(SetLayerHead{snap["head"][0].get<int>(), snap["head"][1].get<int>()});
  seed_ = seed;
  resume_after_replay_ = snap.value("running", false);
  if (step == 0) {
    if (opened_) open_run();
    if (resume_after_replay_) return apply(Train{});
    return {};
  }
  open_run();
  replay_until_ = static_cast<int>(step);
  send(lw::Train{run_, static_cast<int>(step)});
  return {};
}

// [SECTION] Text version ---------------------------------------------------------------------------

std::string LmTrainModel::summary() const {
  if (status_ == Status::error) return error_;
  if (status_ == Status::idle) return tr("lm_train.summary_idle");
  if (status_ == Status::loading && !ready_) return tr("lm_train.summary_loading");
  std::string out = tr("lm_train.summary_step", {{"step", format_count(static_cast<std::uint64_t>(latest_.step))},
                                                 {"steps", format_count(static_cast<std::uint64_t>(steps()))}});
  if (std::isfinite(latest_.val_loss) && ready_ && std::isfinite(ready_->bigram_loss))
    out += " " + tr("lm_train.summary_losses",
                    {{"val", format_number(latest_.val_loss)}, {"bigram", format_number(ready_->bigram_loss)}});
  const auto said = [&](const std::optional<lw::Milestone>& m, const char* formed, const char* not_yet) {
    return m ? tr(formed, {{"layer", std::to_string(m->layer)},
                           {"head", std::to_string(m->head)},
                           {"step", format_count(static_cast<std::uint64_t>(m->step))}})
             : tr(not_yet);
  };
  out += " " + said(latest_.previous_token, "lm_train.summary_previous", "lm_train.summary_no_previous");
  out += " " + said(latest_.induction, "lm_train.summary_induction", "lm_train.summary_no_induction");
  if (!samples_.empty())
    out +=
        " " + tr("lm_train.summary_sample", {{"step", format_count(static_cast<std::uint64_t>(samples_.back().step))},
                                             {"text", samples_.back().text}});
  return out;
}

TextTable LmTrainModel::table() const {
  TextTable table;
  table.caption = tr("lm_train.table_caption");
  table.columns = {tr("lm_train.column_head"), tr("lm_train.column_previous"), tr("lm_train.column_induction")};
  for (const lw::HeadNow& h : latest_.heads)
    table.rows.push_back(
        {tr("lm_train.head_name", {{"layer", std::to_string(h.layer)}, {"head", std::to_string(h.head)}}),
         {format_number(h.previous_token), format_number(h.induction)}});
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void LmTrainModel::describe(const LmTrainSettings&, json& out) {
  out["sentence"] = tr("lm_train.default_text");
  out["takes_sentence"] = true;
}

const WidgetKind& lm_train_widget_kind() { return folder_widget_kind<LmTrainModel>(); }

}  // namespace neuralpath::widgets
