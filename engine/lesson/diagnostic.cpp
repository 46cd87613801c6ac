#include "engine/lesson/diagnostic.h"

#include <algorithm>

namespace neuralpath::lesson {

std::string Diagnostic::to_string() const {
    if (pos.line <= 0) return file + ": error: " + message;   // no position (unreadable file)
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) +
           ": error: " + message;
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
    const std::size_t start = line_starts_[line - 1];
    int col = 1;
    // Count characters, not bytes: UTF-8 continuation bytes (10xxxxxx) do not start one.
    for (std::size_t i = start; i < offset; ++i)
        if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++col;
    return {static_cast<int>(line), col};
}

}  // namespace neuralpath::lesson
