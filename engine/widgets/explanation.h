// explanation.h: what "explain any number" says about one number — plain data a model builds
// from the trace (no ImGui), and the view's Explainer (explain.h) shows in a popup.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace neuralpath::widgets {

struct Explanation {
  std::string title;    // what the number is: "Weight of 'animal' for 'it'"
  std::string formula;  // the rule in symbols, may be empty: "w = exp(s − max) / Σ exp(s − max)"
  std::vector<std::pair<std::string, std::string>> inputs;  // name, value as drawn
  std::string text;                                         // how the engine made it, in words (often narrate(...))

  nlohmann::json to_json() const;  // {"title", "formula", "inputs": [{"name", "value"}], "text"}
};

}  // namespace neuralpath::widgets
