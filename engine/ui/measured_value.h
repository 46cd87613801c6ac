// measured_value.h: a predict block's number from the engine (lesson::MeasuredValue): the value
// at a JSON pointer in one widget's state(), as the page prints it. The predict card (check_view)
// and window.neuralpath.state() (App) show the same text.
#pragma once
#include "engine/lesson/lesson.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace neuralpath::ui {

class Widget;

// The value at `pointer` in `state`: a whole number as a count ("1,450"), another number with the
// page's decimals ("3.33"), text as it is. nullopt when the state has no such value yet, or null.
std::optional<std::string> measured_text(const nlohmann::json& state, const std::string& pointer);

// The same for the lesson's widget `measured.widget` (nullopt when the widget is missing).
std::optional<std::string> measured_text(const lesson::MeasuredValue& measured, const lesson::Lesson& lesson,
                                         const std::map<const lesson::Block*, Widget*>& widgets);

}  // namespace neuralpath::ui
