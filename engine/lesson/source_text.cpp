#include "engine/lesson/source_text.h"

#include <algorithm>

namespace neuralpath::lesson {

SourceText SourceText::verbatim(std::string_view text, std::size_t origin) {
  SourceText s;
  s.append(text, origin);
  return s;
}

void SourceText::append(std::string_view piece, std::size_t from) {
  if (piece.empty()) return;
  if (from == kNoOrigin) {
    // A line end sits right where the previous real piece ended; indentation is resolved
    // when the next real piece arrives (it stood just before that piece in the file).
    if (piece == "\n" && last_end_ != kNoOrigin && pending_ == 0) {
      anchors_.push_back({text_.size(), last_end_});
      text_ += piece;
      return;
    }
    if (pending_ == 0) anchors_.push_back({text_.size(), kNoOrigin});
    pending_ += piece.size();
    text_ += piece;
    return;
  }
  if (pending_ > 0) {
    // Re-anchor the synthetic run so it ends exactly where this piece begins.
    auto& a = anchors_.back();
    a.from = from >= pending_ ? from - pending_ : 0;
    pending_ = 0;
  }
  anchors_.push_back({text_.size(), from});
  text_ += piece;
  last_end_ = from + piece.size();
}

void SourceText::append(const SourceText& other) {
  for (std::size_t k = 0; k < other.anchors_.size(); ++k) {
    const auto& a = other.anchors_[k];
    const std::size_t end = k + 1 < other.anchors_.size() ? other.anchors_[k + 1].at : other.text_.size();
    append(std::string_view(other.text_).substr(a.at, end - a.at), a.from);
  }
}

std::size_t SourceText::origin(std::size_t offset) const {
  if (anchors_.empty()) return 0;
  auto it = std::upper_bound(anchors_.begin(), anchors_.end(), offset,
                             [](std::size_t off, const Anchor& a) { return off < a.at; });
  if (it == anchors_.begin()) it = anchors_.begin() + 1;
  // Walk back to the nearest anchor that knows its origin.
  for (auto a = it; a != anchors_.begin();) {
    --a;
    if (a->from != kNoOrigin) return a->from + (offset - std::min(offset, a->at));
  }
  for (const auto& a : anchors_)  // only synthetic text before: use the first real anchor
    if (a.from != kNoOrigin) return a.from;
  return 0;
}

SourceText SourceText::slice(std::size_t begin, std::size_t end) const {
  SourceText s;
  begin = std::min(begin, text_.size());
  end = std::clamp(end, begin, text_.size());
  // Copy run by run so every byte keeps its origin.
  std::size_t i = begin;
  while (i < end) {
    auto it = std::upper_bound(anchors_.begin(), anchors_.end(), i,
                               [](std::size_t off, const Anchor& a) { return off < a.at; });
    const std::size_t run_end = it == anchors_.end() ? text_.size() : it->at;
    const std::size_t stop = std::min(run_end, end);
    s.anchors_.push_back({s.text_.size(), origin(i)});
    s.text_.append(text_, i, stop - i);
    i = stop;
  }
  if (!s.anchors_.empty()) s.last_end_ = origin(end > 0 ? end - 1 : 0) + 1;
  return s;
}

SourceText SourceText::trimmed() const {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t b = 0, e = text_.size();
  while (b < e && blank(text_[b])) ++b;
  while (e > b && blank(text_[e - 1])) --e;
  return slice(b, e);
}

}  // namespace neuralpath::lesson
