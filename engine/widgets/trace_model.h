// trace_model.h: what the models whose numbers are one engine run of a sentence share (heatmap,
// mask steps, split & join, head view, model view, spotlight): beside WidgetModelBase's settings,
// caption and input error, the lesson's model, the run's Trace, and why the block's own sentence
// could not run.
//
//   has_trace(), trace()      the engine's run of the sentence on screen (trace() when has_trace())
//   error()                   why the block's own sentence could not run, or ""
//   run_trace(...)            for the model: one run_sentence (readout.h) kept as the trace
//   refuse_head(head)         for the model: why a head the run does not have is refused
//   put_errors(state)         for state(): "error" and "input_error" when there is one
//   sentence_state(...)       for state(): kind, sentence, mask, errors and the run's tokens
#pragma once
#include "engine/core/model.h"
#include "engine/trace/trace.h"
#include "engine/lesson/lesson.h"
#include "engine/text/catalogue.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/widget_model.h"

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace neuralpath::widgets {

// The longest sentence a kind that draws a T×T grid of weights shows (heatmap, head view, model
// view): a 24×24 grid still reads. The checker's figure too (the settings' read() hands it over).
inline constexpr int kGridMaxTokens = 24;

template <class SettingsType>
class TraceModel : public WidgetModelBase<SettingsType> {
 public:
  using Settings = SettingsType;

  bool has_trace() const { return trace_.has_value(); }
  const Trace& trace() const { return *trace_; }
  const std::string& error() const { return error_; }

 protected:
  TraceModel(const Settings& settings, const lesson::Inline& caption, const ModelSpec& spec)
      : WidgetModelBase<Settings>(settings, caption), spec_(spec) {}

  // Runs `sentence` through the lesson's model (run_sentence, with `kind`'s words for a refusal):
  // the Trace replaces trace_, or nothing changes and the reason comes back.
  std::optional<std::string> run_trace(const std::string& sentence, const Mask& mask, int max_tokens,
                                       const std::string& kind) {
    auto ran = run_sentence(spec_, sentence, mask, max_tokens, kind);
    if (auto* why = std::get_if<std::string>(&ran)) return *why;
    trace_ = std::move(std::get<Trace>(ran));
    return std::nullopt;
  }

  // state()'s "error" (the block's own sentence could not run) and "input_error" (the learner's
  // last sentence was refused), each only when there is one.
  void put_errors(nlohmann::json& state) const {
    if (!error_.empty()) state["error"] = error_;
    if (!this->input_error_.empty()) state["input_error"] = this->input_error_;
  }

  // state()'s opening for a kind that shows one sentence's run (head view, model view): kind,
  // sentence, mask, the errors, and the run's tokens when there is a run.
  nlohmann::json sentence_state(const char* kind, const std::string& sentence, bool causal) const {
    nlohmann::json state = {{"kind", kind}, {"sentence", sentence}, {"mask", causal ? "causal" : "none"}};
    put_errors(state);
    if (trace_) state["tokens"] = trace_->labels;
    return state;
  }

  // Why `head` is refused (the run has heads 0 .. heads − 1), or nothing when it is one of them.
  std::optional<std::string> refuse_head(int head) const {
    if (head >= 0 && head < trace_->heads) return std::nullopt;
    return tr("widgets.head_range", {{"last", std::to_string(trace_->heads - 1)}});
  }

  ModelSpec spec_;
  std::optional<Trace> trace_;
  std::string error_;  // why the block's own sentence could not run
};

}  // namespace neuralpath::widgets
