// format.cpp: the one place numbers become text (views and narration share it).
#include "format.h"

#include <cmath>
#include <cstdio>

namespace neuralpath {

std::string format_number(float value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "∞" : "-∞";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", kDisplayDecimals, static_cast<double>(value));
    std::string text = buffer;
    // -0.001 prints as "-0.00"; a learner should see the same "0.00" as for +0.001.
    if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
    return text;
}

std::string format_percent(float fraction) {
    if (!std::isfinite(fraction)) return format_number(fraction);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", static_cast<double>(fraction) * 100.0);
    return buffer;
}

std::string format_sqrt(int value) { return "√" + std::to_string(value); }

std::string quote_token(const std::string& text) { return "'" + text + "'"; }

}  // namespace neuralpath
