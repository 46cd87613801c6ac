// lesson_session.cpp: knowledge checks, reveals, sections and progress, without drawing.
//
// [SECTION] Knowledge checks
// [SECTION] Reveals and sections
// [SECTION] Progress
// [SECTION] State
#include "lesson_session.h"

#include "engine/text/catalogue.h"

#include <algorithm>
#include <random>
#include <variant>

namespace neuralpath::ui {

using nlohmann::json;

namespace {

// A new learner's seed for the order of check options: random, never 0 ("none yet").
std::uint32_t draw_order_seed() {
  std::random_device device;  // in the browser: crypto.getRandomValues
  std::uint32_t seed = 0;
  while (seed == 0) seed = device();
  return seed;
}

}  // namespace

LessonSession::LessonSession(const lesson::Lesson& lesson, std::string lesson_id)
    : lesson_(lesson), lesson_id_(std::move(lesson_id)), drawn_order_(draw_order_seed()) {
  progress_.lesson = lesson_.id;
  progress_.order = drawn_order_;
  for (const lesson::Block* block : lesson::check_blocks(lesson_)) checks_[block->id] = {};
}

// [SECTION] Knowledge checks ----------------------------------------------------------------------

const lesson::Check* LessonSession::find(std::string_view check, Error& error) const {
  const lesson::Check* found = lesson::find_check(lesson_, check);
  if (!found) error = tr("commands.no_check", {{"id", std::string(check)}});
  return found;
}

LessonSession::Error LessonSession::answer(std::string_view id, std::vector<int> options) {
  Error error;
  const lesson::Check* check = find(id, error);
  if (!check) return error;
  const int n = static_cast<int>(check->options.size());
  if (options.empty()) return tr("commands.no_option");
  for (int option : options)
    if (option < 0 || option >= n)
      return tr("commands.option_range", {{"option", std::to_string(option)}, {"n", std::to_string(n)}});
  std::sort(options.begin(), options.end());
  if (std::adjacent_find(options.begin(), options.end()) != options.end()) return tr("commands.option_twice");
  if (!check->multiple && options.size() > 1) return tr("commands.one_answer", {{"n", std::to_string(options.size())}});
  if (const CheckState* was = check_state(id); check->predict && was && was->grade)  // committed once
    return was->chosen == options ? Error{} : tr("commands.predict_committed", {{"id", std::string(id)}});

  const std::optional<lesson::CheckGrade> grade = lesson::answer_check(progress_, lesson_, id, options);
  if (!grade) return tr("commands.not_recorded");
  CheckState& state = checks_[std::string(id)];
  state.chosen = options;
  state.pending = options;
  state.grade = grade;
  state.revealed = state.revealed || check->predict;  // committing a prediction shows the answer
  ++state.attempts;

  json option = check->multiple ? json(options) : json(options.front());
  // The right options go out with the answer (never before it): a learning platform records the
  // correct response pattern beside the learner's (xAPI, SCORM's cmi.interactions).
  json right = json::array();
  for (std::size_t i = 0; i < check->options.size(); ++i)
    if (check->options[i].correct) right.push_back(static_cast<int>(i));
  events_.push_back({{"type", "answered"},
                     {"check", id},
                     {"option", option},
                     {"answer", right},
                     {"correct", grade->correct},
                     {"score", score(id)},
                     {"attempts", state.attempts}});
  record_changed();
  return std::nullopt;
}

LessonSession::Error LessonSession::toggle_pending(std::string_view id, int option) {
  Error error;
  const lesson::Check* check = find(id, error);
  if (!check) return error;
  if (option < 0 || option >= static_cast<int>(check->options.size()))
    return tr("commands.option_range",
              {{"option", std::to_string(option)}, {"n", std::to_string(check->options.size())}});
  CheckState& state = checks_[std::string(id)];
  if (check->predict) {  // one guess, chosen then committed (submit_pending); then it stays
    if (state.grade) return tr("commands.predict_committed", {{"id", std::string(id)}});
    state.pending = {option};
    return std::nullopt;
  }
  auto it = std::find(state.pending.begin(), state.pending.end(), option);
  if (it == state.pending.end())
    state.pending.push_back(option);
  else
    state.pending.erase(it);
  std::sort(state.pending.begin(), state.pending.end());
  state.chosen.clear();  // a changed selection is no longer the graded one
  state.grade.reset();
  return std::nullopt;
}

LessonSession::Error LessonSession::submit_pending(std::string_view id) {
  const CheckState* state = check_state(id);
  if (!state) return tr("commands.no_check", {{"id", std::string(id)}});
  if (state->pending.empty()) return tr("commands.tick_first");
  return answer(id, state->pending);
}

LessonSession::Error LessonSession::retry(std::string_view id) {
  Error error;
  const lesson::Check* check = find(id, error);
  if (!check) return error;
  CheckState& state = checks_[std::string(id)];
  if (check->predict && state.grade) return tr("commands.predict_committed", {{"id", std::string(id)}});
  state.chosen.clear();
  state.pending.clear();
  state.grade.reset();
  // The record keeps answers the learner stands by; a wrong one they retry is withdrawn.
  if (progress_.answers.erase(std::string(id)) > 0) record_changed();
  return std::nullopt;
}

LessonSession::Error LessonSession::show_hint(std::string_view id) {
  Error error;
  const lesson::Check* check = find(id, error);
  if (!check) return error;
  if (check->hint.empty()) return tr("commands.no_hint", {{"id", std::string(id)}});
  checks_[std::string(id)].hint_shown = true;
  return std::nullopt;
}

LessonSession::Error LessonSession::reveal_answer(std::string_view id) {
  Error error;
  const lesson::Check* check = find(id, error);
  if (!check) return error;
  // A prediction's answer comes with the committed guess, never before it.
  if (check->predict && !checks_[std::string(id)].grade) return tr("commands.predict_first", {{"id", std::string(id)}});
  checks_[std::string(id)].revealed = true;
  return std::nullopt;
}

std::vector<int> LessonSession::option_order(std::string_view id) const {
  const lesson::Check* check = lesson::find_check(lesson_, id);
  return lesson::option_order(progress_.order, id, check ? static_cast<int>(check->options.size()) : 0);
}

const CheckState* LessonSession::check_state(std::string_view id) const {
  auto it = checks_.find(std::string(id));
  return it == checks_.end() ? nullptr : &it->second;
}

std::vector<FeedbackLine> LessonSession::feedback(std::string_view id) const {
  std::vector<FeedbackLine> lines;
  const lesson::Check* check = lesson::find_check(lesson_, id);
  const CheckState* state = check_state(id);
  if (!check || !state || !state->grade) return lines;
  for (int option : state->chosen) {
    const auto& o = check->options[static_cast<std::size_t>(option)];
    lines.push_back({option, o.correct, lesson::plain_text(o.feedback)});
  }
  const std::size_t missed = state->grade->missed.size();
  if (check->multiple && missed > 0 && !state->grade->correct)
    lines.push_back(
        {-1, false, tr_n("page.more_correct", static_cast<long long>(missed), {{"n", std::to_string(missed)}})});
  return lines;
}

std::string LessonSession::feedback_text(std::string_view id) const {
  const lesson::Check* check = lesson::find_check(lesson_, id);
  std::string out;
  for (const FeedbackLine& line : feedback(id)) {
    if (!out.empty()) out += "\n";
    if (check && check->multiple && line.option >= 0)
      out += std::string(line.correct ? "✓ " : "✕ ") +
             lesson::plain_text(check->options[static_cast<std::size_t>(line.option)].text) + ": ";
    out += line.text;
  }
  return out;
}

double LessonSession::score(std::string_view id) const {
  const lesson::Check* check = lesson::find_check(lesson_, id);
  const CheckState* state = check_state(id);
  if (!check || !state || !state->grade) return 0;
  if (state->grade->correct) return 1;
  if (!check->multiple) return 0;
  const auto correct_options = std::count_if(check->options.begin(), check->options.end(),
                                             [](const lesson::CheckOption& o) { return o.correct; });
  const double right = static_cast<double>(state->chosen.size() - state->grade->wrong.size());
  const double wrong = static_cast<double>(state->grade->wrong.size());
  return std::clamp((right - wrong) / static_cast<double>(std::max<long>(1, correct_options)), 0.0, 1.0);
}

// [SECTION] Reveals and sections ----------------------------------------------------------------

LessonSession::Error LessonSession::set_reveal(std::string_view id, bool open) {
  const lesson::Block* block = lesson::find_block(lesson_, id);
  if (!block || !std::holds_alternative<lesson::Reveal>(block->content))
    return tr("commands.no_reveal", {{"id", std::string(id)}});
  if (open == reveal_open(id)) return std::nullopt;
  if (open)
    lesson::open_reveal(progress_, lesson_, id);
  else
    progress_.reveals.erase(std::string(id));
  events_.push_back({{"type", "reveal"}, {"id", id}, {"open", open}});
  record_changed();
  return std::nullopt;
}

bool LessonSession::reveal_open(std::string_view id) const { return progress_.reveals.count(std::string(id)) > 0; }

LessonSession::Error LessonSession::enter_section(std::string_view anchor) {
  if (!lesson::find_section(lesson_, anchor)) return tr("commands.no_section", {{"anchor", std::string(anchor)}});
  if (section_ == anchor) return std::nullopt;
  lesson::go_to_section(progress_, lesson_, anchor);
  section_ = std::string(anchor);
  events_.push_back({{"type", "section"}, {"section", section_}});
  record_changed();
  return std::nullopt;
}

void LessonSession::set_step(int step) {
  if (step == progress_.step || step < 0) return;
  progress_.step = step;
  record_changed();
}

// [SECTION] Progress ----------------------------------------------------------------------------

void LessonSession::record_changed() {
  const lesson::ProgressSummary s = summary();
  events_.push_back({{"type", "progress"},
                     {"progress", lesson::serialize_progress(progress_)},
                     {"completed_checks", s.correct},
                     {"total_checks", s.checks},
                     {"score", s.score},
                     {"completed", s.completed},
                     {"percent", s.percent}});
  if (s.completed && !completed_sent_) {
    completed_sent_ = true;
    events_.push_back({{"type", "completed"}, {"score", s.score}, {"success", s.success}});
  }
}

LessonSession::Error LessonSession::restore(std::string_view serialized, std::vector<std::string>* dropped) {
  lesson::ProgressParse parsed = lesson::parse_progress(serialized);
  if (!parsed.progress) return tr("commands.progress_unreadable", {{"error", parsed.error}});
  if (parsed.progress->lesson != lesson_.id)
    return tr("commands.progress_other_lesson", {{"saved", parsed.progress->lesson}, {"lesson", lesson_.id}});
  if (dropped) *dropped = parsed.dropped;
  progress_ = lesson::reconcile(lesson_, *parsed.progress, dropped);
  if (progress_.order == 0) progress_.order = drawn_order_;  // a record from before the shuffle keeps this visit's
  completed_sent_ = summary().completed;  // a lesson finished on an earlier visit is not re-announced
  rebuild_from_progress();
  record_changed();
  return std::nullopt;
}

void LessonSession::reset() {
  const std::uint32_t order = progress_.order;  // starting over keeps the options where they were
  progress_ = lesson::Progress{};
  progress_.lesson = lesson_.id;
  progress_.order = order;
  completed_sent_ = false;
  section_.clear();
  rebuild_from_progress();
  record_changed();
}

void LessonSession::rebuild_from_progress() {
  for (auto& [id, state] : checks_) {
    state = CheckState{};
    auto it = progress_.answers.find(id);
    if (it == progress_.answers.end()) continue;
    const lesson::Check* check = lesson::find_check(lesson_, id);
    state.chosen = it->second;
    state.pending = it->second;
    state.grade = lesson::grade(*check, it->second);
    state.revealed = check->predict;
    state.attempts = 1;
  }
  if (!progress_.section.empty() && progress_.section != section_) {
    section_ = progress_.section;
    events_.push_back({{"type", "section"}, {"section", section_}});
  }
}

// [SECTION] State -------------------------------------------------------------------------------

json LessonSession::checks_json() const {
  json out = json::array();
  for (const lesson::Block* block : lesson::check_blocks(lesson_)) {
    const auto& check = std::get<lesson::Check>(block->content);
    const CheckState& state = checks_.at(block->id);
    json options = json::array();
    for (const auto& o : check.options) options.push_back(lesson::plain_text(o.text));
    json item = {{"id", block->id},
                 {"question", lesson::plain_text(check.question)},
                 {"multiple", check.multiple},
                 {"options", options},
                 {"order", option_order(block->id)},  // how they are shown: option indices, top to bottom
                 {"chosen", state.chosen},
                 {"pending", state.pending},
                 {"attempts", state.attempts},
                 {"revealed", state.revealed},
                 {"hint", state.hint_shown ? json(lesson::plain_text(check.hint)) : json(nullptr)},
                 {"has_hint", !check.hint.empty()}};
    item["correct"] = state.grade ? json(state.grade->correct) : json(nullptr);
    item["feedback"] = feedback_text(block->id);
    item["kind"] = check.predict ? "predict" : "check";
    if (check.predict) {  // predict-then-reveal: the explanation and the measured value only once committed
      item["committed"] = state.grade.has_value();
      if (check.measured)
        item["measured"] = {{"widget", check.measured->widget},
                            {"value", check.measured->pointer},
                            {"label", lesson::plain_text(check.measured->label)}};
      if (state.grade) item["explanation"] = lesson::plain_text(check.explanation);
    }
    if (state.revealed) {
      json answer = json::array();
      for (std::size_t i = 0; i < check.options.size(); ++i)
        if (check.options[i].correct) answer.push_back(static_cast<int>(i));
      item["answer"] = answer;
    }
    out.push_back(std::move(item));
  }
  return out;
}

json LessonSession::reveals_json() const {
  json out = json::array();
  lesson::for_each_block(lesson_, [&](const lesson::Block& block) {
    if (std::holds_alternative<lesson::Reveal>(block.content))
      out.push_back({{"id", block.id}, {"open", reveal_open(block.id)}});
  });
  return out;
}

json LessonSession::progress_json() const {
  json out = json::parse(lesson::serialize_progress(progress_), nullptr, false);
  if (!out.is_object()) out = json::object();
  const lesson::ProgressSummary s = summary();
  out["summary"] = {{"checks", s.checks},       {"answered", s.answered}, {"correct", s.correct},
                    {"sections", s.sections},   {"visited", s.visited},   {"score", s.score},
                    {"completed", s.completed}, {"success", s.success},   {"percent", s.percent}};
  return out;
}

std::vector<json> LessonSession::take_events() {
  std::vector<json> out;
  out.swap(events_);
  return out;
}

}  // namespace neuralpath::ui
