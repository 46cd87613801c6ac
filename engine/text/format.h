// format.h: how numbers are printed, by views and narration alike, so the sentence the
// narrator speaks shows exactly the strings drawn in the cells ("1.90", not "1.9" here and
// "1.899" there).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace neuralpath {

inline constexpr int kDisplayDecimals = 2;

std::string format_number(float value);      // "1.90", "-0.47", "0.00" (never "-0.00"), "-∞", "∞", "NaN"
std::string format_percent(float fraction);  // 0.4123 -> "41.2%" ("41,2 %" in Spanish: [format] percent)
std::string format_setting(
    double value);  // 0.003 -> "0.003" ("0,003" in Spanish): a setting as an author wrote it (4 significant digits)
std::string format_sqrt(int value);                // 16 -> "√16"
std::string quote_token(const std::string& text);  // "cat" -> "'cat'" (how narration names a token)

// Counts, sizes and times, with their units from the string catalogue ([format] in
// lessons/strings/en.strings); the text version calls these through the wasm (np_format).
std::string format_count(std::uint64_t n);     // 1234567 -> "1,234,567"
std::string format_bytes(double bytes);        // 268435456 -> "256.00 MiB" (binary units)
std::string format_seconds(double seconds);    // 0.0123 -> "12.30 ms", 83 -> "1 min 23.00 s"
std::string format_tiny(double value);         // 4.77e-7 -> "4.77 × 10⁻⁷" (0 -> "0.00")
std::string shape_text(long rows, long cols);  // "(12, 4)": how NumPy/PyTorch print a shape

// One of the formats above by name, for the text version (np_format in web/main.cpp):
// "number", "percent", "count", "bytes", "seconds" or "tiny"; another name prints a number.
std::string format_value(std::string_view kind, double value);

}  // namespace neuralpath
