// settings.cpp: the indentation-based "key: value" parser described in settings.h.
//
// [SECTION] Lines   the body cut into lines with their indentation
// [SECTION] Values  quoted text, inline lists
// [SECTION] Blocks  maps, lists, continuation lines, literal blocks
#include "engine/lesson/settings.h"

#include "engine/lesson/limits.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace neuralpath::lesson {

const SettingsNode* SettingsNode::find(std::string_view key) const {
  for (const auto& e : entries)
    if (e.key == key) return &e.value;
  return nullptr;
}

const char* kind_name(SettingsNode::Kind kind) {
  switch (kind) {
    case SettingsNode::Kind::Empty: return "nothing";
    case SettingsNode::Kind::Text: return "a text";
    case SettingsNode::Kind::List: return "a list";
    case SettingsNode::Kind::Map: return "a map";
  }
  return "?";
}

namespace {

// [SECTION] Lines -------------------------------------------------------------------------------

struct Line {
  std::size_t begin = 0;  // offset of the content (after indentation) in the body
  std::size_t end = 0;    // offset after the content (trailing blanks removed)
  std::size_t start = 0;  // offset of the line start
  int indent = 0;         // spaces before the content
  bool skip = false;      // blank or comment
};

bool is_list_item(std::string_view content) { return content == "-" || content.substr(0, 2) == "- "; }

class SettingsParser {
 public:
  SettingsParser(const SourceText& body, std::vector<SettingsError>& errors)
      : body_(body), s_(body.text()), errors_(errors) {
    std::size_t pos = 0;
    while (pos <= s_.size()) {
      std::size_t nl = s_.find('\n', pos);
      if (nl == std::string::npos) nl = s_.size();
      Line line;
      line.start = pos;
      std::size_t b = pos;
      while (b < nl && s_[b] == ' ') ++b;
      if (b < nl && s_[b] == '\t') error(b, "use spaces, not tabs, to indent settings");
      std::size_t e = nl;
      while (e > b && (s_[e - 1] == ' ' || s_[e - 1] == '\t' || s_[e - 1] == '\r')) --e;
      line.begin = b;
      line.end = e;
      line.indent = static_cast<int>(b - pos);
      line.skip = b == e || s_[b] == '#';
      lines_.push_back(line);
      if (nl == s_.size()) break;
      pos = nl + 1;
    }
  }

  SettingsNode parse() {
    next_content();
    if (k_ >= lines_.size()) {
      SettingsNode empty;
      empty.kind = SettingsNode::Kind::Map;
      empty.origin = body_.origin(0);
      return empty;
    }
    const int indent = lines_[k_].indent;
    SettingsNode root = parse_block(indent);
    next_content();
    while (k_ < lines_.size()) {  // leftovers: indentation that fits nowhere
      error(lines_[k_].begin, "this line is indented differently from the lines above it");
      skip_deeper(lines_[k_].indent - 1);
      next_content();
    }
    return root;
  }

 private:
  const SourceText& body_;
  const std::string& s_;
  std::vector<SettingsError>& errors_;
  std::vector<Line> lines_;
  std::size_t k_ = 0;       // current line
  int depth_ = 0;           // maps and lists open around line k_ (limits.h)
  bool abandoned_ = false;  // an inline list went too deep

  std::string too_deep() const {
    return "settings nest more than " + std::to_string(kMaxSettingsNesting) + " levels deep here";
  }

  void error(std::size_t offset, std::string message) { errors_.push_back({body_.origin(offset), std::move(message)}); }

  std::string_view content(const Line& l) const { return std::string_view(s_).substr(l.begin, l.end - l.begin); }

  void next_content() {
    while (k_ < lines_.size() && lines_[k_].skip) ++k_;
  }

  // Skips every following line indented more than `indent` (children of a broken line).
  void skip_deeper(int indent) {
    ++k_;
    for (;;) {
      next_content();
      if (k_ >= lines_.size() || lines_[k_].indent <= indent) return;
      ++k_;
    }
  }

