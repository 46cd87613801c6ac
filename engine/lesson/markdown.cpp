// markdown.cpp: md4c's callbacks turned into Blocks and Spans.
//
// md4c does all CommonMark parsing; this file only listens. md4c's text pointers point into
// the buffer it was given, so pointer - buffer start is an offset in our SourceText, which
// maps back to a file line and column for every message.
//
// [SECTION] Walker state
// [SECTION] Inline text     spans, styles, entities, $maths$
// [SECTION] Blocks          paragraphs, headings, lists, quotes, tables, fenced blocks
// [SECTION] Entry points
#include "engine/lesson/parse_context.h"

#include <md4c.h>

#include <cstring>
#include <exception>

namespace neuralpath::lesson::detail {

namespace {

Span line_break() {
  Span s;
  s.kind = Span::Kind::Break;
  s.text = "\n";
  return s;
}

// [SECTION] Walker state ------------------------------------------------------------------------

struct Frame {
  enum class Type { Root, List, Item, Quote, Table, Row };
  Type type;
  Blocks* blocks = nullptr;  // where child blocks go (Root, Item, Quote)
  ListBlock* list = nullptr;
  Table* table = nullptr;
};

class Walker {
 public:
  Walker(ParseContext& ctx, const SourceText& src, Nesting nesting, Blocks& root)
      : ctx_(ctx), src_(src), nesting_(nesting) {
    frames_.push_back({Frame::Type::Root, &root});
  }

  // False when md4c stopped early (an md4c failure, not a problem in the text). An exception
  // thrown in a callback (std::bad_alloc) must not unwind through md4c's C frames, which have
  // no unwind tables natively: it is caught there, md4c is told to stop, and it is rethrown
  // here.
  bool run() {
    MD_PARSER parser{};
    parser.abi_version = 0;
    // CommonMark plus tables, strikethrough and $maths$. No raw HTML (it would be shown
    // as text) and no indented code (an indented line should not silently turn into code).
    parser.flags =
        MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_LATEXMATHSPANS | MD_FLAG_NOHTML | MD_FLAG_NOINDENTEDCODEBLOCKS;
    parser.enter_block = [](MD_BLOCKTYPE t, void* d, void* u) {
      return static_cast<Walker*>(u)->guarded([&](Walker& w) { return w.enter_block(t, d); });
    };
    parser.leave_block = [](MD_BLOCKTYPE t, void* d, void* u) {
      return static_cast<Walker*>(u)->guarded([&](Walker& w) { return w.leave_block(t, d); });
    };
    parser.enter_span = [](MD_SPANTYPE t, void* d, void* u) {
      return static_cast<Walker*>(u)->guarded([&](Walker& w) { return w.enter_span(t, d); });
    };
    parser.leave_span = [](MD_SPANTYPE t, void* d, void* u) {
      return static_cast<Walker*>(u)->guarded([&](Walker& w) { return w.leave_span(t, d); });
    };
    parser.text = [](MD_TEXTTYPE t, const MD_CHAR* s, MD_SIZE n, void* u) {
      return static_cast<Walker*>(u)->guarded([&](Walker& w) { return w.text(t, s, n); });
    };
    const std::string& s = src_.text();
    const int rc = md_parse(s.data(), static_cast<MD_SIZE>(s.size()), &parser, this);
    if (failure_) std::rethrow_exception(failure_);
    if (too_deep_.pending) report_too_deep(last_origin_);
    return rc == 0;
  }

  // Document mode: a "## heading" starts a new section; the walker then writes into it.
  std::function<Blocks*(Inline, std::size_t)> on_section;

 private:
  ParseContext& ctx_;
  const SourceText& src_;
  Nesting nesting_;
  std::vector<Frame> frames_;

  // Inline collection (paragraph, heading, table cell, tight list item).
  Inline buffer_;  // the spans being collected
  enum class Owner { None, Paragraph, Heading, Cell, Implicit } owner_ = Owner::None;
  int heading_level_ = 0;
  std::size_t inline_origin_ = kNoOrigin;  // where the collected text starts
  int bold_ = 0, italic_ = 0, strike_ = 0, code_ = 0;
  std::vector<std::string> links_;
  bool in_math_ = false;
  SourceText math_;

