// step_through.h: what the two step-throughs share — the mask steps (mask_steps/) and split and
// join (split_join/) both walk one engine run's stages, one matrix at a time:
//
//   parse_common<Model>(message, parse_stage)   setSentence{text}  stage{stage: name|index}
//                                                setHead{head}  selectCell{row, col}, built as
//                                                the shared commands (commands.h)
//   matrix_rows(m)                               state()'s "matrix": rows, −∞ and NaN as null
//   finite_range(m)                              the colours' scale: finite min and max
//   describe_stages(out, names, label_key)       the text version's stage buttons
//
// Each model keeps its own commands beyond these, its stages and its words.
#pragma once
#include "engine/text/catalogue.h"
#include "engine/core/tensor.h"
#include "engine/widgets/command_result.h"
#include "engine/widgets/commands.h"

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

namespace neuralpath::widgets::step_through {

// The four commands every step-through takes (commands.h), or nullopt when `message` is another
// (the kind's own, or unknown: the caller answers not_taken). Model's Command must hold
// SetSentence, SetHead, SelectCell and its Model::SetStage (SetStage<its stage type>).
template <class Model, class Stage>
std::optional<std::variant<typename Model::Command, CommandResult>> parse_common(
    const nlohmann::json& message, std::optional<Stage> (*parse_stage)(std::string_view)) {
  using Command = typename Model::Command;
  using Parsed = std::variant<Command, CommandResult>;
  const std::string type = message.value("type", std::string());
  if (type == "setSentence") return parse_set_sentence<Command>(message);
  if (type == "stage") {
    const nlohmann::json& v = message.contains("stage") ? message["stage"] : nlohmann::json();
    typename Model::SetStage s;
    if (v.is_number_integer()) s.index = v.get<int>();
    if (v.is_string()) s.stage = parse_stage(v.get<std::string>());
    return Parsed(Command(s));
  }
  if (type == "setHead") return Parsed(Command(SetHead{int_field(message, "head").value_or(-1)}));
  if (type == "selectCell")
    return Parsed(
        Command(SelectCell{{int_field(message, "row").value_or(-1), int_field(message, "col").value_or(-1)}}));
  return std::nullopt;
}

// A matrix as JSON rows; a masked cell's −∞ (and any NaN) as null, which JSON has no number for.
inline nlohmann::json matrix_rows(const Matrix& m) {
  nlohmann::json out = nlohmann::json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Index j = 0; j < m.cols(); ++j)
      row.push_back(std::isfinite(m(i, j)) ? nlohmann::json(m(i, j)) : nlohmann::json(nullptr));
    out.push_back(std::move(row));
  }
  return out;
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

// The text version's stage buttons before the first frame: out["stages"] (the names) and
// out["choices"], one button per stage labelled tr(label_key + name), sending stage{name}.
inline void describe_stages(nlohmann::json& out, const std::vector<std::string>& names, const std::string& label_key) {
  nlohmann::json stages = nlohmann::json::array(), items = nlohmann::json::array();
  for (const std::string& name : names) {
    stages.push_back(name);
    items.push_back({{"label", tr(label_key + name)},
                     {"command", {{"type", "stage"}, {"stage", name}}},
                     {"when", {{"stage", name}}}});
  }
  out["stages"] = std::move(stages);
  out["takes_sentence"] = true;
  out["choices"] = {{"label", tr("widgets.stage")}, {"items", items}};
}

}  // namespace neuralpath::widgets::step_through
