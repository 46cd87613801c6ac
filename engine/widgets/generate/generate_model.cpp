// generate_model.cpp: the generation loop's model (generate_model.h). Every probability and
// every token is the engine's (engine/core/lm/decode): this file only keeps the learner's
// settings, runs the writer and reads its stages out for the view.
#include "engine/widgets/generate/generate_model.h"

#include "engine/core/error.h"
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/widgets/drawable.h"
#include "engine/widgets/widget_kinds.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numeric>

namespace neuralpath::widgets {

using nlohmann::json;

namespace {

const char* const kStageNames[] = {"model", "temperature", "top_k", "top_p"};

std::optional<float> number_field(const json& message, const char* name) {
  if (!message.contains(name) || !message[name].is_number()) return std::nullopt;
  return message[name].get<float>();
}

json candidate_json(const GenerateModel::Candidate& c) { return {{"text", c.label}, {"id", c.id}, {"p", c.p}}; }

}  // namespace

// [SECTION] Commands -----------------------------------------------------------------------------

std::variant<GenerateModel::Command, CommandResult> GenerateModel::parse(const json& message) {
  const std::string type = message.value("type", std::string());
  if (type == "loadModel") return Command(LoadModel{});
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "step") return Command(Step{});
  if (type == "write") return Command(Write{});
  if (type == "stop") return Command(Stop{});
  if (type == "restart") return Command(Restart{});
  if (type == "setTemperature")
    return command_with<Command, SetTemperature>(number_field(message, "value"), tr("generate.temperature_range"));
  if (type == "setTopK") return command_with<Command, SetTopK>(int_field(message, "k"), tr("generate.top_k_range"));
  if (type == "setTopP") return command_with<Command, SetTopP>(number_field(message, "p"), tr("generate.top_p_range"));
  if (type == "setSeed") {
    if (!message.contains("seed") || !message["seed"].is_number_integer() || message["seed"].get<long long>() < 0 ||
        message["seed"].get<long long>() > 1000000)
      return CommandResult(tr("generate.seed_range"));
    return Command(SetSeed{message["seed"].get<std::uint64_t>()});
  }
  return CommandResult::not_taken(type);
}

GenerateModel::GenerateModel(const GenerateSettings& settings, const lesson::Inline& caption)
    : WidgetModelBase(settings, caption),
      handle_(settings.model),
      prompt_(settings.prompt),
      sampling_{settings.temperature, settings.top_k, settings.top_p},
      seed_(settings.seed) {
  if (handle_.here_already()) {  // another widget of the page has loaded it
    model_ = handle_.shared();
    start();
  }
}

lm::WriterOptions GenerateModel::options() const { return {sampling_, settings_.tokens, seed_, true}; }

CommandResult GenerateModel::need_model(Pending then) {
  handle_.ask(events_);
  pending_ = then;
  return {};
}

void GenerateModel::start() {
  writer_ = std::make_unique<lm::TextWriter>(*model_, prompt_, options());
  written_.clear();
  has_last_ = false;
  for (; replay_ > 0 && !writer_->finished(); --replay_) advance();
  replay_ = 0;
  read_stages();
}

void GenerateModel::advance() {
  writer_->step();
  const lm::WriterStep& s = *writer_->last_step();
  const std::string bytes = s.token == lm::kDocumentToken ? "" : model_->tokenizer.token_bytes(s.token);
  last_ = {token_label(bytes), s.token, s.stages.top_p[static_cast<std::size_t>(s.token)]};
  last_u_ = s.u;
  has_last_ = true;
  if (s.token != lm::kDocumentToken) written_.push_back(last_);
  read_stages();
}

void GenerateModel::read_stages() {
  stages_.clear();
  if (!writer_ || writer_->finished()) return;
  const lm::WriterStep& next = writer_->upcoming();
  const std::vector<float>* ps[] = {&next.stages.model, &next.stages.temperature, &next.stages.top_k,
                                    &next.stages.top_p};
  for (int s = 0; s < 4; ++s) {
    const std::vector<float>& p = *ps[s];
    Stage stage{
        kStageNames[s], static_cast<int>(std::count_if(p.begin(), p.end(), [](float x) { return x > 0.0f; })), {}};
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    const std::size_t n = std::min(order.size(), static_cast<std::size_t>(settings_.candidates));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), [&](int a, int b) {
      const float pa = p[static_cast<std::size_t>(a)], pb = p[static_cast<std::size_t>(b)];
      return pa > pb || (pa == pb && a < b);
    });
    for (std::size_t i = 0; i < n && p[static_cast<std::size_t>(order[i])] > 0.0f; ++i) {
      const int id = order[i];
      stage.top.push_back({token_label(id == lm::kDocumentToken ? "" : model_->tokenizer.token_bytes(id)), id,
                           p[static_cast<std::size_t>(id)]});
    }
    stages_.push_back(std::move(stage));
  }
  // the model's favourites at every stage (the text version's table)
  across_.clear();
  for (const Candidate& c : stages_.front().top) {
    std::array<float, 4> p{};
    for (int s = 0; s < 4; ++s) p[static_cast<std::size_t>(s)] = (*ps[s])[static_cast<std::size_t>(c.id)];
    across_.push_back({c, p});
  }
}