  // Nesting (limits.h): lists and quotes open in this walk. A container that would go past
  // kMaxBlockNesting is reported once and everything inside it is skipped.
  int containers_ = 0;
  struct {
    int skipping = 0;
    bool pending = false;
  } too_deep_;  // open blocks being skipped
  std::exception_ptr failure_;

  template <class F>
  int guarded(F&& callback) {
    try {
      return callback(*this);
    } catch (...) {
      failure_ = std::current_exception();
      return 1;  // md4c stops and returns 1
    }
  }

  void report_too_deep(std::size_t origin) {
    too_deep_.pending = false;
    ctx_.error(origin, "lists, quotes, callouts and reveals nest more than " + std::to_string(kMaxBlockNesting) +
                           " levels deep here");
  }

  // Fenced code.
  bool in_fence_ = false;
  Fence fence_;
  std::size_t last_origin_ = 0;  // the last file offset seen (for positions of blocks
                                 // that carry no text of their own)

  Blocks& blocks() {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
      if (it->blocks) return *it->blocks;
    return *frames_.front().blocks;
  }

  std::size_t origin_of(const MD_CHAR* p) const {
    const char* begin = src_.text().data();
    if (p >= begin && p <= begin + src_.size()) return src_.origin(static_cast<std::size_t>(p - begin));
    return kNoOrigin;
  }

  Block& push_block(BlockContent content, std::size_t origin) {
    auto& out = blocks();
    out.push_back(Block{ctx_.pos(origin == kNoOrigin ? last_origin_ : origin), {}, std::move(content)});
    return out.back();
  }

  // [SECTION] Inline text -----------------------------------------------------------------------

  void begin_inline(Owner owner) {
    owner_ = owner;
    buffer_.clear();
    inline_origin_ = kNoOrigin;
    bold_ = italic_ = strike_ = code_ = 0;
    links_.clear();
  }

  Span style() const {
    Span s;
    s.bold = bold_ > 0;
    s.italic = italic_ > 0;
    s.strike = strike_ > 0;
    if (!links_.empty()) s.link = links_.back();
    return s;
  }

  void add_text(Span::Kind kind, std::string_view text) {
    Span s = style();
    s.kind = kind;
    if (!buffer_.empty()) {
      Span& last = buffer_.back();
      if (last.kind == kind && kind != Span::Kind::Math && kind != Span::Kind::Break && last.bold == s.bold &&
          last.italic == s.italic && last.strike == s.strike && last.link == s.link) {
        last.text += text;
        return;
      }
    }
    s.text = std::string(text);
    buffer_.push_back(std::move(s));
  }

  static std::string utf8(unsigned cp) {
    std::string out;
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
  }

  // The few named entities prose needs; numeric ones in full. Unknown ones stay as written.
  static std::string entity(std::string_view e) {
    if (e.size() > 3 && e[1] == '#') {
      const bool hex = e[2] == 'x' || e[2] == 'X';
      const std::string digits(e.substr(hex ? 3 : 2, e.size() - (hex ? 4 : 3)));
      char* end = nullptr;
      const unsigned long cp = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      return utf8(static_cast<unsigned>(std::min(cp, 0x110000ul)));
    }
    static const std::pair<const char*, const char*> named[] = {
        {"&amp;", "&"},   {"&lt;", "<"},    {"&gt;", ">"},     {"&quot;", "\""}, {"&apos;", "'"}, {"&nbsp;", "\u00A0"},
        {"&times;", "×"}, {"&minus;", "−"}, {"&infin;", "∞"},  {"&rarr;", "→"},  {"&larr;", "←"}, {"&hellip;", "…"},
        {"&mdash;", "—"}, {"&ndash;", "–"}, {"&middot;", "·"}, {"&radic;", "√"}, {"&le;", "≤"},   {"&ge;", "≥"}};
    for (const auto& [name, value] : named)
      if (e == name) return value;
    return std::string(e);
  }

