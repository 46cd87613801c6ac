// text_bridge.cpp: catalogue lookups and language loading for the JS glue (text_bridge.h).
#include "engine/ui/text_bridge.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"

#include <nlohmann/json.hpp>

namespace neuralpath::ui {

using nlohmann::json;

std::string text_for_js(std::string_view key, std::string_view args_json) {
  TextArgs args;
  const json values = json::parse(args_json, nullptr, /*allow_exceptions=*/false);
  if (values.is_object())
    for (const auto& [name, value] : values.items()) {
      if (value.is_string())
        args.emplace_back(name, value.get<std::string>());
      else if (value.is_number_integer())
        args.emplace_back(name, std::to_string(value.get<long long>()));
      else if (value.is_number())
        args.emplace_back(name, format_number(value.get<float>()));
    }
  return tr(key, args);
}

std::string use_language_for_js(std::string_view code, std::string_view file_text) {
  json problems = json::array();
  for (const Catalogue::Problem& p : use_language(code, file_text))
    problems.push_back({{"line", p.line}, {"message", p.message}});
  return json{{"language", std::string(language())}, {"problems", problems}}.dump();
}

}  // namespace neuralpath::ui
