// train_model.cpp: the train widget's commands, slices, state and explanations (train_model.h).
#include "engine/widgets/train/train_model.h"

#include "engine/lesson/task_set.h"
#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/text/format.h"
#include "engine/core/tokenizer.h"
#include "engine/widgets/drawable.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>

namespace neuralpath::widgets {

// The block's task as a session, or why there is none (a lesson the checker passed always has
// the task; a lesson loaded without checks may not).
TrainModel TrainModel::from_lesson(const TrainSettings& settings, const lesson::Inline& caption,
                                   const lesson::Lesson& lesson, const ModelSpec& spec) {
  const lesson::TaskData* task = lesson::find_task(lesson, settings.task);
  if (!task) return TrainModel(settings, caption, std::nullopt, tr("train.no_task", {{"task", settings.task}}));
  try {
    return TrainModel(settings, caption,
                      TrainSession(spec, lesson::training_set(lesson, *task), lesson::train_options(*task),
                                   settings.sentence, settings.query),
                      {}, settings.lesson_weights_trained || task->lesson_weights);
  } catch (const std::exception& e) {
    return TrainModel(settings, caption, std::nullopt, e.what());
  }
}

using nlohmann::json;

namespace {

json spotlight_json(const SpotlightNow& s) {
  json out = {{"tokens", s.tokens}, {"weights", s.weights}, {"query", s.query}, {"top", s.top}};
  if (!s.heads.empty()) {
    out["heads"] = s.heads;
    out["head_tops"] = s.head_tops;
  }
  return out;
}

// "head 1 “slowly” (99.0%), head 2 …": where each head looks most, for the text version.
std::string head_tops_text(const SpotlightNow& s) {
  std::string out;
  for (std::size_t h = 0; h < s.heads.size(); ++h) {
    const int top = s.head_tops[h];
    if (top < 0) continue;
    const auto i = static_cast<std::size_t>(top);
    out += (out.empty() ? "" : ", ") + tr("train.head_top", {{"head", std::to_string(h + 1)},
                                                             {"token", widgets::quoted(s.tokens[i])},
                                                             {"weight", format_percent(s.heads[h][i])}});
  }
  return out;
}

// The token the query looks at most, quoted, with its weight ("'dog' (62.3%)"), or "" when none.
std::string top_text(const SpotlightNow& s) {
  if (s.top < 0 || s.top >= static_cast<int>(s.weights.size())) return {};
  const auto i = static_cast<std::size_t>(s.top);
  return tr("train.top", {{"token", widgets::quoted(s.tokens[i])}, {"weight", format_percent(s.weights[i])}});
}

}  // namespace

// [SECTION] Commands ---------------------------------------------------------------------------

std::variant<TrainModel::Command, CommandResult> TrainModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "train") return Command(Train{});
  if (type == "prepareTrainer") return Command(PrepareTrainer{});
  if (type == "pause") return Command(Pause{});
  if (type == "resetTraining") return Command(ResetTraining{});
  if (type == "setSeed") {
    if (!message.contains("seed") || !message["seed"].is_number_integer())
      return CommandResult(tr("train.seed_range", {{"max", std::to_string(kMaxSeed)}}));
    return Command(SetSeed{message["seed"].get<std::int64_t>()});
  }
  if (type == "useTrained") {
    if (!message.contains("trained") || !message["trained"].is_boolean())
      return CommandResult(tr("train.needs_trained"));
    return Command(UseTrained{message["trained"].get<bool>()});
  }
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "trainSteps") return Command(TrainSteps{int_field(message, "n").value_or(0)});
  if (type == "worker") {
    if (!message.contains("message")) return CommandResult(tr("train.bad_reply", {{"why", "no message"}}));
    auto decoded = trainworker::decode_reply(message["message"]);
    if (auto* why = std::get_if<std::string>(&decoded)) return CommandResult(tr("train.bad_reply", {{"why", *why}}));
    return Command(Worker{std::get<trainworker::Reply>(std::move(decoded))});
  }
  if (type == "explain") {
    const std::string what = message.value("what", std::string());
    if (what != "loss" && what != "accuracy" && what != "learning_rate") return CommandResult(tr("train.explain_what"));
    return Command(Explain{what});
  }
  return CommandResult::not_taken(type);
}