  int text(MD_TEXTTYPE type, const MD_CHAR* p, MD_SIZE n) {
    const std::string_view t(p, n);
    const std::size_t origin = origin_of(p);
    if (origin != kNoOrigin) last_origin_ = origin;
    if (too_deep_.skipping) {
      if (too_deep_.pending && origin != kNoOrigin) report_too_deep(origin);
      return 0;
    }
    if (in_fence_) {
      fence_.body.append(t, origin);
      return 0;
    }
    if (in_math_) {
      math_.append(t, origin);
      return 0;
    }
    if (owner_ == Owner::None) begin_implicit_paragraph();
    if (inline_origin_ == kNoOrigin) inline_origin_ = origin;
    switch (type) {
      case MD_TEXT_NULLCHAR: add_text(Span::Kind::Text, "\uFFFD"); break;
      case MD_TEXT_BR: buffer_.push_back(line_break()); break;
      case MD_TEXT_SOFTBR: add_text(code_ ? Span::Kind::Code : Span::Kind::Text, " "); break;
      case MD_TEXT_ENTITY: add_text(Span::Kind::Text, entity(t)); break;
      case MD_TEXT_CODE: add_text(Span::Kind::Code, t); break;
      default: add_text(Span::Kind::Text, t); break;
    }
    return 0;
  }

  int enter_span(MD_SPANTYPE type, void* detail) {
    if (too_deep_.skipping) return 0;
    if (owner_ == Owner::None) begin_implicit_paragraph();
    switch (type) {
      case MD_SPAN_EM: ++italic_; break;
      case MD_SPAN_STRONG: ++bold_; break;
      case MD_SPAN_DEL: ++strike_; break;
      case MD_SPAN_CODE: ++code_; break;
      case MD_SPAN_A: {
        const auto* a = static_cast<MD_SPAN_A_DETAIL*>(detail);
        links_.emplace_back(a->href.text ? std::string(a->href.text, a->href.size) : "");
        break;
      }
      case MD_SPAN_IMG: ctx_.error(last_origin_, "images are not supported in lessons; use a widget block"); break;
      case MD_SPAN_LATEXMATH:
      case MD_SPAN_LATEXMATH_DISPLAY:
        in_math_ = true;
        math_ = SourceText{};
        break;
      default: break;
    }
    return 0;
  }

  int leave_span(MD_SPANTYPE type, void*) {
    if (too_deep_.skipping) return 0;
    switch (type) {
      case MD_SPAN_EM: --italic_; break;
      case MD_SPAN_STRONG: --bold_; break;
      case MD_SPAN_DEL: --strike_; break;
      case MD_SPAN_CODE: --code_; break;
      case MD_SPAN_A:
        if (!links_.empty()) links_.pop_back();
        break;
      case MD_SPAN_LATEXMATH:
      case MD_SPAN_LATEXMATH_DISPLAY: {
        in_math_ = false;
        if (inline_origin_ == kNoOrigin && !math_.empty()) inline_origin_ = math_.origin(0);
        Span s = style();
        s.kind = Span::Kind::Math;
        s.text = math_.text();
        EquationParse parsed = parse_equation(math_.text());
        for (const auto& e : parsed.errors)
          ctx_.error(math_.empty() ? last_origin_ : math_.origin(e.offset), e.message);
        if (parsed.root) s.math = std::move(*parsed.root);
        buffer_.push_back(std::move(s));
        break;
      }
      default: break;
    }
    return 0;
  }

  // Tight list items carry text without a paragraph block around it.
  void begin_implicit_paragraph() { begin_inline(Owner::Implicit); }

  void end_implicit_paragraph() {
    if (owner_ != Owner::Implicit) return;
    owner_ = Owner::None;
    if (!buffer_.empty()) push_block(Paragraph{std::move(buffer_)}, inline_origin_);
    buffer_.clear();
  }

  // [SECTION] Blocks ----------------------------------------------------------------------------