CommandResult GenerateModel::apply(const Command& command) {
  input_error_.clear();
  if (std::holds_alternative<LoadModel>(command)) return ready() ? CommandResult{} : need_model(Pending::start);
  if (const auto* c = std::get_if<SetSentence>(&command)) {
    if (auto why = refuse_prompt(c->text, kMaxPromptBytes, "generate.too_long"))
      return keep_input_error(why);  // the widget keeps its prompt; the message says why
    prompt_ = c->text;
    writing_ = false;
    if (!ready()) return need_model(Pending::start);
    start();
    return {};
  }
  // Step and Write need the model (asked for: the action runs once it is here) and text still
  // to write; what to answer when they cannot go on now.
  const auto not_now = [this](Pending then) -> std::optional<CommandResult> {
    if (!ready()) return need_model(then);
    if (writer_->finished()) return CommandResult(tr("generate.finished"));
    return std::nullopt;
  };
  if (std::holds_alternative<Step>(command)) {
    if (auto answer = not_now(Pending::step)) return *answer;
    writing_ = false;
    advance();
    return {};
  }
  if (std::holds_alternative<Write>(command)) {
    if (auto answer = not_now(Pending::write)) return *answer;
    writing_ = true;
    write_clock_ = 0;  // the first token lands once a frame's time has passed
    return {};
  }
  if (std::holds_alternative<Stop>(command)) {
    writing_ = false;
    pending_ = Pending::none;
    return {};
  }
  if (std::holds_alternative<Restart>(command)) {
    writing_ = false;
    if (ready()) start();
    return {};
  }
  if (const auto* c = std::get_if<SetSeed>(&command)) {
    seed_ = c->seed;
    writing_ = false;
    if (ready()) start();  // the draws start over with the new seed
    return {};
  }
  lm::SamplingSettings next = sampling_;
  if (const auto* c = std::get_if<SetTemperature>(&command)) {
    if (!(c->value >= 0.0f && c->value <= 2.0f)) return tr("generate.temperature_range");
    next.temperature = c->value;
  } else if (const auto* c = std::get_if<SetTopK>(&command)) {
    if (c->k < 0 || c->k > 2048) return tr("generate.top_k_range");
    next.top_k = c->k;
  } else if (const auto* c = std::get_if<SetTopP>(&command)) {
    if (!(c->p >= 0.05f && c->p <= 1.0f)) return tr("generate.top_p_range");
    next.top_p = c->p;
  }
  sampling_ = next;
  if (writer_) {
    writer_->set_sampling(sampling_);  // the next token's stages from the same probabilities
    read_stages();
  }
  return {};
}

// [SECTION] Frames -------------------------------------------------------------------------------

void GenerateModel::update(float dt) {
  const ModelHandle::Arrival arrival = handle_.arrival(writer_ != nullptr);
  if (arrival == ModelHandle::Arrival::ready) {
    model_ = handle_.shared();
    start();
    const Pending then = std::exchange(pending_, Pending::none);
    if (then == Pending::step && !writer_->finished()) advance();
    if (then == Pending::write && !writer_->finished()) {
      writing_ = true;
      write_clock_ = 0;
    }
  } else if (arrival == ModelHandle::Arrival::failed) {
    pending_ = Pending::none;
  }
  if (!writing_) return;
  using Clock = std::chrono::steady_clock;
  const auto began = Clock::now();
  write_clock_ += dt;
  while (write_clock_ >= 1.0f / kTokensPerSecond && !writer_->finished() &&
         std::chrono::duration<double>(Clock::now() - began).count() < kFrameBudget) {
    write_clock_ -= 1.0f / kTokensPerSecond;
    advance();
  }
  write_clock_ = std::min(write_clock_, 1.0f / kTokensPerSecond);  // a slow frame does not pile tokens up
  if (writer_->finished()) {
    writing_ = false;
    // Written to the end (a learning platform's "generated" statement); not for a replay.
    events_.push_back({{"type", "generated"},
                       {"tokens", static_cast<int>(written_.size())},
                       {"temperature", sampling_.temperature},
                       {"top_k", sampling_.top_k},
                       {"top_p", sampling_.top_p}});
  }
}

bool GenerateModel::wants_another_frame() const {
  return writing_ || handle_.wants_frame(pending_ != Pending::none, writer_ != nullptr);
}

// [SECTION] State and snapshot -------------------------------------------------------------------

std::string GenerateModel::text() const {
  if (!writer_ || (written_.empty() && !writer_->ended())) return whole_utf8(prompt_);
  return whole_utf8(writer_->text());
}