TrainModel::TrainModel(const TrainSettings& settings, const lesson::Inline& caption,
                       std::optional<TrainSession> session, std::string error, bool built)
    : WidgetModelBase(settings, caption), session_(std::move(session)), error_(std::move(error)), built_(built) {
  if (!session_) return;
  // The hand-set weights never change: their spotlight is computed once.
  hand_set_ = session_->spotlight_in(settings_.sentence, false).value_or(SpotlightNow{});
  follow();
}

CommandResult TrainModel::apply(const Command& command) {
  if (!session_) return tr("train.cannot_train", {{"error", error_}});
  TrainSession& s = *session_;
  if (const auto* worker = std::get_if<Worker>(&command)) return on_reply(worker->reply);
  if (std::holds_alternative<PrepareTrainer>(command)) {
    prepare_worker();
    return {};
  }
  if (std::holds_alternative<Train>(command)) {
    if (s.finished()) return tr("train.already_trained");
    s.start();
    budget_ms_ = kFrameBudgetMs;
    if (in_worker()) start_worker();
  } else if (std::holds_alternative<Pause>(command)) {
    // Refused when idle, so a "pause" meant for a playing playback is offered to it (App).
    if (!s.running()) return tr("train.not_running");
    // The learner stops at the step on screen: the steps the worker took since its last progress
    // (up to a progress interval and a slice) are dropped with its run.
    stop_worker();
    s.pause();
  } else if (std::holds_alternative<ResetTraining>(command)) {
    stop_worker();
    s.reset();
    finish_reported_ = false;
  } else if (const auto* seed = std::get_if<SetSeed>(&command)) {
    if (seed->seed < 0 || seed->seed > kMaxSeed) return tr("train.seed_range", {{"max", std::to_string(kMaxSeed)}});
    stop_worker();
    s.set_seed(static_cast<std::uint64_t>(seed->seed));
    finish_reported_ = s.finished();
  } else if (const auto* use = std::get_if<UseTrained>(&command)) {
    s.use_trained(use->trained);
  } else if (const auto* steps = std::get_if<TrainSteps>(&command)) {
    if (steps->n < 1 || steps->n > kMaxStepsAtOnce)
      return tr("train.steps_range", {{"max", std::to_string(kMaxStepsAtOnce)}});
    if (s.finished()) return tr("train.already_trained");
    const bool was_in_worker = worker_running_;
    stop_worker();          // the steps are taken here, from where this session is
    s.run_steps(steps->n);  // no time budget: a test or a host asked for n steps at once
    if (was_in_worker && s.running()) start_worker();
    report_finished();
  } else if (const auto* sentence = std::get_if<SetSentence>(&command)) {
    asked_sentence_ = field_prefix(sentence->text);  // the box shows it, refused or not, next to its message
    ++sentences_asked_;
    if (auto why = refuse_undrawable(sentence->text)) {  // shown as "?" or "�" otherwise
      input_error_ = *why;
      return input_error_;
    }
    // The same words as the other widgets' sentence boxes: the tokenizer's own refusal, then
    // "type a sentence first", before this widget's own "no query word".
    try {
      const std::size_t tokens = tokenize(sentence->text).size();
      if (tokens == 0) {
        input_error_ = tr("spotlight.empty");
        return input_error_;
      }
      if (tokens > static_cast<std::size_t>(kMaxTokens)) {  // the checker's figure too
        input_error_ = tr("spotlight.too_long", {{"n", std::to_string(tokens)}, {"max", std::to_string(kMaxTokens)}});
        return input_error_;
      }
    } catch (const InputError& e) {
      input_error_ = e.what();
      return input_error_;
    }
    try {
      std::optional<SpotlightNow> spot = s.try_sentence(sentence->text);
      if (!spot) {
        input_error_ = tr("train.no_query", {{"query", widgets::quoted(settings_.query)}});
        return input_error_;
      }
      custom_ = std::move(spot);
      custom_sentence_ = sentence->text;
      input_error_.clear();
    } catch (const InputError& e) {
      input_error_ = tr("widgets.engine_refused", {{"error", e.what()}});
      return input_error_;
    }
  } else if (const auto* asked = std::get_if<Explain>(&command)) {
    to_explain_ = explain(asked->what);
    return {};
  }
  followed_points_ = 0;  // weights, seed or switch changed: recompute what is shown
  follow();
  return {};
}

