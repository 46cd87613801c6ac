// translation.cpp: does a translated lesson still have its original's structure? (translation.h)
//
// [SECTION] Where a translation sits   lessons/<lang>/ID.md next to lessons/ID.md
// [SECTION] Outline                    front matter, sections and fenced blocks of one file
// [SECTION] Comparing settings         which keys are words (free) and which are structure
// [SECTION] Comparing outlines         aligned by anchor and by block kind + id (LCS, bounded)
// [SECTION] Entry points
//
// The outline is read from the source text (lines and fences), not from the parsed Lesson, so
// every block kind is compared the same way whether the parser types it or a widget folder
// owns its settings, and every difference has a line and column in the translation.
#include "engine/lesson/translation.h"

#include "engine/lesson/lesson.h"
#include "engine/lesson/limits.h"
#include "engine/lesson/load.h"
#include "engine/lesson/parser.h"
#include "engine/lesson/settings.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace neuralpath::lesson {

// [SECTION] Where a translation sits -----------------------------------------------------------

bool is_language_code(std::string_view code) {
  // A BCP 47 language (2-3 letters) with optional lower-case subtags: es, pt-br, zh-hant.
  std::size_t i = 0, part = 0, length = 0;
  for (; i <= code.size(); ++i) {
    if (i == code.size() || code[i] == '-') {
      if (part == 0 ? (length < 2 || length > 3) : (length < 2 || length > 8)) return false;
      ++part;
      length = 0;
      continue;
    }
    if (code[i] < 'a' || code[i] > 'z') return false;
    ++length;
  }
  return !code.empty();
}

std::optional<TranslationPlace> translation_place(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path file(path);
  const fs::path folder = file.parent_path();
  const std::string language = folder.filename().string();
  if (!is_language_code(language)) return std::nullopt;
  const fs::path original = folder.parent_path() / file.filename();
  std::error_code error;
  if (!fs::is_regular_file(original, error)) return std::nullopt;
  return TranslationPlace{language, original.string()};
}

namespace {

// [SECTION] Outline ----------------------------------------------------------------------------

struct Line {
  std::size_t offset;     // file offset of its first byte
  std::string_view text;  // without the line break
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({start, line});
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::size_t indent_of(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && s[n] == ' ') ++n;
  return n;
}

struct FencedBlock {
  std::string kind;                     // the info string's first word: "check", "spotlight"
  std::string id;                       // its `id:` setting, or ""
  std::size_t line = 0;                 // index of the opening fence in the file's lines
  std::size_t offset = 0;               // file offset of the fence's first backtick
  SettingsNode settings;                // the block's settings (a Map, possibly empty)
  std::vector<std::size_t> text_lines;  // indices of the lines after `---` (or of the whole
                                        // body, for a text block without settings)
  std::vector<FencedBlock> nested;      // callouts and reveals: the blocks in their text
};

// Kinds whose body is settings, then `---`, then text (docs/lesson-format.md, "Blocks").
bool takes_text(std::string_view kind) {
  return kind == "callout" || kind == "reveal" || kind == "equation" || kind == "code" || kind == "task";
}

bool looks_like_setting(std::string_view line) {
  line = trim(line);
  if (line.empty() || !std::isalpha(static_cast<unsigned char>(line.front()))) return false;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  for (char c : line.substr(0, colon))
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return colon + 1 == line.size() || line[colon + 1] == ' ';
}

class Outliner {
 public:
  explicit Outliner(std::string_view text) : text_(text), lines_(split_lines(text)) {}

  const std::vector<Line>& lines() const { return lines_; }