  // [SECTION] Values ----------------------------------------------------------------------------

  // A double-quoted text starting at `at` (on the quote). Sets `end` after the closing quote.
  SourceText quoted(std::size_t at, std::size_t limit, std::size_t& end) {
    SourceText out;
    std::size_t i = at + 1;
    while (i < limit) {
      const char c = s_[i];
      if (c == '"') {
        end = i + 1;
        return out;
      }
      if (c == '\\' && i + 1 < limit && (s_[i + 1] == '"' || s_[i + 1] == '\\')) {
        out.append(std::string_view(s_).substr(i + 1, 1), body_.origin(i + 1));
        i += 2;
        continue;
      }
      out.append(std::string_view(s_).substr(i, 1), body_.origin(i));
      ++i;
    }
    error(at, "this quote is never closed");
    end = limit;
    return out;
  }

  SettingsNode text_node(std::size_t b, std::size_t e) {
    SettingsNode n;
    n.kind = SettingsNode::Kind::Text;
    n.origin = body_.origin(b);
    if (b < e && s_[b] == '"') {
      std::size_t end = e;
      n.text = quoted(b, e, end);
      if (end < e) error(end, "unexpected text after the closing quote");
    } else {
      // 'text' is YAML's other quote, not ours: the page would show both marks.
      if (e - b >= 2 && s_[b] == '\'' && s_[e - 1] == '\'')
        error(b, "single quotes would be shown as written: leave them out, or use double quotes");
      n.text = body_.slice(b, e);
    }
    return n;
  }

  // An inline list "[a, b, [c, d]]" from `b`; `end` is set after the closing bracket.
  SettingsNode inline_list(std::size_t b, std::size_t limit, std::size_t& end, int depth = 1) {
    SettingsNode list;
    list.kind = SettingsNode::Kind::List;
    list.origin = body_.origin(b);
    if (depth + depth_ > kMaxSettingsNesting) {
      error(b, too_deep());
      abandoned_ = true;  // the enclosing lists stop too, without errors of their own
      end = limit;
      return list;
    }
    std::size_t i = b + 1;
    auto skip_blanks = [&] {
      while (i < limit && s_[i] == ' ') ++i;
    };
    skip_blanks();
    if (i < limit && s_[i] == ']') {
      end = i + 1;
      return list;
    }
    while (i < limit) {
      skip_blanks();
      if (i < limit && s_[i] == '[') {
        std::size_t sub_end = i;
        list.items.push_back(inline_list(i, limit, sub_end, depth + 1));
        i = sub_end;
        if (abandoned_) {
          abandoned_ = depth > 1;
          end = limit;
          return list;
        }
      } else if (i < limit && s_[i] == '"') {
        std::size_t q_end = i;
        SettingsNode n;
        n.kind = SettingsNode::Kind::Text;
        n.origin = body_.origin(i);
        n.text = quoted(i, limit, q_end);
        list.items.push_back(std::move(n));
        i = q_end;
      } else {
        std::size_t j = i;
        while (j < limit && s_[j] != ',' && s_[j] != ']') ++j;
        std::size_t e = j;
        while (e > i && s_[e - 1] == ' ') --e;
        if (e == i) {
          error(i, "empty item in a list");
        } else {
          list.items.push_back(text_node(i, e));
        }
        i = j;
      }
      skip_blanks();
      if (i < limit && s_[i] == ',') {
        ++i;
        continue;
      }
      if (i < limit && s_[i] == ']') {
        end = i + 1;
        return list;
      }
      if (i < limit) {
        error(i, "expected ',' or ']' in this list");
        end = limit;
        return list;
      }
    }
    error(b, "this '[' is never closed with ']' on the same line");
    end = limit;
    return list;
  }

  // [SECTION] Blocks ----------------------------------------------------------------------------

