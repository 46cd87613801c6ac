#include "engine/lesson/diagnostic.h"

#include <algorithm>

namespace neuralpath::lesson {

namespace {

// The code point of the UTF-8 sequence at s[i] (advancing i), or -1 for an invalid sequence.
long next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i++]);
  if (b0 < 0x80) return b0;
  const int extra = (b0 >> 5) == 0x6 ? 1 : (b0 >> 4) == 0xE ? 2 : (b0 >> 3) == 0x1E ? 3 : -1;
  if (extra < 0 || i + static_cast<std::size_t>(extra) > s.size()) return -1;
  long cp = b0 & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    const auto b = static_cast<unsigned char>(s[i++]);
    if ((b & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (b & 0x3F);
  }
  static const long kMin[] = {0, 0x80, 0x800, 0x10000};  // overlong forms are invalid
  if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

// Characters that change how a terminal or editor shows the line around them.
bool invisible_or_control(long cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||  // C0, DEL, C1
         cp == 0x200E || cp == 0x200F ||                           // LRM, RLM
         (cp >= 0x2028 && cp <= 0x202E) ||                         // line/paragraph sep, bidi
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;           // bidi isolates, BOM
}

}  // namespace

std::string printable_file_name(std::string_view file) {
  bool plain = !file.empty();
  for (std::size_t i = 0; plain && i < file.size();) {
    const long cp = next_code_point(file, i);
    plain = cp >= 0 && cp != '"' && cp != '\\' && !invisible_or_control(cp);
  }
  if (plain) return std::string(file);
  std::string out = "\"";
  for (std::size_t i = 0; i < file.size();) {
    const std::size_t start = i;
    const long cp = next_code_point(file, i);
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0 || invisible_or_control(cp)) {
      static const char hex[] = "0123456789abcdef";
      for (std::size_t k = start; k < (cp < 0 ? start + 1 : i); ++k) {
        const auto b = static_cast<unsigned char>(file[k]);
        out += "\\x";
        out += hex[b >> 4];
        out += hex[b & 0xF];
      }
      if (cp < 0) i = start + 1;  // resynchronise after one invalid byte
    } else {
      out.append(file.substr(start, i - start));
    }
  }
  return out + "\"";
}

std::string Diagnostic::to_string() const {
  const std::string name = printable_file_name(file);
  std::string text = message;
  for (char& c : text)  // messages quote lesson text: no line breaks or terminal escapes
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F) c = ' ';
  if (pos.line <= 0) return name + ": error: " + text;  // no position (unreadable file)
  return name + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": error: " + text;
}

std::string format_diagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) out += d.to_string() + "\n";
  return out;
}

LineIndex::LineIndex(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts_.push_back(i + 1);
}

SourcePos LineIndex::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());  // >= 1
  std::size_t from = line_starts_[line - 1];
  int col = 1;
  if (last_.line == line && last_.offset <= offset) {  // resume from the previous lookup
    from = last_.offset;
    col = last_.col;
  }
  // Count characters, not bytes: UTF-8 continuation bytes (10xxxxxx) do not start one.
  for (std::size_t i = from; i < offset; ++i)
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++col;
  last_ = {line, offset, col};
  return {static_cast<int>(line), col};
}

}  // namespace neuralpath::lesson
