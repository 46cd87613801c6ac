// parser.cpp: parse_lesson() — front matter, then md4c over the rest, then whole-file checks.
//
// [SECTION] Front matter   "---" / key: value / "---" at the very top
// [SECTION] Sections       "## Level: Title {#anchor}" -> level, title, anchor
// [SECTION] Whole file     unique ids, references, model data
#include "engine/lesson/parse_context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace neuralpath::lesson {

using namespace detail;

namespace {

// [SECTION] Front matter ------------------------------------------------------------------------

// Returns the offset where the Markdown starts (after the closing "---" line).
std::size_t front_matter(ParseContext& ctx, Lesson& lesson) {
  const std::string_view t = ctx.text;
  auto line_at = [&](std::size_t pos, std::size_t& next) {
    std::size_t nl = t.find('\n', pos);
    next = nl == std::string_view::npos ? t.size() : nl + 1;
    std::string_view line = t.substr(pos, (nl == std::string_view::npos ? t.size() : nl) - pos);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    return line;
  };
  std::size_t next = 0;
  std::size_t start = t.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
  if (line_at(start, next) != "---") {
    ctx.error(start,
              "a lesson starts with front matter: a line '---', then id, title, level "
              "and summary, then '---'");
    return start;
  }
  const std::size_t body = next;
  std::size_t pos = next, end = std::string_view::npos;
  while (pos < t.size()) {
    std::size_t after = 0;
    if (line_at(pos, after) == "---") {
      end = pos;
      next = after;
      break;
    }
    pos = after;
  }
  if (end == std::string_view::npos) {
    ctx.error(start, "the front matter is never closed with a '---' line");
    return t.size();
  }
  std::vector<SettingsError> errors;
  SettingsNode node = parse_settings(SourceText::verbatim(t.substr(body, end - body), body), errors);
  for (auto& e : errors) ctx.error(e.origin, e.message);
  if (node.kind != SettingsNode::Kind::Map) return next;
  Fields f(ctx, node, "front matter", start);
  f.block = "front matter";
  if (auto id = f.source("id", true)) {
    const std::string& s = id->text();
    const bool ok = std::all_of(s.begin(), s.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-';
    });
    if (!ok)
      ctx.error(id->origin(0), "the lesson id uses lower-case letters, digits and '-' only (it is part of the URL)");
    lesson.id = s;
  }
  lesson.title = f.text("title", true).value_or("");
  lesson.summary = f.text("summary", true).value_or("");
  lesson.order = static_cast<int>(f.integer("order", 0, 1, 9999).value_or(0));
  if (auto level = f.source("level", true)) {
    if (auto l = parse_level(level->text()))
      lesson.level = *l;
    else
      ctx.error(level->origin(0), "level is Beginner, Medium or Advanced, not '" + level->text() + "'");
  }
  f.finish();
  return next;
}

// [SECTION] Sections ----------------------------------------------------------------------------

void finish_sections(ParseContext& ctx, Lesson& lesson) {
  std::unordered_set<std::string> anchors;  // hashed: 100k sections stay linear
  for (auto& s : lesson.sections) {
    // "{#anchor}" at the end of the heading's last text span.
    std::string anchor;
    if (!s.title_spans.empty() && s.title_spans.back().kind == Span::Kind::Text) {
      std::string& last = s.title_spans.back().text;
      const std::size_t open = last.rfind("{#");
      if (open != std::string::npos && !last.empty() && last.back() == '}') {
        anchor = last.substr(open + 2, last.size() - open - 3);
        last.erase(open);
        while (!last.empty() && last.back() == ' ') last.pop_back();
        if (anchor.empty() || slugify(anchor) != anchor)
          ctx.error_at(s.pos, "an anchor is lower-case letters, digits and '-', like {#causal-mask}");
      }
    }
    // "Beginner: Title" -> level + title.
    if (!s.title_spans.empty() && s.title_spans.front().kind == Span::Kind::Text) {
      std::string& first = s.title_spans.front().text;
      const std::size_t colon = first.find(':');
      if (colon != std::string::npos)
        if (auto level = parse_level(first.substr(0, colon))) {
          s.level = *level;
          first.erase(0, colon + 1);
          while (!first.empty() && first.front() == ' ') first.erase(0, 1);
          if (first.empty()) s.title_spans.erase(s.title_spans.begin());
        }
    }
    s.title = plain_text(s.title_spans);
    if (s.title.empty()) ctx.error_at(s.pos, "this section has no title");
    s.anchor = anchor.empty() ? slugify(s.title) : anchor;
    if (!anchors.insert(s.anchor).second)
      ctx.error_at(s.pos, "another section already has the anchor '" + s.anchor + "'; give one an explicit {#anchor}");
  }
  if (lesson.sections.empty()) ctx.error(0, "the lesson has no sections: start one with '## Beginner: A title'");
}