void TrainModel::update(float dt) {
  if (!session_ || !session_->running() || in_worker()) return;
  budget_ms_ = dt > kLateFrame ? std::max(kMinBudgetMs, budget_ms_ / 2) : std::min(kFrameBudgetMs, budget_ms_ + 1.0);
  session_->advance(budget_ms_, kStepsPerFrame);
  follow();
  report_finished();
}

// [SECTION] The trainer worker -----------------------------------------------------------------

namespace {
bool workers_available = false;  // train_in_workers(): the page has the trainer worker
}  // namespace

void TrainModel::train_in_workers(bool yes) { workers_available = yes; }

bool TrainModel::in_worker() const { return workers_available && worker_error_.empty(); }

// The session a worker request builds (its lesson is added by the page's script).
template <class Request>
Request TrainModel::worker_request() const {
  Request request;
  request.task = settings_.task;
  request.probe = session_->probe();
  request.query = session_->query();
  return request;
}

void TrainModel::prepare_worker() {
  if (!in_worker() || worker_prepared_) return;
  const auto request = worker_request<trainworker::Prepare>();
  events_.push_back({{"type", "train-worker"}, {"message", trainworker::encode(request)}});
  worker_prepared_ = true;
}

void TrainModel::start_worker() {
  worker_prepared_ = true;
  const TrainSession& s = *session_;
  auto request = worker_request<trainworker::Train>();
  request.run = ++worker_run_;
  request.seed = static_cast<std::int64_t>(s.seed());
  if (s.step() > 0) request.state = s.trainer_state();  // step 0 is the seed's own start
  events_.push_back({{"type", "train-worker"}, {"message", trainworker::encode(request)}});
  worker_running_ = true;
}

void TrainModel::stop_worker() {
  if (worker_running_)
    events_.push_back({{"type", "train-worker"}, {"message", trainworker::encode(trainworker::Pause{worker_run_})}});
  if (worker_running_) ++worker_run_;  // what that run still sends is for a session that has moved on
  worker_running_ = false;
}

CommandResult TrainModel::on_reply(const trainworker::Reply& reply) {
  TrainSession& s = *session_;
  if (const auto* error = std::get_if<trainworker::Error>(&reply)) {
    if (error->run != 0 && error->run != worker_run_) return {};
    // Training goes on in the frames, from the last state the worker sent.
    // The page's scripts say what went wrong as a catalogue key (a worker has no catalogue).
    const std::string& why = error->message;
    worker_error_ = why.empty() ? tr("train.worker_stopped") : why.rfind("train.", 0) == 0 ? tr(why) : why;
    worker_running_ = false;
    return {};
  }
  const auto& progress = std::get<trainworker::Progress>(reply);
  if (progress.run != worker_run_) return {};  // a run this session has left
  try {
    s.adopt(progress.state, progress.points);
  } catch (const InputError& e) {
    worker_error_ = e.what();
    worker_running_ = false;
    return {};
  }
  worker_steps_per_second_ = progress.steps_per_second;
  if (!progress.running) {  // it finished
    worker_running_ = false;
    if (s.running()) s.pause();
  }
  followed_points_ = 0;
  follow();
  report_finished();
  return {};
}

void TrainModel::report_finished() {
  const TrainSession& s = *session_;
  if (!s.finished()) {
    finish_reported_ = false;  // reset, or a new seed: the next run that finishes is reported
    return;
  }
  if (finish_reported_) return;
  finish_reported_ = true;
  events_.push_back({{"type", "trained"},
                     {"step", s.step()},
                     {"total_steps", s.total_steps()},
                     {"loss", s.curve().back().held_out_loss},
                     {"accuracy", s.curve().back().held_out_accuracy},
                     {"seed", s.seed()}});
}

