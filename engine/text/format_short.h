// format_short.h: one decimal, for a grid of numbers too narrow for format_number (format.h)
// on a phone. Its own header so that the many files including format.h need not rebuild for it.
#pragma once

#include <string>

namespace neuralpath {

std::string format_short(float value);  // "1.9", "-0.5", "0.0" (never "-0.0"); "-∞", "∞", "NaN" as format_number
std::string format_percent_short(float fraction);  // 0.4123 -> "41%"

}  // namespace neuralpath
