// trace_model.h: what the models whose numbers are one engine run of a sentence share (heatmap,
// mask steps, split & join, head view, model view, spotlight): the block's settings, its
// caption, the lesson's model, the run's Trace, and why a sentence could not run.
//
//   has_trace(), trace()      the engine's run of the sentence on screen (trace() when has_trace())
//   error()                   why the block's own sentence could not run, or ""
//   input_error()             why the learner's last sentence could not run, or ""
//   caption()                 the block's caption
//   run_trace(...)            for the model: one run_sentence (readout.h) kept as the trace
#pragma once
#include "engine/core/model.h"
#include "engine/core/trace.h"
#include "engine/lesson/lesson.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/widget_model.h"

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace neuralpath::ui {

template <class SettingsType>
class TraceModel : public WidgetModelBase {
 public:
  using Settings = SettingsType;

  bool has_trace() const { return trace_.has_value(); }
  const Trace& trace() const { return *trace_; }
  const std::string& error() const { return error_; }
  const std::string& input_error() const { return input_error_; }
  const lesson::Inline& caption() const { return caption_; }

 protected:
  TraceModel(const Settings& settings, const lesson::Inline& caption, const ModelSpec& spec)
      : settings_(settings), caption_(caption), spec_(spec) {}

  // Runs `sentence` through the lesson's model (run_sentence, with `kind`'s words for a refusal):
  // the Trace replaces trace_, or nothing changes and the reason comes back.
  std::optional<std::string> run_trace(const std::string& sentence, const Mask& mask, int max_tokens,
                                       const std::string& kind) {
    auto ran = run_sentence(spec_, sentence, mask, max_tokens, kind);
    if (auto* why = std::get_if<std::string>(&ran)) return *why;
    trace_ = std::move(std::get<Trace>(ran));
    return std::nullopt;
  }

  Settings settings_;
  lesson::Inline caption_;
  ModelSpec spec_;
  std::optional<Trace> trace_;
  std::string error_;        // why the block's own sentence could not run
  std::string input_error_;  // why the learner's last sentence could not run
};

}  // namespace neuralpath::ui
