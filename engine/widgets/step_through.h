// step_through.h: what the two step-throughs share — the mask steps (mask_steps/) and split and
// join (split_join/) both walk one engine run's stages, one matrix at a time:
//
//   StepThroughModel<Settings>                   the base: the sentence, stage, head and selected
//                                                cell, and run_sentence(...)
//   parse_common<Model>(message, stage_names)   setSentence{text}  stage{stage: name|index}
//                                                setHead{head}  selectCell{row, col}, built as
//                                                the shared commands (commands.h)
//   finite_range(m)                              the colours' scale: finite min and max
//   describe_stages(out, settings, stages, stage_names, label_key)   the text version's sentence,
//                                                mask and stage buttons
//   snapshot_common(sentence, stage, head)       a shared link's sentence, stage and head,
//   restore_common(model, snapshot)              written and read back
//   explain_row_sum(trace, row, sum, keys)       why a row of weights adds up to 1
//
// Each model keeps its own commands beyond these, its stages and its words.
#pragma once
#include "engine/text/catalogue.h"
#include "engine/core/tensor.h"
#include "engine/trace/trace.h"
#include "engine/text/format.h"
#include "engine/widgets/command_result.h"
#include "engine/widgets/commands.h"
#include "engine/widgets/enum_names.h"
#include "engine/widgets/explanation.h"
#include "engine/widgets/trace_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace neuralpath::widgets {

// What a step-through keeps beside TraceModel's run: the sentence on screen, the stage (an index
// into the kind's stages), the head and the selected cell. Settings has sentence and causal.
template <class SettingsType>
class StepThroughModel : public TraceModel<SettingsType> {
 public:
  int stage_index() const { return stage_; }
  int head() const { return head_; }
  std::optional<Cell> selected() const { return selected_; }

 protected:
  using TraceModel<SettingsType>::TraceModel;

  // Runs `sentence` with the block's mask (run_trace): on success the sentence is kept, the head
  // clamped to the new run's heads, the old selection (a cell of another grid) dropped and the
  // block's error cleared; on a refusal nothing changes and the reason comes back.
  std::optional<std::string> run_sentence(const std::string& sentence, int max_tokens, const std::string& kind) {
    const Mask mask = this->settings_.causal ? Mask::causal_mask() : Mask::none();
    if (auto why = this->run_trace(sentence, mask, max_tokens, kind)) return why;
    sentence_ = sentence;
    head_ = std::clamp(head_, 0, this->trace_->heads - 1);
    selected_.reset();
    this->error_.clear();
    return std::nullopt;
  }

  std::string sentence_;
  int stage_ = 0;
  int head_ = 0;
  std::optional<Cell> selected_;
};

}  // namespace neuralpath::widgets

namespace neuralpath::widgets::step_through {

// The four commands every step-through takes (commands.h), or nullopt when `message` is another
// (the kind's own, or unknown: the caller answers not_taken). Model's Command must hold
// SetSentence, SetHead, SelectCell and its Model::SetStage (SetStage<its stage type>).
template <class Model, class Stage, std::size_t N>
std::optional<std::variant<typename Model::Command, CommandResult>> parse_common(const nlohmann::json& message,
                                                                                 const EnumNames<Stage, N>& stages) {
  using Command = typename Model::Command;
  using Parsed = std::variant<Command, CommandResult>;
  const std::string type = message.value("type", std::string());
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "stage") {
    const nlohmann::json& v = message.contains("stage") ? message["stage"] : nlohmann::json();
    typename Model::SetStage s;
    if (v.is_number_integer()) s.index = v.get<int>();
    if (v.is_string()) s.stage = stages.parse(v.get<std::string>());
    return Parsed(Command(s));
  }
  if (type == "setHead") return Parsed(Command(SetHead{int_field(message, "head").value_or(-1)}));
  if (type == "selectCell")
    return Parsed(
        Command(SelectCell{{int_field(message, "row").value_or(-1), int_field(message, "col").value_or(-1)}}));
  return std::nullopt;
}

// The finite min and max of a matrix (masked −∞ cells left out): the scale of a stage's colours.
inline std::pair<float, float> finite_range(const Matrix& m) {
  float low = std::numeric_limits<float>::max(), high = std::numeric_limits<float>::lowest();
  for (Index i = 0; i < m.size(); ++i)
    if (std::isfinite(m.data()[i])) {
      low = std::min(low, m.data()[i]);
      high = std::max(high, m.data()[i]);
    }
  return {low, high};
}

// The text version before the first frame: the block's sentence and mask, out["stages"] (the
// names) and out["choices"], one button per stage labelled tr(label_key + name), sending
// stage{name}.
template <class Settings, class Stage, std::size_t N>
void describe_stages(nlohmann::json& out, const Settings& settings, const std::vector<Stage>& stages,
                     const EnumNames<Stage, N>& names_of, const std::string& label_key) {
  out["sentence"] = settings.sentence;
  out["causal"] = settings.causal;
  nlohmann::json names = nlohmann::json::array(), items = nlohmann::json::array();
  for (Stage stage : stages) {
    const std::string each = names_of.name(stage);
    names.push_back(each);
    items.push_back(choice(tr(label_key + each), {{"type", "stage"}, {"stage", each}}, {{"stage", each}}));
  }
  out["stages"] = std::move(names);
  out["takes_sentence"] = true;
  out["choices"] = choices(tr("widgets.stage"), std::move(items));
}

// What every step-through's shared link holds: {"s": sentence, "st": stage index, "h": head}.
// The kind adds its own keys; restore_common reads these back.
inline nlohmann::json snapshot_common(const std::string& sentence, int stage, int head) {
  return {{"s", sentence}, {"st", stage}, {"h", head}};
}

// What a shared link reopens first in every step-through: its sentence {"s"} (through
// apply(SetSentence), so a refusal comes back), then its head {"h"} and stage {"st"} where they
// are integers. Done means the caller goes on with its own keys.
template <class Model>
CommandResult restore_common(Model& model, const nlohmann::json& snapshot) {
  if (!snapshot.is_object() || !snapshot.contains("s") || !snapshot["s"].is_string())
    return tr("widgets.bad_snapshot", {{"kind", Model::kKind}});
  if (CommandResult ran = model.apply(SetSentence{snapshot["s"].get<std::string>()}); !ran.done()) return ran;
  if (const auto head = int_field(snapshot, "h")) (void)model.apply(SetHead{*head});
  if (const auto stage = int_field(snapshot, "st")) (void)model.apply(typename Model::SetStage{*stage, {}});
  return {};
}

// A softmax row's sum, explained: every row of weights adds up to 1. `keys` is the kind's
// catalogue prefix ("mask-steps."): its row_title {query, sum} and row_text.
inline Explanation explain_row_sum(const Trace& trace, int row, float sum, const std::string& keys) {
  Explanation e;
  e.title = tr(keys + "row_title",
               {{"query", quote_token(trace.labels[static_cast<std::size_t>(row)])}, {"sum", format_number(sum)}});
  e.formula = "Σ_j softmax(s)_j = 1";
  e.text = tr(keys + "row_text");
  return e;
}

}  // namespace neuralpath::widgets::step_through
