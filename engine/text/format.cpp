// format.cpp: the one place numbers become text (views and narration share it).
#include "format.h"
#include "engine/text/format_short.h"

#include "engine/text/catalogue.h"

#include <cmath>
#include <cstdio>

namespace neuralpath {

namespace {

// snprintf always writes '.'; the language's catalogue says which mark a learner reads
// ("0,83" in Spanish). Only the first '.' is a decimal point in what this file prints.
std::string with_decimal_mark(std::string text) {
  const std::string* mark = strings().find("format.decimal");
  if (!mark || *mark == ".") return text;
  if (const auto dot = text.find('.'); dot != std::string::npos) text.replace(dot, 1, *mark);
  return text;
}

}  // namespace

std::string format_number(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "∞" : "-∞";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", kDisplayDecimals, static_cast<double>(value));
  std::string text = buffer;
  // -0.001 prints as "-0.00"; a learner should see the same "0.00" as for +0.001.
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return with_decimal_mark(std::move(text));
}

std::string format_short(float value) {
  if (!std::isfinite(value)) return format_number(value);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f", static_cast<double>(value));
  std::string text = buffer;
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);  // as format_number
  return with_decimal_mark(std::move(text));
}

// The catalogue places the sign: "35.8%" in English, "35,8 %" (a no-break space) in Spanish.
std::string format_percent_short(float fraction) {
  if (!std::isfinite(fraction)) return format_number(fraction);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.0f", static_cast<double>(fraction) * 100.0);
  return tr("format.percent", {{"n", buffer}});
}

std::string format_percent(float fraction) {
  if (!std::isfinite(fraction)) return format_number(fraction);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f", static_cast<double>(fraction) * 100.0);
  return tr("format.percent", {{"n", with_decimal_mark(buffer)}});
}

std::string format_setting(double value) {
  if (!std::isfinite(value)) return format_number(static_cast<float>(value));
  char buffer[64];  // %g: a learning rate of 0.003 would read "0.00" with two decimals
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return with_decimal_mark(buffer);
}

std::string format_sqrt(int value) { return "√" + std::to_string(value); }

std::string quote_token(const std::string& text) { return tr("format.quote", {{"text", text}}); }

std::string format_count(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  const std::string separator = tr("format.thousands");
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += separator;
    out += digits[i];
  }
  return out;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"format.bytes", "format.kib", "format.mib", "format.gib", "format.tib"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  const std::string n =
      u == 0 ? format_count(static_cast<std::uint64_t>(bytes)) : format_number(static_cast<float>(bytes));
  return tr(units[u], {{"n", n}});
}

std::string format_seconds(double seconds) {
  if (seconds < 1.0) return tr("format.ms", {{"n", format_number(static_cast<float>(seconds * 1000.0))}});
  if (seconds < 60.0) return tr("format.s", {{"n", format_number(static_cast<float>(seconds))}});
  const double minutes = std::floor(seconds / 60.0);
  return tr("format.min_s", {{"min", format_count(static_cast<std::uint64_t>(minutes))},
                             {"s", format_number(static_cast<float>(seconds - minutes * 60.0))}});
}

std::string format_tiny(double value) {
  if (value == 0.0 || !std::isfinite(value)) return format_number(static_cast<float>(value));
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  if (exponent >= -1 && exponent < 6) return format_number(static_cast<float>(value));
  static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string power = exponent < 0 ? "⁻" : "";
  for (char ch : std::to_string(std::abs(exponent))) power += digits[ch - '0'];
  return format_number(static_cast<float>(value / std::pow(10.0, exponent))) + " × 10" + power;
}

std::string shape_text(long rows, long cols) {
  std::string out = "(";  // appended piece by piece: GCC 12 warns falsely on "(" + string&&
  out += std::to_string(rows);
  out += ", ";
  out += std::to_string(cols);
  out += ")";
  return out;
}

std::string format_value(std::string_view kind, double value) {
  if (kind == "percent") return format_percent(static_cast<float>(value));
  if (kind == "count")
    return std::isfinite(value) && value >= 0 ? format_count(static_cast<std::uint64_t>(std::llround(value)))
                                              : format_number(static_cast<float>(value));
  if (kind == "bytes")
    return std::isfinite(value) && value >= 0 ? format_bytes(value) : format_number(static_cast<float>(value));
  if (kind == "seconds")
    return std::isfinite(value) && value >= 0 ? format_seconds(value) : format_number(static_cast<float>(value));
  if (kind == "tiny") return format_tiny(value);
  return format_number(static_cast<float>(value));
}

}  // namespace neuralpath
