// explanation.cpp: an Explanation as state()'s "explained" JSON (explanation.h).
#include "engine/widgets/explanation.h"

namespace neuralpath::widgets {

nlohmann::json Explanation::to_json() const {
  nlohmann::json in = nlohmann::json::array();
  for (const auto& [name, value] : inputs) in.push_back({{"name", name}, {"value", value}});
  return {{"title", title}, {"formula", formula}, {"inputs", in}, {"text", text}};
}

}  // namespace neuralpath::widgets