void TrainModel::follow() {
  const TrainSession& s = *session_;
  // The trained spotlight and curve move every TrainSession::kRecordEvery steps; the spotlights
  // are recomputed only then (an engine run each), not every frame.
  if (followed_points_ == s.curve().size()) return;
  followed_points_ = s.curve().size();
  shown_ = s.showing_trained() ? s.spotlight() : hand_set_;
  if (!custom_sentence_.empty()) {
    try {
      custom_ = s.try_sentence(custom_sentence_);
    } catch (const InputError&) {
      custom_.reset();  // it ran before with the same vocabulary; cannot happen, shown as nothing
    }
  }
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation TrainModel::explain(const std::string& what) const {
  Explanation e;
  if (!session_) return e;
  const TrainSession& s = *session_;
  const CurvePoint& now = s.curve().back();
  const int held_out = static_cast<int>(s.held_out_count());
  e.inputs.push_back({tr("train.input_step"), format_count(static_cast<std::uint64_t>(s.step()))});
  e.inputs.push_back({tr("train.input_held_out"), format_count(static_cast<std::uint64_t>(held_out))});
  // The loss is on the query's output (training.h): the same words with one head or several.
  if (what == "loss") {
    e.title = tr("train.loss_title", {{"value", format_number(now.held_out_loss)}});
    e.formula = tr("train.loss_formula");
    e.text = tr("train.loss_text", {{"query", widgets::quoted(settings_.query)}});
  } else if (what == "accuracy") {
    e.title = tr("train.accuracy_title", {{"value", format_percent(now.held_out_accuracy)}});
    e.formula = tr("train.accuracy_formula");
    e.inputs.push_back({tr("train.input_right"),
                        format_count(static_cast<std::uint64_t>(std::lround(now.held_out_accuracy * held_out)))});
    e.text = tr("train.accuracy_text", {{"query", widgets::quoted(settings_.query)}});
  } else {
    e.title = tr("train.rate_title", {{"value", format_setting(s.learning_rate())}});
    e.formula = tr("train.rate_formula");
    e.text = tr("train.rate_text");
  }
  return e;
}

// [SECTION] State, snapshot and the text version -----------------------------------------------

json TrainModel::state() const {
  json out = {{"kind", kKind}, {"task", settings_.task}, {"sentence", settings_.sentence}, {"query", settings_.query}};
  if (!session_) {
    out["error"] = error_;
    out["running"] = false;
    return out;
  }
  const TrainSession& s = *session_;
  out["step"] = s.step();
  out["total_steps"] = s.total_steps();
  out["running"] = s.running();
  out["finished"] = s.finished();
  out["seed"] = s.seed();
  out["learning_rate"] = s.learning_rate();
  out["trained"] = s.showing_trained();
  // The worker's rate while it trains; after it failed, the frames' own.
  out["steps_per_second"] =
      in_worker() && worker_steps_per_second_ > 0.0 ? worker_steps_per_second_ : s.steps_per_second();
  out["in_worker"] = in_worker() && (worker_running_ || worker_run_ > 0);  // the steps so far ran there
  if (!worker_error_.empty()) out["worker_error"] = worker_error_;
  out["longest_slice_ms"] = s.longest_slice_ms();  // the most one frame spent training
  out["held_out"] = s.held_out_count();            // the sentences the curve is measured on
  out["slice_budget_ms"] = budget_ms_;
  out["loss"] = s.curve().back().held_out_loss;
  out["accuracy"] = s.curve().back().held_out_accuracy;
  out["spotlight_step"] = s.spotlight_step();  // the step whose weights the spotlight shows
  if (!s.showing_trained())                    // what the plots show for the switch's other side
    out["other_weights"] = {{"loss", s.hand_set_point().held_out_loss},
                            {"accuracy", s.hand_set_point().held_out_accuracy}};
  json curve = json::array();
  for (const CurvePoint& p : s.curve())
    curve.push_back({{"step", p.step}, {"loss", p.held_out_loss}, {"accuracy", p.held_out_accuracy}});
  out["curve"] = std::move(curve);
  out["spotlight"] = spotlight_json(shown_);
  out["custom"] = custom_ ? spotlight_json(*custom_) : json(nullptr);
  if (custom_) out["custom"]["sentence"] = custom_sentence_;
  if (const std::string note = custom_note(); !note.empty()) out["custom"]["note"] = note;
  if (!input_error_.empty()) out["input_error"] = input_error_;
  out["summary"] = summary();
  out["table"] = table().to_json();
  return out;
}

std::string TrainModel::custom_note() const {
  if (!custom_ || custom_->top >= 0) return {};
  return tr("train.alone", {{"query", widgets::quoted(settings_.query)}});
}

json TrainModel::snapshot() const {
  if (!session_) return json::object();
  json out = {{"seed", session_->seed()}, {"steps", session_->step()}, {"trained", session_->showing_trained()}};
  if (!custom_sentence_.empty()) out["sentence"] = custom_sentence_;
  return out;
}

CommandResult TrainModel::restore(const json& snapshot) {
  const auto bad = [] { return CommandResult(tr("widgets.bad_snapshot", {{"kind", kKind}})); };
  if (!session_) return tr("train.cannot_train", {{"error", error_}});
  if (!snapshot.is_object() || !snapshot.contains("seed") || !snapshot["seed"].is_number_unsigned() ||
      !snapshot.contains("steps") || !snapshot["steps"].is_number_integer())
    return bad();
  const auto seed = snapshot["seed"].get<std::uint64_t>();
  const int steps = snapshot["steps"].get<int>();
  if (seed > static_cast<std::uint64_t>(kMaxSeed) || steps < 0 || steps > session_->total_steps()) return bad();
  // Replaying is deterministic: the same seed and steps land on the same weights. Restored
  // paused, so an opened page stays idle until the learner presses Train.
  const bool trained =
      !snapshot.contains("trained") || !snapshot["trained"].is_boolean() || snapshot["trained"].get<bool>();
  stop_worker();
  session_->restore({seed, steps, false, trained});
  finish_reported_ = session_->finished();  // a reload's replay is no new training
  followed_points_ = 0;
  follow();
  if (snapshot.contains("sentence") && snapshot["sentence"].is_string())
    (void)apply(SetSentence{snapshot["sentence"].get<std::string>()});
  return {};
}

std::string TrainModel::summary() const {
  if (!session_) return tr("train.cannot_train", {{"error", error_}});
  const TrainSession& s = *session_;
  const std::string top = shown_.heads.empty() ? top_text(shown_) : head_tops_text(shown_);
  const char* key = shown_.heads.empty() ? (s.step() == 0 ? "train.summary_untrained" : "train.summary")
                                         : (s.step() == 0 ? "train.summary_untrained_heads" : "train.summary_heads");
  return tr(key, {{"step", format_count(static_cast<std::uint64_t>(s.step()))},
                  {"total", format_count(static_cast<std::uint64_t>(s.total_steps()))},
                  {"accuracy", format_percent(s.curve().back().held_out_accuracy)},
                  {"loss", format_number(s.curve().back().held_out_loss)},
                  {"weights", tr(!s.showing_trained() ? other_weights("train.weights_hand_set_lower")
                                 : s.step() == 0      ? "train.weights_untrained_lower"
                                                      : "train.weights_trained_lower")},
                  {"query", widgets::quoted(settings_.query)},
                  {"top", top.empty() ? tr("train.top_none") : top}});
}

TextTable TrainModel::table() const {
  TextTable t;
  t.caption = tr("train.table_caption", {{"query", widgets::quoted(settings_.query)}});
  t.columns = {tr("train.table_word")};
  if (shown_.heads.empty()) t.columns.push_back(tr("train.table_weight"));
  for (std::size_t h = 0; h < shown_.heads.size(); ++h)
    t.columns.push_back(tr("train.table_head", {{"head", std::to_string(h + 1)}}));
  for (std::size_t i = 0; i < shown_.tokens.size() && i < shown_.weights.size(); ++i) {
    std::vector<std::string> cells;
    if (shown_.heads.empty()) cells.push_back(format_percent(shown_.weights[i]));
    for (const std::vector<float>& head : shown_.heads) cells.push_back(format_percent(head[i]));
    t.rows.push_back({shown_.tokens[i], std::move(cells)});
  }
  return t;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void TrainModel::describe(const TrainSettings& t, json& out) {
  out["task"] = t.task;
  out["sentence"] = t.sentence;
  out["query"] = t.query;
  out["takes_sentence"] = true;  // try your own sentence
  const char* hand_set = t.lesson_weights_trained ? "train.weights_hand_set_built" : "train.weights_hand_set";
  out["choices"] = choices(
      tr("train.choices"),
      json::array({choice(tr("train.train"), {{"type", "train"}}, {{"running", true}}),
                   choice(tr("train.pause"), {{"type", "pause"}}, json::object()),
                   choice(tr("train.reset"), {{"type", "resetTraining"}}, json::object()),
                   choice(tr("train.weights_run"), {{"type", "useTrained"}, {"trained", true}}, {{"trained", true}}),
                   choice(tr(hand_set), {{"type", "useTrained"}, {"trained", false}}, {{"trained", false}})}));
}

const WidgetKind& train_widget_kind() { return folder_widget_kind<TrainModel>(); }

}  // namespace neuralpath::widgets
