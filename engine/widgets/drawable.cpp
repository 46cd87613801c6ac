// drawable.cpp: the fonts' characters as a lookup (drawable.h).
#include "engine/widgets/drawable.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/lesson/limits.h"

#include <algorithm>
#include <iterator>

namespace neuralpath::widgets {

namespace {

// The same list fonts.cpp gives ImGui (first, last pairs, ascending, 0-terminated).
constexpr char32_t kRanges[] = {
#include "engine/widgets/glyph_ranges.inc"
};

// One UTF-8 character at `at`: its length, or 0 when the bytes are not UTF-8.
std::size_t decode(std::string_view s, std::size_t at, char32_t& c) {
  const auto b = static_cast<unsigned char>(s[at]);
  const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || at + n > s.size()) return 0;
  c = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
  for (std::size_t k = 1; k < n; ++k) {
    const auto x = static_cast<unsigned char>(s[at + k]);
    if ((x & 0xC0) != 0x80) return 0;
    c = (c << 6) | (x & 0x3Fu);
  }
  return n;
}

}  // namespace

bool drawable(char32_t c) {
  if (c < 0x20) return true;
  if (c == 0xFFFD) return false;
  for (std::size_t i = 0; i + 1 < std::size(kRanges) && kRanges[i] != 0; i += 2)
    if (c >= kRanges[i] && c <= kRanges[i + 1]) return true;
  return false;
}

std::string undrawable(std::string_view utf8) {
  std::string out;
  for (std::size_t at = 0; at < utf8.size();) {
    char32_t c = 0;
    const std::size_t n = decode(utf8, at, c);
    if (n == 0) break;
    const std::string_view piece = utf8.substr(at, n);
    if (!drawable(c) && out.find(piece) == std::string::npos) out += piece;
    at += n;
  }
  return out;
}

std::optional<std::string> refuse_undrawable(std::string_view utf8) {
  // Longer than a sentence field: a 2.5 KB shared link inflated to a 1.9 MB word, which every
  // figure, state() and a saved image then carried (#35). Checked first: it bounds the scan below.
  if (utf8.size() > lesson::kMaxSentenceBytes)
    return tr("widgets.sentence_too_long",
              {{"bytes", format_count(utf8.size())}, {"max", format_count(lesson::kMaxSentenceBytes)}});
  if (undrawable(utf8).empty()) return std::nullopt;
  return tr("widgets.cannot_draw");  // the characters themselves cannot be shown in the message
}

std::optional<std::string> refuse_prompt(std::string_view prompt, std::size_t max_bytes,
                                         const std::string& too_long_key) {
  if (prompt.size() > max_bytes) return tr(too_long_key, {{"n", format_count(max_bytes)}});
  return refuse_undrawable(prompt);
}

std::string field_prefix(std::string_view text) {
  if (text.size() <= lesson::kMaxSentenceBytes) return std::string(text);
  std::size_t end = lesson::kMaxSentenceBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // a character's start
  return std::string(text.substr(0, end));
}

}  // namespace neuralpath::widgets
