// trainer_worker.cpp: the page's trainer, message by message (trainer_worker.h).
#include "engine/lm_worker/trainer_worker.h"

#include "engine/core/error.h"
#include "engine/core/lm/config.h"

#include <chrono>

namespace neuralpath::lmworker {

HeadsRow heads_row(const lm::HeadsPoint& point) {
  HeadsRow row;
  row.step = point.step;
  for (const lm::HeadScore& h : point.heads) {
    row.previous_token.push_back(h.previous_token);
    row.induction.push_back(h.induction);
  }
  return row;
}

Attention attention_message(const lm::AttentionOn& on) {
  Attention a;
  a.tokens = on.tokens;
  a.weights = on.weights;
  a.cut = on.cut;
  return a;
}

namespace {

std::optional<Milestone> milestone(const std::optional<lm::Milestone>& m) {
  if (!m) return std::nullopt;
  return Milestone{m->step, m->layer, m->head, m->score};
}

int request_run(const Request& r) {
  return std::visit([](const auto& m) { return m.run; }, r);
}

}  // namespace

TrainerWorker::TrainerWorker(std::function<double()> now_ms) : now_ms_(std::move(now_ms)) {
  if (!now_ms_)
    now_ms_ = [] {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
}

TrainerWorker::~TrainerWorker() = default;

std::vector<Reply> TrainerWorker::open(std::string_view bytes, const Open& open) {
  const lm::LmConfig* config = lm::find_config(open.config);
  if (!config) return {refuse(open.run, "unknown model config '" + open.config + "'")};
  try {
    auto data = std::make_unique<lm::PageData>(lm::page_data_from_bytes(bytes));
    data_ = std::move(data);
    config_ = *config;
    settings_ = open;
    run_.reset();
    std::vector<Reply> out = restart(open.run, open.seed);
    if (!run_) return out;  // the error restart gave
    Ready ready;
    ready.run = open.run;
    ready.lang = data_->lang;
    ready.source = data_->source;
    ready.config = run_->config().name;
    ready.vocab_size = run_->config().vocab_size;
    ready.context = run_->config().context;
    ready.layers = run_->config().layers;
    ready.heads = run_->config().heads;
    ready.train_tokens = static_cast<std::int64_t>(data_->streams.train.size());
    ready.validation_tokens = static_cast<std::int64_t>(data_->streams.validation.size());
    ready.train_documents = data_->train_documents;
    ready.train_bytes = static_cast<std::int64_t>(data_->train_bytes);
    ready.bigram_loss = static_cast<float>(run_->bigram_loss());
    std::vector<Reply> replies;
    replies.reserve(out.size() + 1);
    replies.emplace_back(std::in_place_type<Ready>, std::move(ready));
    for (Reply& r : out) replies.push_back(std::move(r));
    return replies;
  } catch (const InputError& e) {
    data_.reset();
    run_.reset();
    return {refuse(open.run, e.what())};
  }
}

std::vector<Reply> TrainerWorker::restart(int run, std::int64_t seed) {
  running_ = false;
  until_.reset();
  sent_curve_ = sent_history_ = sent_samples_ = 0;
  run_number_ = run;
  settings_.seed = seed;
  lm::PageRunOptions options;
  options.seed = static_cast<std::uint64_t>(seed);
  options.steps = settings_.steps;
  options.prompt = settings_.prompt;
  try {
    run_ = std::make_unique<lm::PageRun>(config_, *data_, options);
  } catch (const InputError& e) {
    run_.reset();
    return {refuse(run, e.what())};
  }
  return {snapshot()};
}

std::vector<Reply> TrainerWorker::handle(const Request& request) {
  if (std::holds_alternative<Open>(request)) return {refuse(request_run(request), "open needs the data file's bytes")};
  if (!data_) return {refuse(request_run(request), "no data is loaded yet (open first)")};
  if (const auto* start = std::get_if<Start>(&request)) return restart(start->run, start->seed);
  const int run = request_run(request);
  if (!run_ || run != run_number_)
    return {
        refuse(run, "run " + std::to_string(run) + " is not the current run (" + std::to_string(run_number_) + ")")};
  if (const auto* train = std::get_if<Train>(&request)) {
    until_ = train->until;
    running_ = !run_->finished() && !(until_ && run_->steps_done() >= *until_);
    if (!running_) {
      until_.reset();
      return {snapshot()};  // nothing to do: say where it stands
    }
    return {};
  }
  if (std::holds_alternative<Pause>(request)) {
    running_ = false;
    until_.reset();
    return {snapshot()};
  }
  if (const auto* text = std::get_if<Text>(&request)) {
    settings_.text = text->text;
    return {snapshot()};
  }
  return {};
}

std::vector<Reply> TrainerWorker::work(int max_steps, double budget_ms) {
  std::vector<Reply> out;
  if (!run_ || !running_) return out;
  const double deadline = now_ms_() + budget_ms;
  int taken = 0;
  try {
    while (running_ && taken < max_steps && (taken == 0 || now_ms_() < deadline)) {
      run_->step();
      ++taken;
      const int s = run_->steps_done();
      const bool stop = run_->finished() || (until_ && s >= *until_);
      if (stop) {
        running_ = false;
        until_.reset();
      }
      if (stop || s % run_->options().measure_every == 0) out.emplace_back(std::in_place_type<Snapshot>, snapshot());
    }
  } catch (const InputError& e) {  // training diverged: say so and stop
    running_ = false;
    out.emplace_back(std::in_place_type<Error>, refuse(run_number_, e.what()));
  }
  return out;
}

Snapshot TrainerWorker::snapshot() {
  const lm::PageRun& r = *run_;
  Snapshot s;
  s.run = run_number_;
  s.step = r.steps_done();
  s.steps = r.total_steps();
  s.running = running_;
  s.val_loss = r.last_val_loss();
  s.loss = r.curve().back().loss;
  const lm::HeadsPoint& now = r.heads().back();
  s.first_copy_loss = now.first_copy_loss;
  s.second_copy_loss = now.second_copy_loss;
  for (const lm::HeadScore& h : now.heads) s.heads.push_back({h.layer, h.head, h.previous_token, h.induction});
  s.curve_from = static_cast<int>(sent_curve_);
  for (; sent_curve_ < r.curve().size(); ++sent_curve_) {
    const lm::LossPoint& p = r.curve()[sent_curve_];
    s.curve.push_back({p.step, p.loss, p.val_loss});
  }
  s.history_from = static_cast<int>(sent_history_);
  for (; sent_history_ < r.heads().size(); ++sent_history_) s.history.push_back(heads_row(r.heads()[sent_history_]));
  s.samples_from = static_cast<int>(sent_samples_);
  for (; sent_samples_ < r.samples().size(); ++sent_samples_)
    s.samples.push_back({r.samples()[sent_samples_].step, r.samples()[sent_samples_].text});
  s.previous_token = milestone(r.previous_token_formed());
  s.induction = milestone(r.induction_formed());
  s.text = attention_message(r.attention_on_text(settings_.text));
  s.probe = attention_message(r.attention_on_probe());
  return s;
}

}  // namespace neuralpath::lmworker
