// diagnostic.h: what the lesson checker reports, and where.
//
// Every problem found in a lesson is a Diagnostic printed as
//     file:line:col: error: message
// Lines and columns are 1-based; a column counts Unicode characters (not bytes) from the start
// of the line, so "−∞" counts as two columns whatever its UTF-8 length. Tabs count as one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

struct SourcePos {
  int line = 0;  // 1-based; 0 = unknown
  int col = 0;   // 1-based, in characters
  friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

struct Diagnostic {
  std::string file;  // as given to the loader ("lessons/x.md")
  SourcePos pos;
  std::string message;            // one sentence, no trailing period, no position
  std::string to_string() const;  // "file:line:col: error: message", always one line
};

// The file name as a diagnostic prints it: unchanged when it is plain text, otherwise in
// double quotes with C escapes ("a\nb.md"), so a name holding a line break, a control or
// bidirectional-override character, a quote or invalid UTF-8 cannot forge or hide lines.
std::string printable_file_name(std::string_view file);

std::string format_diagnostics(const std::vector<Diagnostic>& diagnostics);  // one per line

// Byte offset -> line:col for one document. Built once per file.
// The column is counted from the line start, so a 4 MB one-line file would make every lookup
// cost a scan of the line; lookups usually move forward, so the last one is kept and a later
// offset on the same line only counts the characters in between (linear over a whole parse).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  SourcePos position(std::size_t offset) const;  // offset past the end -> last position
 private:
  std::string_view text_;
  std::vector<std::size_t> line_starts_;
  struct Cursor {
    std::size_t line = 0, offset = 0;
    int col = 1;
  };
  mutable Cursor last_;  // the previous answer (line 0 = none)
};

}  // namespace neuralpath::lesson