  int enter_block(MD_BLOCKTYPE type, void* detail) {
    if (too_deep_.skipping) {
      ++too_deep_.skipping;
      return 0;
    }
    if (type == MD_BLOCK_UL || type == MD_BLOCK_OL || type == MD_BLOCK_QUOTE) {
      if (ctx_.block_depth + containers_ >= kMaxBlockNesting) {
        end_implicit_paragraph();
        too_deep_ = {1, true};  // reported at the first text inside
        return 0;
      }
      ++containers_;
    }
    end_implicit_paragraph();
    switch (type) {
      case MD_BLOCK_DOC: break;
      case MD_BLOCK_P:
        if (frames_.back().type == Frame::Type::Table) break;
        begin_inline(Owner::Paragraph);
        break;
      case MD_BLOCK_H:
        heading_level_ = static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
        begin_inline(Owner::Heading);
        break;
      case MD_BLOCK_UL:
      case MD_BLOCK_OL: {
        ListBlock list;
        if (type == MD_BLOCK_OL) {
          list.ordered = true;
          list.start = static_cast<int>(static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start);
        }
        Block& b = push_block(std::move(list), kNoOrigin);
        frames_.push_back({Frame::Type::List, nullptr, &std::get<ListBlock>(b.content)});
        break;
      }
      case MD_BLOCK_LI: {
        ListBlock* list = frames_.back().list;
        list->items.emplace_back();
        frames_.push_back({Frame::Type::Item, &list->items.back()});
        break;
      }
      case MD_BLOCK_QUOTE: {
        Block& b = push_block(Quote{}, kNoOrigin);
        frames_.push_back({Frame::Type::Quote, &std::get<Quote>(b.content).blocks});
        break;
      }
      case MD_BLOCK_HR: push_block(Rule{}, kNoOrigin); break;
      case MD_BLOCK_CODE: {
        const auto* d = static_cast<MD_BLOCK_CODE_DETAIL*>(detail);
        in_fence_ = true;
        fence_ = Fence{};
        fence_.kind_origin = kNoOrigin;
        if (d->info.text && d->info.size) {
          const std::string info(d->info.text, d->info.size);
          const std::size_t sp = info.find_first_of(" \t");
          fence_.kind = info.substr(0, sp);
          fence_.rest = sp == std::string::npos ? "" : trim(info.substr(sp));
          fence_.kind_origin = origin_of(d->info.text);
        }
        break;
      }
      case MD_BLOCK_HTML: break;  // never: MD_FLAG_NOHTML
      case MD_BLOCK_TABLE: {
        const auto* d = static_cast<MD_BLOCK_TABLE_DETAIL*>(detail);
        Table t;
        t.align.assign(d->col_count, Table::Align::Default);
        Block& b = push_block(std::move(t), kNoOrigin);
        frames_.push_back({Frame::Type::Table, nullptr, nullptr, &std::get<Table>(b.content)});
        break;
      }
      case MD_BLOCK_THEAD: in_thead_ = true; break;
      case MD_BLOCK_TBODY: break;
      case MD_BLOCK_TR: {
        Table* t = frames_.back().table;
        if (!in_thead_) t->rows.emplace_back();
        frames_.push_back({Frame::Type::Row, nullptr, nullptr, t});
        break;
      }
      case MD_BLOCK_TH:
      case MD_BLOCK_TD: {
        const auto* d = static_cast<MD_BLOCK_TD_DETAIL*>(detail);
        Table* t = frames_.back().table;
        const std::size_t col = in_thead_ ? t->header.size() : t->rows.back().size();
        if (col < t->align.size()) t->align[col] = static_cast<Table::Align>(static_cast<int>(d->align));
        begin_inline(Owner::Cell);
        break;
      }
    }
    return 0;
  }

  bool in_thead_ = false;

  int leave_block(MD_BLOCKTYPE type, void*) {
    if (too_deep_.skipping) {
      if (--too_deep_.skipping == 0 && too_deep_.pending) report_too_deep(last_origin_);
      return 0;
    }
    if (type == MD_BLOCK_UL || type == MD_BLOCK_OL || type == MD_BLOCK_QUOTE) --containers_;
    end_implicit_paragraph();
    switch (type) {
      case MD_BLOCK_P:
        if (owner_ == Owner::Paragraph) {
          owner_ = Owner::None;
          if (!buffer_.empty()) push_block(Paragraph{std::move(buffer_)}, inline_origin_);
        }
        break;
      case MD_BLOCK_H: leave_heading(); break;
      case MD_BLOCK_UL:
      case MD_BLOCK_OL:
      case MD_BLOCK_LI:
      case MD_BLOCK_QUOTE:
      case MD_BLOCK_TABLE: frames_.pop_back(); break;
      case MD_BLOCK_TR: frames_.pop_back(); break;
      case MD_BLOCK_TH:
      case MD_BLOCK_TD: {
        owner_ = Owner::None;
        Table* t = frames_.back().table;
        if (in_thead_)
          t->header.push_back(std::move(buffer_));
        else
          t->rows.back().push_back(std::move(buffer_));
        buffer_.clear();
        break;
      }
      case MD_BLOCK_THEAD: in_thead_ = false; break;
      case MD_BLOCK_CODE: leave_fence(); break;
      default: break;
    }
    return 0;
  }