  // Every nested map or list is opened here, so depth_ counts them all.
  SettingsNode parse_block(int indent) {
    if (depth_ >= kMaxSettingsNesting) {
      SettingsNode empty;
      empty.origin = body_.origin(lines_[k_].begin);
      error(lines_[k_].begin, too_deep());
      skip_deeper(indent - 1);  // this line and everything under it
      return empty;
    }
    ++depth_;
    SettingsNode node = is_list_item(content(lines_[k_])) ? parse_list(indent) : parse_map(indent);
    --depth_;
    return node;
  }

  // Where "key:" ends on a line, or npos when the line is not "key: value".
  // Keys are unquoted (letters, digits, spaces and _ - . ' > ( )) or "quoted".
  std::size_t key_end(const Line& l, std::string& key, std::size_t& key_begin) {
    const std::size_t b = l.begin, e = l.end;
    key_begin = b;
    if (b < e && s_[b] == '"') {
      std::size_t q_end = b;
      std::vector<SettingsError> ignored;
      std::swap(ignored, errors_);
      SourceText k = quoted(b, e, q_end);
      std::swap(ignored, errors_);
      if (q_end >= e || s_[q_end] != ':') return std::string::npos;
      if (q_end + 1 < e && s_[q_end + 1] != ' ') return std::string::npos;
      key = k.text();
      key_begin = b + 1;
      return q_end;
    }
    for (std::size_t i = b; i < e; ++i) {
      const char c = s_[i];
      if (c == ':') {
        if (i + 1 < e && s_[i + 1] != ' ') return std::string::npos;
        std::size_t ke = i;
        while (ke > b && s_[ke - 1] == ' ') --ke;
        if (ke == b) return std::string::npos;
        key = s_.substr(b, ke - b);
        return i;
      }
      const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '_' || c == '-' || c == '.' ||
                      c == '\'' || c == '>' || c == '(' || c == ')' || static_cast<unsigned char>(c) >= 0x80;
      if (!ok) return std::string::npos;
    }
    return std::string::npos;
  }

  // The value that follows "key:" or "- " on line k_ (value text from b to the line end).
  SettingsNode value_after(std::size_t b, int owner_indent) {
    const Line& line = lines_[k_];
    const std::size_t e = line.end;
    while (b < e && s_[b] == ' ') ++b;
    if (b >= e) {  // nothing on this line: a nested block (or nothing at all)
      ++k_;
      next_content();
      if (k_ < lines_.size() && lines_[k_].indent > owner_indent) return parse_block(lines_[k_].indent);
      if (k_ < lines_.size() && lines_[k_].indent == owner_indent && is_list_item(content(lines_[k_])) &&
          !in_list_item_)
        return parse_block(owner_indent);  // "key:" followed by "- item" at its own level
      SettingsNode empty;
      empty.origin = body_.origin(b);
      return empty;
    }
    if (s_[b] == '|' && b + 1 == e) return literal_block(owner_indent, b);
    if (s_[b] == '[') {
      std::size_t end = e;
      SettingsNode list = inline_list(b, e, end);
      while (end < e && s_[end] == ' ') ++end;
      if (end < e) error(end, "unexpected text after the list");
      ++k_;
      expect_no_children(owner_indent);
      return list;
    }
    SettingsNode n = text_node(b, e);
    ++k_;
    // Continuation lines: anything indented deeper than the owner continues the text.
    const bool was_quoted = s_[b] == '"';
    for (;;) {
      if (k_ >= lines_.size() || lines_[k_].begin == lines_[k_].end) break;
      if (lines_[k_].indent <= owner_indent) break;
      if (was_quoted) {
        error(lines_[k_].begin, "a quoted value must fit on one line");
        ++k_;
        continue;
      }
      n.text.append(" ", kNoOrigin);
      n.text.append(body_.slice(lines_[k_].begin, lines_[k_].end));
      ++k_;
    }
    return n;
  }

  void expect_no_children(int owner_indent) {
    next_content();
    while (k_ < lines_.size() && lines_[k_].indent > owner_indent) {
      error(lines_[k_].begin, "this line is indented under a value that is already complete");
      skip_deeper(lines_[k_].indent);
      next_content();
    }
  }