json GenerateModel::state() const {
  json written = json::array();
  for (const Candidate& c : written_) written.push_back({{"text", c.label}, {"id", c.id}});
  json s = {{"kind", kKind},
            {"model", handle_.state()},
            {"prompt", whole_utf8(prompt_)},
            {"text", text()},
            {"written", written},
            {"tokens", settings_.tokens},
            {"finished", writer_ && writer_->finished()},
            {"ended", ended()},
            {"writing", writing_},
            {"temperature", sampling_.temperature},
            {"top_k", sampling_.top_k},
            {"top_p", sampling_.top_p},
            {"seed", seed_},
            {"summary", summary()},
            {"table", table().to_json()}};
  if (!stages_.empty()) {
    json stages = json::array();
    for (const Stage& st : stages_) {
      json top = json::array();
      for (const Candidate& c : st.top) top.push_back(candidate_json(c));
      stages.push_back({{"stage", st.name}, {"kept", st.kept}, {"top", top}});
    }
    s["next"] = {{"position", static_cast<int>(writer_->ids().size())}, {"stages", stages}};
  } else {
    s["next"] = nullptr;
  }
  if (has_last_)
    s["last"] = {{"text", last_.label}, {"id", last_.id}, {"p", last_.p}, {"u", last_u_}};
  else
    s["last"] = nullptr;
  if (!input_error_.empty()) s["input_error"] = input_error_;
  return s;
}

json GenerateModel::snapshot() const {
  return {{"p", prompt_}, {"t", sampling_.temperature}, {"k", sampling_.top_k}, {"q", sampling_.top_p},
          {"s", seed_},   {"n", written_.size()}};
}

CommandResult GenerateModel::restore(const json& snapshot) {
  const auto bad = [] { return CommandResult(tr("widgets.bad_snapshot", {{"kind", kKind}})); };
  if (!snapshot.is_object() || !snapshot.contains("p") || !snapshot["p"].is_string()) return bad();
  for (const char* key : {"t", "q"})
    if (!snapshot.contains(key) || !snapshot[key].is_number()) return bad();
  for (const char* key : {"k", "s", "n"})
    if (!snapshot.contains(key) || !snapshot[key].is_number_integer() || snapshot[key].get<long long>() < 0)
      return bad();
  const float t = snapshot["t"].get<float>(), q = snapshot["q"].get<float>();
  const int k = snapshot["k"].get<int>();
  const long long seed = snapshot["s"].get<long long>(), n = snapshot["n"].get<long long>();
  const std::string prompt = snapshot["p"].get<std::string>();
  if (!(t >= 0 && t <= 2) || !(q >= 0.05f && q <= 1) || k > 2048 || seed > 1000000 || n > settings_.tokens ||
      prompt.size() > kMaxPromptBytes || refuse_undrawable(prompt))
    return bad();
  sampling_ = {t, k, q};
  seed_ = static_cast<std::uint64_t>(seed);
  prompt_ = prompt;
  replay_ = static_cast<int>(n);  // the same seed and settings write the same tokens again
  writing_ = false;
  if (ready() || handle_.get()) {
    model_ = handle_.shared();
    start();
  } else {
    writer_.reset();
    written_.clear();
    has_last_ = false;
    stages_.clear();
  }
  return {};
}

std::string GenerateModel::summary() const {
  if (!writer_) return tr("generate.summary_waiting", {{"prompt", quoted(whole_utf8(prompt_))}});
  return tr_n("generate.summary", static_cast<long long>(written_.size()),
              {{"n", format_count(written_.size())}, {"text", quoted(text())}});
}

TextTable GenerateModel::table() const {
  TextTable table;
  if (stages_.empty()) return table;
  table.caption = tr("generate.table_caption");
  table.columns = {tr("generate.column_token"), tr("generate.stage.model"), tr("generate.stage.temperature"),
                   tr("generate.stage.top_k"), tr("generate.stage.top_p")};
  for (const auto& [c, p] : across_) {
    TextTable::Row row{quoted(c.label), {}};
    for (float x : p) row.cells.push_back(format_percent(x));
    table.rows.push_back(std::move(row));
  }
  return table;
}

// [SECTION] The kind: what the text version offers before the first frame, the registry entry

void GenerateModel::describe(const GenerateSettings& s, json& out) {
  out["model"] = s.model;
  out["prompt"] = s.prompt;
  out["takes_sentence"] = true;
  out["choices"] = choices(
      tr("generate.actions"),
      json::array({choice(tr("generate.step"), {{"type", "step"}}), choice(tr("generate.write"), {{"type", "write"}}),
                   choice(tr("generate.restart"), {{"type", "restart"}})}));
}

const WidgetKind& generate_widget_kind() { return folder_widget_kind<GenerateModel>(); }

}  // namespace neuralpath::widgets