  void leave_heading() {
    owner_ = Owner::None;
    Inline text = std::move(buffer_);
    buffer_.clear();
    const std::size_t origin = inline_origin_ == kNoOrigin ? last_origin_ : inline_origin_;
    if (heading_level_ <= 2 && nesting_ != Nesting::Document) {
      ctx_.error(origin, "a section heading cannot appear inside a block; use ### or bold text");
      return;
    }
    if (heading_level_ == 1) {
      ctx_.error(origin,
                 "a '#' heading is not allowed: the lesson title comes from the "
                 "front matter and sections start with '##'");
      return;
    }
    if (heading_level_ == 2) {
      if (frames_.size() > 1) {
        ctx_.error(origin,
                   "a section ('##') must start at the top level, not inside a "
                   "list or quote");
        return;
      }
      frames_.front().blocks = on_section(std::move(text), origin);
      return;
    }
    if (nesting_ == Nesting::InlineOnly) {
      ctx_.error(origin, "only inline text is allowed here");
      return;
    }
    push_block(Heading{heading_level_, std::move(text)}, origin);
  }

  // Where the fence line starts when md4c gave no info string pointer: the line above the
  // first body line, or the last position seen.
  std::size_t fence_origin() const {
    if (fence_.kind_origin != kNoOrigin) return fence_.kind_origin;
    if (!fence_.body.empty()) {
      std::size_t body = fence_.body.origin(0);
      std::size_t line_start = ctx_.text.rfind('\n', body == 0 ? 0 : body - 1);
      if (line_start != std::string_view::npos && line_start > 0) {
        std::size_t prev = ctx_.text.rfind('\n', line_start - 1);
        prev = prev == std::string_view::npos ? 0 : prev + 1;
        std::size_t mark = ctx_.text.find_first_of("`~", prev);
        return mark < line_start ? mark : prev;
      }
    }
    return last_origin_;
  }

  void leave_fence() {
    in_fence_ = false;
    fence_.kind_origin = fence_origin();
    if (nesting_ == Nesting::InlineOnly) {
      ctx_.error(fence_.kind_origin, "a fenced block is not allowed here, only inline text");
      return;
    }
    // Blocks inside a fenced block (a reveal's text) sit below this walk's lists and quotes.
    ctx_.block_depth += containers_;
    build_fenced_block(ctx_, fence_, nesting_, blocks());
    ctx_.block_depth -= containers_;
  }

 public:
  Inline take_inline_result(Blocks& blocks_out) {
    // For InlineOnly: paragraphs joined by line breaks; anything else reported.
    Inline out;
    for (auto& b : blocks_out) {
      if (auto* p = std::get_if<Paragraph>(&b.content)) {
        if (!out.empty()) out.push_back(line_break());
        for (auto& s : p->text) out.push_back(std::move(s));
      } else {
        ctx_.error(src_.empty() ? 0 : src_.origin(0),
                   "only inline text is allowed here (bold, italic, `code`, links, $maths$)");
        break;
      }
    }
    return out;
  }
};

}  // namespace

// [SECTION] Entry points ------------------------------------------------------------------------

Blocks parse_blocks(ParseContext& ctx, const SourceText& src, Nesting nesting) {
  Blocks root;
  Walker w(ctx, src, nesting, root);
  if (nesting == Nesting::Document) {
    w.on_section = [&ctx](Inline title, std::size_t origin) -> Blocks* {
      Section s;
      s.pos = ctx.pos(origin);
      s.title_spans = std::move(title);
      ctx.lesson->sections.push_back(std::move(s));
      return &ctx.lesson->sections.back().blocks;
    };
  }
  if (!w.run()) ctx.error(src.empty() ? 0 : src.origin(0), "the Markdown parser stopped early");
  return root;
}

Inline parse_inline(ParseContext& ctx, const SourceText& src) {
  Blocks blocks;
  Walker w(ctx, src, Nesting::InlineOnly, blocks);
  w.run();
  return w.take_inline_result(blocks);
}

}  // namespace neuralpath::lesson::detail