  SettingsNode literal_block(int owner_indent, std::size_t bar) {
    SettingsNode n;
    n.kind = SettingsNode::Kind::Text;
    n.origin = body_.origin(bar);
    ++k_;
    std::size_t first = k_, last = k_;
    int common = -1;
    for (std::size_t j = k_; j < lines_.size(); ++j) {
      const Line& l = lines_[j];
      if (l.begin == l.end) continue;  // blank lines belong to the block
      if (l.indent <= owner_indent) break;
      common = common < 0 ? l.indent : std::min(common, l.indent);
      last = j + 1;
    }
    for (std::size_t j = first; j < last; ++j) {
      const Line& l = lines_[j];
      if (j > first) n.text.append("\n", kNoOrigin);
      if (l.begin == l.end) continue;
      n.text.append(body_.slice(l.start + static_cast<std::size_t>(common), l.end));
    }
    if (common < 0) error(bar, "'|' must be followed by indented lines");
    k_ = last;
    return n;
  }

  SettingsNode parse_map(int indent) {
    SettingsNode map;
    map.kind = SettingsNode::Kind::Map;
    map.origin = body_.origin(lines_[k_].begin);
    std::unordered_set<std::string> keys;  // hashed: a 100k-word vocabulary stays linear
    for (;;) {
      next_content();
      if (k_ >= lines_.size()) break;
      const Line& line = lines_[k_];
      if (line.indent < indent) break;
      if (line.indent > indent) {
        error(line.begin, "unexpected indentation");
        skip_deeper(line.indent - 1);
        continue;
      }
      if (is_list_item(content(line))) {
        error(line.begin, "a list item here: put the list under a 'key:' line");
        skip_deeper(indent);
        continue;
      }
      std::string key;
      std::size_t key_begin = 0;
      const std::size_t colon = key_end(line, key, key_begin);
      if (colon == std::string::npos) {
        error(line.begin, "expected 'key: value'");
        skip_deeper(indent);
        continue;
      }
      if (!keys.insert(key).second) error(key_begin, "'" + key + "' is given twice");
      SettingsNode::Entry entry;
      entry.key = key;
      entry.key_origin = body_.origin(key_begin);
      const bool saved = in_list_item_;
      in_list_item_ = false;
      entry.value = value_after(colon + 1, indent);
      in_list_item_ = saved;
      map.entries.push_back(std::move(entry));
    }
    return map;
  }

  SettingsNode parse_list(int indent) {
    SettingsNode list;
    list.kind = SettingsNode::Kind::List;
    list.origin = body_.origin(lines_[k_].begin);
    for (;;) {
      next_content();
      if (k_ >= lines_.size()) break;
      Line& line = lines_[k_];
      if (line.indent < indent) break;
      if (line.indent > indent) {
        error(line.begin, "unexpected indentation");
        skip_deeper(line.indent - 1);
        continue;
      }
      if (!is_list_item(content(line))) break;  // back to the enclosing map
      std::size_t b = line.begin + 1;
      while (b < line.end && s_[b] == ' ') ++b;
      // "- key: value" opens a map whose keys line up with "key".
      Line inner = line;
      inner.begin = b;
      inner.indent = line.indent + static_cast<int>(b - line.begin);
      std::string key;
      std::size_t key_begin = 0;
      if (b < line.end && s_[b] != '[' && key_end(inner, key, key_begin) != std::string::npos) {
        line = inner;
        list.items.push_back(parse_block(inner.indent));  // a map: the line is "key: ..."
        continue;
      }
      const bool saved = in_list_item_;
      in_list_item_ = true;
      list.items.push_back(value_after(b, indent));
      in_list_item_ = saved;
    }
    return list;
  }

  bool in_list_item_ = false;
};

}  // namespace

SettingsNode parse_settings(const SourceText& body, std::vector<SettingsError>& errors) {
  SettingsParser p(body, errors);
  return p.parse();
}

}  // namespace neuralpath::lesson
