// format.h: how numbers are printed, by views and narration alike, so the sentence the
// narrator speaks shows exactly the strings drawn in the cells ("1.90", not "1.9" here and
// "1.899" there).
#pragma once

#include <string>

namespace neuralpath {

inline constexpr int kDisplayDecimals = 2;

std::string format_number(float value);      // "1.90", "-0.47", "0.00" (never "-0.00"), "-∞", "∞", "NaN"
std::string format_percent(float fraction);  // 0.4123 -> "41.2%"
std::string format_sqrt(int value);          // 16 -> "√16"
std::string quote_token(const std::string& text);  // "cat" -> "'cat'" (how narration names a token)

}  // namespace neuralpath