  // The fenced blocks among lines [from, to), at any indentation, nested ones inside
  // callouts and reveals collected under their parent.
  std::vector<FencedBlock> blocks(std::size_t from, std::size_t to) const {
    std::vector<FencedBlock> out;
    for (std::size_t i = from; i < to; ++i) {
      const std::string_view raw = lines_[i].text;
      const std::size_t indent = indent_of(raw);
      const std::string_view rest = raw.substr(indent);
      const char fence = rest.empty() ? '\0' : rest.front();
      if (fence != '`' && fence != '~') continue;
      std::size_t run = 0;
      while (run < rest.size() && rest[run] == fence) ++run;
      if (run < 3) continue;
      const std::string_view info = trim(rest.substr(run));
      const std::string kind(info.substr(0, info.find(' ')));
      std::size_t close = i + 1;
      for (; close < to; ++close) {
        const std::string_view t = trim(lines_[close].text);
        if (t.size() >= run && t.find_first_not_of(fence) == std::string_view::npos) break;
      }
      out.push_back(block(kind, i, indent, i + 1, close));
      i = close;  // past the closing fence (or the end)
    }
    return out;
  }

 private:
  FencedBlock block(const std::string& kind, std::size_t fence_line, std::size_t indent, std::size_t body_begin,
                    std::size_t body_end) const {
    FencedBlock b;
    b.kind = kind;
    b.line = fence_line;
    b.offset = lines_[fence_line].offset + indent;
    std::size_t settings_end = body_end;
    std::size_t text_begin = body_end;
    if (takes_text(kind)) {
      std::size_t first = body_begin;
      while (first < body_end && trim(lines_[first].text).empty()) ++first;
      const bool has_settings = first < body_end && looks_like_setting(lines_[first].text);
      settings_end = has_settings ? body_end : body_begin;
      text_begin = has_settings ? body_end : body_begin;
      if (has_settings)
        for (std::size_t k = body_begin; k < body_end; ++k)
          if (trim(lines_[k].text) == "---") {
            settings_end = k;
            text_begin = k + 1;
            break;
          }
    }
    SourceText body;
    for (std::size_t k = body_begin; k < settings_end; ++k) {
      const std::string_view t = lines_[k].text;
      const std::size_t cut = std::min(indent, indent_of(t));  // the fence's indentation
      body.append(t.substr(cut), lines_[k].offset + cut);
      body.append("\n", kNoOrigin);
    }
    std::vector<SettingsError> ignored;  // the ordinary checker reports these
    b.settings = parse_settings(body, ignored);
    if (const SettingsNode* id = b.settings.find("id"); id && id->kind == SettingsNode::Kind::Text)
      b.id = id->text.text();
    for (std::size_t k = text_begin; k < body_end; ++k) b.text_lines.push_back(k);
    if (kind == "callout" || kind == "reveal") b.nested = blocks(text_begin, body_end);
    return b;
  }

