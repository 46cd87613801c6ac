// measured_value.cpp: a predict block's measured value as text (measured_value.h).
#include "engine/ui/measured_value.h"

#include "engine/text/format.h"
#include "engine/ui/widget.h"

#include <cmath>

namespace neuralpath::ui {

std::optional<std::string> measured_text(const nlohmann::json& state, const std::string& pointer) {
  nlohmann::json::json_pointer at;
  try {
    at = nlohmann::json::json_pointer(pointer);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // the checker reports a malformed path; here it simply has no value
  }
  if (!state.contains(at)) return std::nullopt;
  const nlohmann::json& v = state.at(at);
  if (v.is_number_integer()) return format_count(static_cast<std::uint64_t>(std::llabs(v.get<long long>())));
  if (v.is_number()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    if (d == std::floor(d) && std::fabs(d) < 1e15) return format_count(static_cast<std::uint64_t>(std::fabs(d)));
    return format_number(static_cast<float>(d));
  }
  if (v.is_string()) return v.get<std::string>();
  return std::nullopt;
}

std::optional<std::string> measured_text(const lesson::MeasuredValue& measured, const lesson::Lesson& lesson,
                                         const std::map<const lesson::Block*, Widget*>& widgets) {
  const lesson::Block* block = lesson::find_block(lesson, measured.widget);
  const auto found = block ? widgets.find(block) : widgets.end();
  if (found == widgets.end() || !found->second) return std::nullopt;
  return measured_text(found->second->state(), measured.pointer);
}

}  // namespace neuralpath::ui