// [SECTION] Whole file --------------------------------------------------------------------------

// Each reference names a block (`blocks`: id -> the first block with it), and one holding
// `Content`; for a block of another kind the error ends with `wrong_kind`.
template <class Content, class Refs>
void resolve_refs(ParseContext& ctx, const Refs& refs, const std::unordered_map<std::string_view, const Block*>& blocks,
                  const std::string& wrong_kind) {
  for (const auto& ref : refs) {
    const auto found = blocks.find(ref.id);
    if (found == blocks.end())
      ctx.error(ref.origin, "no block has the id '" + ref.id + "'");
    else if (!std::holds_alternative<Content>(found->second->content))
      ctx.error(ref.origin, "'" + ref.id + "' " + wrong_kind);
  }
}

// Both lookups are hashed, so a lesson with very many ids or references stays linear.
void check_references(ParseContext& ctx, const Lesson& lesson) {
  std::unordered_map<std::string_view, std::size_t> first_use;  // id -> origin of its first use
  for (const auto& id : ctx.ids) {
    const auto [it, fresh] = first_use.try_emplace(id.id, id.origin);
    if (!fresh)
      ctx.error(id.origin, "id '" + id.id + "' is already used on line " + std::to_string(ctx.pos(it->second).line));
  }
  if (ctx.code_refs.empty() && ctx.widget_refs.empty()) return;
  std::unordered_map<std::string_view, const Block*> blocks;  // id -> first block with it
  for_each_block(lesson, [&](const Block& b) {
    if (!b.id.empty()) blocks.try_emplace(b.id, &b);
  });
  resolve_refs<CodeBlock>(ctx, ctx.code_refs, blocks, "is not a code block");
  resolve_refs<WidgetBlock>(ctx, ctx.widget_refs, blocks,
                            "is not a widget (a predict block measures a widget's value)");
}

// What the page can show (limits.h): sections, checks and widgets, each refused past its limit
// at the first one too many.
void check_counts(ParseContext& ctx, const Lesson& lesson) {
  if (lesson.sections.size() > kMaxSections)
    ctx.error_at(lesson.sections[kMaxSections].pos, "a lesson has at most " + std::to_string(kMaxSections) +
                                                        " sections; this is one more (split the lesson in two)");
  std::size_t checks = 0, widgets = 0;
  for_each_block(lesson, [&](const Block& b) {
    if (std::holds_alternative<Check>(b.content) && ++checks == kMaxChecks + 1)
      ctx.error_at(b.pos, "a lesson has at most " + std::to_string(kMaxChecks) + " checks; this is one more");
    if (std::holds_alternative<WidgetBlock>(b.content) && ++widgets == kMaxWidgets + 1)
      ctx.error_at(b.pos, "a lesson has at most " + std::to_string(kMaxWidgets) + " widgets; this is one more");
  });
}

// The first byte that does not start a well-formed UTF-8 character (overlong forms, surrogates
// and code points past U+10FFFF included), or npos. The page draws and serialises text as
// UTF-8: one 0xFF byte in a title passed the checker and then stopped the page.
std::size_t first_invalid_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
      length = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else
      return i;
    if (i + length > text.size()) return i;
    if (byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return i;
    i += length;
  }
  return std::string_view::npos;
}

}  // namespace

ParseResult parse_lesson(std::string_view text, std::string file, WidgetBlockParsers widgets) {
  ParseResult result;
  ParseContext ctx(std::move(file), text);
  ctx.widgets = widgets;
  ctx.lesson = &result.lesson;
  result.lesson.file = ctx.file;

  if (text.find('\0') != std::string_view::npos) {
    ctx.error(text.find('\0'), "the file contains a NUL byte; is it a text file?");
  } else if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[bad])));
    ctx.error(bad, std::string("this byte (") + hex + ") is not UTF-8; save the lesson as UTF-8 text");
  } else {
    const std::size_t body = front_matter(ctx, result.lesson);
    result.lesson.intro = parse_blocks(ctx, SourceText::verbatim(text.substr(body), body), Nesting::Document);
    finish_sections(ctx, result.lesson);
    build_model_data(ctx);
    check_references(ctx, result.lesson);
    check_counts(ctx, result.lesson);
  }
  std::stable_sort(ctx.diagnostics.begin(), ctx.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.col < b.pos.col;
  });
  if (ctx.too_many_errors)
    ctx.diagnostics.push_back(
        {ctx.file, ctx.diagnostics.back().pos,
         "more than " + std::to_string(kMaxDiagnostics) + " problems; the rest are not listed (fix these first)"});
  result.diagnostics = std::move(ctx.diagnostics);
  result.sentences = std::move(ctx.sentences);
  return result;
}

}  // namespace neuralpath::lesson