  std::string_view text_;
  std::vector<Line> lines_;
};

// [SECTION] Comparing settings -----------------------------------------------------------------

// Which keys carry words a translator rewrites. Everything else in a block is structure.
enum class Words { caption_only, check, predict, text_block, vocabulary, none };

Words words_of(std::string_view kind) {
  if (kind == "check") return Words::check;                             // question, hint, options' text/feedback
  if (kind == "predict") return Words::predict;                         // the same, explanation, the measured label
  if (kind == "callout" || kind == "reveal") return Words::text_block;  // title / label
  if (kind == "vocabulary") return Words::vocabulary;                   // data, but its feature labels
  if (kind == "weights" || kind == "task") return Words::none;          // data
  return Words::caption_only;                                           // widgets, code, equations
}

bool is_words(Words words, std::string_view key, int depth) {
  switch (words) {
    // A widget that runs a language model reads text in the lesson's language: which shipped
    // model (model: es), what it starts from (prompt), what a tokenizer cuts and learns from.
    case Words::caption_only:
      return depth == 0 && (key == "caption" || key == "model" || key == "prompt" || key == "text" || key == "learn");
    case Words::check: return key == "question" || key == "hint" || key == "text" || key == "feedback";
    case Words::predict:
      return key == "question" || key == "text" || key == "feedback" || key == "explanation" || key == "label";
    case Words::text_block: return depth == 0 && (key == "title" || key == "label");
    case Words::vocabulary: return depth == 0 && key == "labels";  // what a feature is called
    case Words::none: return false;
  }
  return false;
}

std::string shown(const SettingsNode& node) {
  std::string out;
  switch (node.kind) {
    case SettingsNode::Kind::Empty: out = "nothing"; break;
    case SettingsNode::Kind::Text: out = "'" + node.text.text() + "'"; break;
    case SettingsNode::Kind::List: out = "a list of " + std::to_string(node.items.size()); break;
    case SettingsNode::Kind::Map: out = "a map"; break;
  }
  if (out.size() > 70) out = out.substr(0, 67) + "...'";
  return out;
}

struct Drift {
  std::size_t offset;  // in the translated file
  std::string message;
};

// Every difference between two settings trees, skipping the words; `where` is the offset to
// report when the translation has nothing at that place.
void compare_settings(const SettingsNode& original, const SettingsNode& translated, Words words, int depth,
                      const std::string& path, std::size_t where, std::vector<Drift>& out) {
  const std::size_t here = translated.origin ? translated.origin : where;
  const std::string named = path.empty() ? "the settings" : "'" + path + "'";
  const auto differs = [&] {
    out.push_back({here, named + " is " + shown(translated) + " here but " + shown(original) + " in the original"});
  };
  if (original.kind != translated.kind) return differs();
  switch (original.kind) {
    case SettingsNode::Kind::Empty: return;
    case SettingsNode::Kind::Text:
      if (original.text.text() != translated.text.text()) differs();
      return;
    case SettingsNode::Kind::List:
      if (original.items.size() != translated.items.size()) {
        out.push_back({here, named + " has " + std::to_string(translated.items.size()) + " items here but " +
                                 std::to_string(original.items.size()) + " in the original"});
        return;
      }
      for (std::size_t i = 0; i < original.items.size(); ++i)
        compare_settings(original.items[i], translated.items[i], words, depth + 1,
                         path + "[" + std::to_string(i + 1) + "]", here, out);
      return;
    case SettingsNode::Kind::Map:
      for (const auto& entry : original.entries) {
        if (is_words(words, entry.key, depth)) continue;
        const std::string key_path = path.empty() ? entry.key : path + "." + entry.key;
        if (const SettingsNode* other = translated.find(entry.key))
          compare_settings(entry.value, *other, words, depth + 1, key_path, here, out);
        else
          out.push_back(
              {here, "the setting '" + key_path + "' is missing (the original has " + shown(entry.value) + ")"});
      }
      for (const auto& entry : translated.entries)
        if (!is_words(words, entry.key, depth) && !original.find(entry.key))
          out.push_back({entry.key_origin, "the setting '" + (path.empty() ? entry.key : path + "." + entry.key) +
                                               "' is not in the original"});
      return;
  }
}

// [SECTION] Comparing outlines -----------------------------------------------------------------

// Matching positions (i, j) of two key lists, in order: a longest common subsequence where
// that is affordable, and never a table of a.size() × b.size() cells (30k sections asked for
// 7 GB and ended in std::bad_alloc). The two files are nearly always the same outline, so:
//   1. keys equal at the start and at the end match as they stand;
//   2. in the middle, keys that occur once in each list are anchors: the longest run of them in
//      the same order (patience sorting, O(n log n)) matches, and each gap between two anchors
//      is aligned the same way;
//   3. a gap with no such anchor gets the exact table when it is small (kAlignCells), and is
//      otherwise left unmatched: its keys are reported missing and extra, which is what they
//      look like anyway.
constexpr std::size_t kAlignCells = 1u << 20;  // 4 MB of table at most, per gap
constexpr int kAlignDepth = 8;                 // gaps within gaps: each level's anchors are new keys

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

void align_exact(const std::vector<std::string>& a, std::size_t a0, std::size_t a1, const std::vector<std::string>& b,
                 std::size_t b0, std::size_t b1, Pairs& out) {
  const std::size_t n = a1 - a0, m = b1 - b0;
  std::vector<std::uint32_t> best((n + 1) * (m + 1), 0);  // best[i][j]: LCS of a[i..], b[j..]
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return best[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      at(i, j) = a[a0 + i] == b[b0 + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  for (std::size_t i = 0, j = 0; i < n && j < m;) {
    if (a[a0 + i] == b[b0 + j])
      out.emplace_back(a0 + i++, b0 + j++);
    else if (at(i + 1, j) >= at(i, j + 1))
      ++i;
    else
      ++j;
  }
}

void align_range(const std::vector<std::string>& a, std::size_t a0, std::size_t a1, const std::vector<std::string>& b,
                 std::size_t b0, std::size_t b1, Pairs& out, int depth = 0) {
  // 1. Common ends.
  std::size_t head = 0;
  while (a0 + head < a1 && b0 + head < b1 && a[a0 + head] == b[b0 + head]) ++head;
  std::size_t tail = 0;
  while (a1 - tail > a0 + head && b1 - tail > b0 + head && a[a1 - tail - 1] == b[b1 - tail - 1]) ++tail;
  for (std::size_t k = 0; k < head; ++k) out.emplace_back(a0 + k, b0 + k);
  a0 += head, b0 += head;
  const std::size_t end_a = a1 - tail, end_b = b1 - tail;
  if (a0 < end_a && b0 < end_b) {
    // 2. Anchors: keys once in each side, in an order both share.
    std::unordered_map<std::string_view, std::pair<int, std::size_t>> in_a, in_b;  // key -> (count, index)
    for (std::size_t i = a0; i < end_a; ++i) {
      auto& e = in_a[a[i]];
      ++e.first;
      e.second = i;
    }
    for (std::size_t j = b0; j < end_b; ++j) {
      auto& e = in_b[b[j]];
      ++e.first;
      e.second = j;
    }
    Pairs unique;  // in a's order
    for (std::size_t i = a0; i < end_a; ++i) {
      const auto ea = in_a.find(a[i]), eb = in_b.find(a[i]);
      if (ea->second.first == 1 && eb != in_b.end() && eb->second.first == 1) unique.emplace_back(i, eb->second.second);
    }
    // The longest run increasing in b (patience sorting): piles[k] ends the best run of length k + 1.
    std::vector<std::size_t> piles, previous(unique.size(), SIZE_MAX);
    for (std::size_t u = 0; u < unique.size(); ++u) {
      const auto pile = std::lower_bound(piles.begin(), piles.end(), unique[u].second,
                                         [&](std::size_t v, std::size_t j) { return unique[v].second < j; });
      if (pile != piles.begin()) previous[u] = *(pile - 1);
      if (pile == piles.end())
        piles.push_back(u);
      else
        *pile = u;
    }
    Pairs anchors;
    for (std::size_t u = piles.empty() ? SIZE_MAX : piles.back(); u != SIZE_MAX; u = previous[u])
      anchors.push_back(unique[u]);
    std::reverse(anchors.begin(), anchors.end());
    if (anchors.empty() || depth >= kAlignDepth) {
      // 3. No anchor (or deep enough): the exact table when small, else nothing matched.
      if ((end_a - a0) * (end_b - b0) <= kAlignCells) align_exact(a, a0, end_a, b, b0, end_b, out);
    } else {
      std::size_t i = a0, j = b0;
      for (const auto& [ai, bj] : anchors) {
        align_range(a, i, ai, b, j, bj, out, depth + 1);
        out.emplace_back(ai, bj);
        i = ai + 1, j = bj + 1;
      }
      align_range(a, i, end_a, b, j, end_b, out, depth + 1);
    }
  }
  for (std::size_t k = tail; k > 0; --k) out.emplace_back(a1 - k, b1 - k);
}

Pairs align(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  Pairs pairs;
  align_range(a, 0, a.size(), b, 0, b.size(), pairs);
  return pairs;
}

std::string block_key(const FencedBlock& b) { return b.kind + "#" + b.id; }

std::string block_name(const FencedBlock& b) {
  const std::string kind = b.kind.empty() ? std::string("fenced") : b.kind;
  std::string name = (std::string("aeiou").find(kind.front()) != std::string::npos ? "an " : "a ") + kind + " block";
  if (!b.id.empty()) name = "the " + b.kind + " '" + b.id + "'";
  return name;
}

bool is_comment_or_blank(std::string_view line) {
  line = trim(line);
  return line.empty() || line.front() == '#';
}

class Comparison {
 public:
  Comparison(std::string_view original, const std::string& original_file, std::string_view translated,
             const std::string& translated_file, WidgetBlockParsers widgets)
      : original_(original),
        translated_(translated),
        original_index_(original),
        translated_index_(translated),
        widgets_(widgets),
        original_file_(original_file),
        translated_file_(translated_file),
        original_source_(original),
        translated_source_(translated) {}

  std::vector<Diagnostic> run() {
    compare_front_matter();
    const ParseResult o = parse_lesson(original_text(), original_file_, widgets_);
    const ParseResult t = parse_lesson(translated_text(), translated_file_, widgets_);
    compare_sections(o.lesson, t.lesson);
    return std::move(out_);
  }

 private:
  std::string_view original_text() const { return original_source_; }
  std::string_view translated_text() const { return translated_source_; }

  void report(std::size_t offset, std::string message) {
    out_.push_back({translated_file_, translated_index_.position(offset), std::move(message)});
  }
  void report_at(SourcePos pos, std::string message) { out_.push_back({translated_file_, pos, std::move(message)}); }
  std::string in_original(std::size_t line_index) const {
    return printable_file_name(original_file_) + ":" + std::to_string(line_index + 1);
  }

  // id, level and order, read from the `key: value` lines between the first two `---` lines.
  struct FrontValue {
    std::string value;
    std::size_t offset = 0;
    bool found = false;
  };
  static FrontValue front(const Outliner& file, std::string_view key) {
    const auto& lines = file.lines();
    if (lines.empty() || trim(lines[0].text) != "---") return {};
    for (std::size_t i = 1; i < lines.size() && trim(lines[i].text) != "---"; ++i) {
      const std::string_view l = lines[i].text;
      if (l.substr(0, key.size()) == key && l.size() > key.size() && l[key.size()] == ':') {
        const std::string_view value = trim(l.substr(key.size() + 1));
        return {std::string(value), lines[i].offset + static_cast<std::size_t>(value.data() - l.data()), true};
      }
    }
    return {};
  }

  void compare_front_matter() {
    for (const char* key : {"id", "level", "order"}) {
      const FrontValue o = front(original_, key), t = front(translated_, key);
      if (!o.found || !t.found || o.value == t.value) continue;
      report(t.offset, std::string("the ") + key + " is '" + t.value + "' but the original's is '" + o.value + "' (" +
                           in_original(original_index_.position(o.offset).line - 1) + ")");
    }
  }

  // Lines [begin, end) of each section, by its heading line; the intro is the lines before
  // the first section (after the front matter, which holds no fences).
  static std::vector<std::pair<std::size_t, std::size_t>> section_lines(const Lesson& lesson, std::size_t line_count) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    std::size_t previous = 0;
    for (const Section& s : lesson.sections) {
      const std::size_t start = s.pos.line > 0 ? static_cast<std::size_t>(s.pos.line - 1) : 0;
      ranges.emplace_back(previous, start);
      previous = start;
    }
    ranges.emplace_back(previous, line_count);
    return ranges;  // ranges[0] is the intro, ranges[k + 1] section k
  }

  void compare_sections(const Lesson& original, const Lesson& translated) {
    std::vector<std::string> a, b;
    for (const Section& s : original.sections) a.push_back(s.anchor);
    for (const Section& s : translated.sections) b.push_back(s.anchor);
    const auto pairs = align(a, b);
    const auto o_ranges = section_lines(original, original_.lines().size());
    const auto t_ranges = section_lines(translated, translated_.lines().size());
    const SourcePos end_of_file{static_cast<int>(translated_.lines().size()), 1};

    compare_blocks(original_.blocks(o_ranges[0].first, o_ranges[0].second),
                   translated_.blocks(t_ranges[0].first, t_ranges[0].second),
                   t_ranges[0].second > 0 ? SourcePos{static_cast<int>(t_ranges[0].second + 1), 1} : end_of_file);

    std::size_t p = 0;
    std::set<std::size_t> matched_translated;
    for (const auto& [i, j] : pairs) matched_translated.insert(j);
    for (std::size_t i = 0; i < a.size(); ++i) {
      while (p < pairs.size() && pairs[p].first < i) ++p;
      if (p < pairs.size() && pairs[p].first == i) {
        const std::size_t j = pairs[p].second;
        const Section& os = original.sections[i];
        const Section& ts = translated.sections[j];
        if (os.level != ts.level)
          report_at(ts.pos, std::string("the section '") + ts.anchor + "' is " +
                                (ts.level == Level::None ? "without a level" : level_name(ts.level)) + " here but " +
                                (os.level == Level::None ? "without a level" : level_name(os.level)) +
                                " in the original (" + in_original(os.pos.line - 1) + ")");
        // A block missing at the end of a section belongs before the next heading.
        const std::size_t next = t_ranges[j + 1].second;
        const SourcePos section_end =
            next < translated_.lines().size() ? SourcePos{static_cast<int>(next + 1), 1} : end_of_file;
        compare_blocks(original_.blocks(o_ranges[i + 1].first, o_ranges[i + 1].second),
                       translated_.blocks(t_ranges[j + 1].first, t_ranges[j + 1].second), section_end);
        continue;
      }
      // Missing: reported where it belongs, at the next section both files have.
      SourcePos where = end_of_file;
      if (p < pairs.size()) where = translated.sections[pairs[p].second].pos;
      report_at(where, "the section '" + a[i] + "' (" + in_original(original.sections[i].pos.line - 1) +
                           ") is missing from the translation; it belongs before this point");
    }
    const std::unordered_set<std::string_view> in_original(a.begin(), a.end());  // hashed: no n·m search
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (matched_translated.count(j)) continue;
      const bool elsewhere = in_original.count(b[j]) > 0;
      report_at(translated.sections[j].pos,
                elsewhere
                    ? "the section '" + b[j] + "' is in a different place than in the original"
                    : "the section '" + b[j] + "' is not in the original (an extra section, or a changed {#anchor})");
    }
  }

  void compare_blocks(const std::vector<FencedBlock>& original, const std::vector<FencedBlock>& translated,
                      SourcePos section_end) {
    std::vector<std::string> a, b;
    for (const auto& x : original) a.push_back(block_key(x));
    for (const auto& x : translated) b.push_back(block_key(x));
    const auto pairs = align(a, b);
    std::vector<bool> matched(translated.size(), false);
    std::size_t p = 0;
    for (std::size_t i = 0; i < original.size(); ++i) {
      while (p < pairs.size() && pairs[p].first < i) ++p;
      if (p < pairs.size() && pairs[p].first == i) {
        matched[pairs[p].second] = true;
        compare_block(original[i], translated[pairs[p].second]);
        continue;
      }
      const std::size_t at = p < pairs.size() ? translated[pairs[p].second].offset : kNoOrigin;
      const std::string message = block_name(original[i]) + " (" + in_original(original[i].line) +
                                  ") is missing from the translation; it belongs before this point";
      if (at != kNoOrigin)
        report(at, message);
      else
        report_at(section_end, message);
    }
    const std::unordered_set<std::string_view> in_original(a.begin(), a.end());
    for (std::size_t j = 0; j < translated.size(); ++j)
      if (!matched[j]) {
        const bool elsewhere = in_original.count(b[j]) > 0;
        report(translated[j].offset,
               block_name(translated[j]) + (elsewhere
                                                ? " is in a different place than in the original"
                                                : " is not in the original (an extra block, or a changed kind or id)"));
      }
  }

  void compare_block(const FencedBlock& o, const FencedBlock& t) {
    const Words words = words_of(o.kind);
    std::vector<Drift> drifts;
    compare_settings(o.settings, t.settings, words, 0, "", t.offset, drifts);
    for (const Drift& d : drifts)
      report(d.offset == 0 ? t.offset : d.offset, block_name(t) + ": " + d.message + " (" + in_original(o.line) + ")");
    if (o.kind == "code" && o.text_lines.size() != t.text_lines.size())
      report(t.offset, block_name(t) + " has " + std::to_string(t.text_lines.size()) +
                           " lines of code but the original has " + std::to_string(o.text_lines.size()) + " (" +
                           in_original(o.line) +
                           "); translate comments in place so steps and highlights keep their lines");
    if (words == Words::none) compare_data_text(o, t);
    if (o.kind == "callout" || o.kind == "reveal")
      compare_blocks(o.nested, t.nested, translated_index_.position(t.offset));
  }

  // A task's corpus (after `---`) is training data: the same lines, comments aside.
  void compare_data_text(const FencedBlock& o, const FencedBlock& t) {
    std::vector<std::size_t> a, b;
    for (std::size_t k : o.text_lines)
      if (!is_comment_or_blank(original_.lines()[k].text)) a.push_back(k);
    for (std::size_t k : t.text_lines)
      if (!is_comment_or_blank(translated_.lines()[k].text)) b.push_back(k);
    for (std::size_t n = 0; n < std::max(a.size(), b.size()); ++n) {
      if (n < a.size() && n < b.size() && trim(original_.lines()[a[n]].text) == trim(translated_.lines()[b[n]].text))
        continue;
      const std::size_t at = n < b.size() ? translated_.lines()[b[n]].offset : t.offset;
      report(at, block_name(t) + "'s data differs from the original's" +
                     (n < a.size() ? " (" + in_original(a[n]) + ")" : std::string(" (an extra line)")) +
                     "; data blocks are copied unchanged");
      return;
    }
  }

  Outliner original_, translated_;
  LineIndex original_index_, translated_index_;
  WidgetBlockParsers widgets_;
  std::string original_file_, translated_file_;
  std::string_view original_source_, translated_source_;
  std::vector<Diagnostic> out_;
};

std::optional<std::string> read_small_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  const auto size = std::filesystem::file_size(path, error);
  if (error || size > kMaxLessonBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// [SECTION] Entry points -----------------------------------------------------------------------

std::vector<Diagnostic> check_translation(std::string_view translated, const std::string& translated_file,
                                          std::string_view original, const std::string& original_file,
                                          WidgetBlockParsers widgets) {
  Comparison comparison(original, original_file, translated, translated_file, widgets);
  std::vector<Diagnostic> found = comparison.run();
  std::stable_sort(found.begin(), found.end(), [](const Diagnostic& x, const Diagnostic& y) {
    return x.pos.line != y.pos.line ? x.pos.line < y.pos.line : x.pos.col < y.pos.col;
  });
  if (found.size() > kMaxDiagnostics) found.resize(kMaxDiagnostics);
  return found;
}

std::optional<std::string> find_strings_file(std::string_view code, const std::string& lesson_path) {
  namespace fs = std::filesystem;
  if (!is_language_code(code)) return std::nullopt;
  const std::string name = std::string(code) + ".strings";
  std::vector<fs::path> candidates;
  if (!lesson_path.empty()) {
    const fs::path folder = fs::path(lesson_path).parent_path();
    candidates.push_back(folder / "strings" / name);
    candidates.push_back(folder.parent_path() / "strings" / name);
  }
  candidates.push_back(fs::path("lessons") / "strings" / name);
  std::error_code error;
  for (const fs::path& candidate : candidates)
    if (fs::is_regular_file(candidate, error)) return candidate.string();
  return std::nullopt;
}

std::vector<Diagnostic> check_lesson_or_translation_file(const std::string& path, WidgetBlockParsers widgets) {
  std::vector<Diagnostic> found = check_lesson_file(path, widgets);
  if (!found.empty()) return found;  // the drift check needs a translation that parses
  const auto place = translation_place(path);
  if (!place) return found;
  const auto translated = read_small_file(path);
  const auto original = read_small_file(place->original_path);
  if (!translated) return found;  // check_lesson_file read it a moment ago; nothing to add
  if (!original) {
    found.push_back({path, {1, 1}, "cannot read its original " + printable_file_name(place->original_path)});
    return found;
  }
  return check_translation(*translated, path, *original, place->original_path, widgets);
}

}  // namespace neuralpath::lesson
