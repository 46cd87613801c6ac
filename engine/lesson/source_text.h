// source_text.h: a piece of lesson text that remembers where each byte came from.
//
// md4c hands us text in pieces (a fenced block line by line, without its indentation), and a
// block body is parsed again by smaller parsers (settings, equations, nested Markdown). A
// SourceText is such a reassembled string plus anchors back into the original file, so an
// error found at offset k of the piece is reported at the right file line and column.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

inline constexpr std::size_t kNoOrigin = static_cast<std::size_t>(-1);

class SourceText {
 public:
  SourceText() = default;
  // A whole file (or a slice of it) whose offsets map 1:1 onto the file from `origin` on.
  static SourceText verbatim(std::string_view text, std::size_t origin);

  const std::string& text() const { return text_; }
  std::size_t size() const { return text_.size(); }
  bool empty() const { return text_.empty(); }

  std::size_t origin(std::size_t offset) const;                // file offset of text()[offset]
  SourceText slice(std::size_t begin, std::size_t end) const;  // keeps the origins
  SourceText trimmed() const;                                  // without leading/trailing blanks

  // Building piece by piece: `from` is the file offset the piece starts at, or kNoOrigin for
  // synthetic text (md4c's indentation and line ends), which is anchored next to real text.
  void append(std::string_view piece, std::size_t from);
  void append(const SourceText& other);  // concatenation, origins kept

 private:
  struct Anchor {
    std::size_t at;
    std::size_t from;
  };
  std::string text_;
  std::vector<Anchor> anchors_;       // sorted by `at`; `from` == kNoOrigin: synthetic
  std::size_t pending_ = 0;           // synthetic bytes not anchored yet
  std::size_t last_end_ = kNoOrigin;  // file offset right after the last real piece
};

}  // namespace neuralpath::lesson
