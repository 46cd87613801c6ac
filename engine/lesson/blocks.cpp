// blocks.cpp: fenced blocks (```check, ```spotlight, ...) from their settings to Blocks.
//
// [SECTION] Helpers        flags, numbers, line lists, Fields
// [SECTION] Dispatch       kind -> builder; "settings --- text" split
// [SECTION] Interaction    check, reveal
// [SECTION] Explanation    callout, equation, code
// [SECTION] Widgets        the kinds the reader passed in (their folders parse them)
#include "engine/lesson/parse_context.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace neuralpath::lesson::detail {

// [SECTION] Helpers -----------------------------------------------------------------------------

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::optional<bool> parse_flag(std::string_view v) {
  if (v == "yes" || v == "on" || v == "true") return true;
  if (v == "no" || v == "off" || v == "false") return false;
  return std::nullopt;
}

std::optional<long long> parse_integer(std::string_view v) {
  long long out = 0;
  if (v.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc{} || p != v.data() + v.size()) return std::nullopt;
  return out;
}

std::optional<float> parse_number(std::string_view v) {
  // strtof accepts "inf", "nan" and hex; a lesson number is plain decimal.
  if (v.empty() || v.size() > 40) return std::nullopt;
  for (char c : v)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
      return std::nullopt;
  const std::string s(v);
  char* end = nullptr;
  const float f = std::strtof(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(f)) return std::nullopt;
  return f;
}

Fields::Fields(ParseContext& c, const SettingsNode& n, std::string b, std::size_t o)
    : ctx(c), node(n), block(std::move(b)), origin(o) {
  known_.push_back("id");
}

bool Fields::has(std::string_view key) const { return node.find(key) != nullptr; }

std::size_t Fields::key_origin(std::string_view key) const {
  for (const auto& e : node.entries)
    if (e.key == key) return e.key_origin;
  return origin;
}

const SettingsNode* Fields::get(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
  return node.find(key);
}

void Fields::missing(std::string_view key) {
  ctx.error(origin, "the " + block + " block needs '" + std::string(key) + ":'");
}

std::optional<SourceText> Fields::source(std::string_view key, bool required) {
  const SettingsNode* v = get(key);
  if (!v || v->kind == SettingsNode::Kind::Empty) {
    if (required) missing(key);
    return std::nullopt;
  }
  if (v->kind != SettingsNode::Kind::Text) {
    ctx.error(v->origin, "'" + std::string(key) + "' should be a text, not " + kind_name(v->kind));
    return std::nullopt;
  }
  if (trim(v->text.text()).empty()) {
    if (required) ctx.error(v->origin, "'" + std::string(key) + "' is empty");
    return std::nullopt;
  }
  return v->text;
}

std::optional<std::string> Fields::text(std::string_view key, bool required) {
  auto s = source(key, required);
  if (!s) return std::nullopt;
  return s->text();
}

Inline Fields::rich(std::string_view key, bool required) {
  auto s = source(key, required);
  if (!s) return {};
  return parse_inline(ctx, *s);
}

bool Fields::flag(std::string_view key, bool fallback) {
  auto s = source(key, false);
  if (!s) return fallback;
  auto f = parse_flag(s->text());
  if (!f) {
    ctx.error(s->origin(0), "'" + std::string(key) + "' should be yes or no, not '" + s->text() + "'");
    return fallback;
  }
  return *f;
}

std::optional<long long> Fields::integer(std::string_view key, long long fallback, long long min, long long max) {
  auto s = source(key, false);
  if (!s) return fallback;
  auto v = parse_integer(s->text());
  if (!v || *v < min || *v > max) {
    ctx.error(s->origin(0), "'" + std::string(key) + "' should be a whole number from " + std::to_string(min) + " to " +
                                std::to_string(max));
    return std::nullopt;
  }
  return v;
}

const SettingsNode* Fields::nested(std::string_view key, bool required, SettingsNode::Kind kind,
                                   const char* should_be) {
  const SettingsNode* v = get(key);
  if (!v || v->kind == SettingsNode::Kind::Empty) {
    if (required) missing(key);
    return nullptr;
  }
  if (v->kind != kind) {
    ctx.error(v->origin, "'" + std::string(key) + "' should be " + should_be + ", not " + kind_name(v->kind));
    return nullptr;
  }
  return v;
}

const SettingsNode* Fields::list(std::string_view key, bool required) {
  return nested(key, required, SettingsNode::Kind::List, "a list");
}

const SettingsNode* Fields::map(std::string_view key, bool required) {
  return nested(key, required, SettingsNode::Kind::Map, "a map of 'key: value' lines");
}

void Fields::finish() {
  if (node.kind != SettingsNode::Kind::Map) return;
  for (const auto& e : node.entries) {
    if (std::find(known_.begin(), known_.end(), e.key) != known_.end()) continue;
    std::string list;
    for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
    ctx.error(e.key_origin, "unknown key '" + e.key + "' in a " + block + " block (known: " + list + ")");
  }
}

namespace {

// "3, 5-7" -> {3, 5, 6, 7}; each number checked against the code's line count.
std::vector<int> line_list(ParseContext& ctx, const SourceText& s, int line_count) {
  std::vector<int> out;
  const std::string& t = s.text();
  std::size_t i = 0;
  while (i < t.size()) {
    std::size_t j = t.find(',', i);
    if (j == std::string::npos) j = t.size();
    std::size_t b = i, e = j;
    while (b < e && t[b] == ' ') ++b;
    while (e > b && t[e - 1] == ' ') --e;
    const std::string part = t.substr(b, e - b);
    const std::size_t dash = part.find('-');
    auto lo = parse_integer(part.substr(0, dash));
    auto hi = dash == std::string::npos ? lo : parse_integer(part.substr(dash + 1));
    if (!lo || !hi || *lo > *hi) {
      ctx.error(s.origin(b), "expected line numbers like '3' or '5-7', not '" + part + "'");
    } else if (*lo < 1 || *hi > line_count) {
      ctx.error(s.origin(b), "line " + std::to_string(*lo < 1 ? *lo : *hi) + " is outside the code (it has " +
                                 std::to_string(line_count) + " lines)");
    } else {
      for (long long k = *lo; k <= *hi; ++k) out.push_back(static_cast<int>(k));
    }
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string WidgetFields::sentence(int max_tokens, const std::string& query) {
  auto s = fields.source("sentence", true);
  if (!s) return {};
  ctx.add_sentence(*s, kind, query, max_tokens);
  return s->text();
}

bool WidgetFields::causal_mask(bool otherwise) {
  auto s = fields.source("mask", false);
  if (!s) return otherwise;
  if (s->text() == "causal") return true;
  if (s->text() == "none") return false;
  ctx.error(s->origin(0), std::string("'mask' should be ") + (otherwise ? "causal or none" : "none or causal") +
                              ", not '" + s->text() + "'");
  return otherwise;
}

std::string WidgetFields::code_ref(std::string_view key) {
  auto s = fields.source(key, false);
  if (!s) return {};
  ctx.code_refs.push_back({s->text(), s->origin(0)});
  return s->text();
}

namespace {

// The widget kind of that name among those the reader passed in (parse_lesson), or nullptr.
const WidgetBlockParser* widget_kind(const ParseContext& ctx, std::string_view kind) {
  for (const WidgetBlockParser& k : ctx.widgets)
    if (kind == k.name) return &k;
  return nullptr;
}

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return true;
}

// [SECTION] Dispatch ----------------------------------------------------------------------------

const char* const kKinds[] = {"check", "predict",    "reveal",  "callout", "equation",
                              "code",  "vocabulary", "weights", "task",    "trained-weights"};

bool takes_text(std::string_view kind) {
  return kind == "callout" || kind == "reveal" || kind == "code" || kind == "equation" || kind == "task";
}

// Splits "settings --- text" at the first line that is exactly "---".
void split_body(const SourceText& body, SourceText& settings, SourceText& text) {
  const std::string& s = body.text();
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t nl = s.find('\n', pos);
    if (nl == std::string::npos) nl = s.size();
    std::string line = s.substr(pos, nl - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line == "---") {
      settings = body.slice(0, pos);
      text = body.slice(std::min(nl + 1, s.size()), s.size());
      return;
    }
    if (nl == s.size()) break;
    pos = nl + 1;
  }
  settings = SourceText{};
  text = body;
}

struct Builder {
  ParseContext& ctx;
  const Fence& fence;
  Nesting nesting;
  Blocks& out;
  SettingsNode settings;
  SourceText text;  // blocks that take text: what follows "---"
  std::size_t id_origin = 0;

  std::size_t origin() const { return fence.kind_origin; }

  void push(std::string id, BlockContent content) {
    if (!id.empty()) ctx.ids.push_back({id, id_origin});
    out.push_back(Block{ctx.pos(origin()), std::move(id), std::move(content)});
  }

  // The Markdown after "---" in a reveal or callout: one nesting level deeper (limits.h).
  Blocks nested_blocks() {
    if (ctx.block_depth + 1 > kMaxBlockNesting) {
      ctx.error(origin(), "lists, quotes, callouts and reveals nest more than " + std::to_string(kMaxBlockNesting) +
                              " levels deep here");
      return {};
    }
    ++ctx.block_depth;
    Blocks blocks = parse_blocks(ctx, text, Nesting::Nested);
    --ctx.block_depth;
    return blocks;
  }

  std::string id(Fields& f, bool required) {
    auto v = f.source("id", false);
    if (!v) {
      if (required)
        ctx.error(origin(), "the " + f.block +
                                " block needs 'id:' (a short name such as "
                                "why-minus-infinity) so the learner's progress can refer to it");
      return {};
    }
    id_origin = v->origin(0);
    if (!valid_id(v->text())) {
      ctx.error(v->origin(0), "an id uses letters, digits, '-' and '_' only, not '" + v->text() + "'");
      return {};
    }
    return v->text();
  }

  // [SECTION] Interaction -----------------------------------------------------------------------

  // ```check, and ```predict (predict-then-reveal): one answer, an explanation shown with it,
  // and optionally a value the engine measured, read from a widget of the lesson.
  void check(bool predict = false) {
    const char* kind = predict ? "predict" : "check";
    Fields f(ctx, settings, kind, origin());
    Check c;
    c.predict = predict;
    std::string block_id = id(f, true);
    c.question = f.rich("question", true);
    if (predict) {
      c.explanation = f.rich("explanation", false);
      if (const SettingsNode* m = f.map("measured", false)) {
        Fields mf(ctx, *m, "measured", f.key_origin("measured"));
        MeasuredValue v;
        if (auto w = mf.source("widget", true)) {
          v.widget = w->text();
          ctx.widget_refs.push_back({v.widget, w->origin(0)});
        }
        if (auto value = mf.source("value", true)) {
          v.pointer = value->text();
          if (v.pointer.empty() || v.pointer.front() != '/')
            ctx.error(value->origin(0),
                      "'value' is a path into the widget's state that starts "
                      "with '/', such as /training/bigram_loss");
        }
        v.label = mf.rich("label", true);
        mf.finish();
        c.measured = std::move(v);
      }
    } else {
      c.hint = f.rich("hint", false);
    }
    if (auto answer = predict ? std::nullopt : f.source("answer", false)) {
      if (answer->text() == "multiple")
        c.multiple = true;
      else if (answer->text() != "single")
        ctx.error(answer->origin(0), "'answer' should be single or multiple, not '" + answer->text() + "'");
    }
    const SettingsNode* options = f.list("options", true);
    if (options) {
      for (const auto& item : options->items) {
        if (item.kind != SettingsNode::Kind::Map) {
          ctx.error(item.origin,
                    "each option is a map with 'text:', 'feedback:' and "
                    "optionally 'correct: yes'");
          continue;
        }
        Fields of(ctx, item, "option", item.origin);
        CheckOption o;
        o.text = of.rich("text", true);
        o.correct = of.flag("correct", false);
        o.feedback = of.rich("feedback", true);
        of.finish();
        c.options.push_back(std::move(o));
      }
      const std::size_t at = f.key_origin("options");
      const auto correct =
          std::count_if(c.options.begin(), c.options.end(), [](const CheckOption& o) { return o.correct; });
      if (options->items.size() < 2) ctx.error(at, std::string("a ") + kind + " needs at least two options");
      if (correct == 0)
        ctx.error(at, std::string("this ") + kind + " has no correct option; mark one with 'correct: yes'");
      else if (correct > 1 && predict)
        ctx.error(at, "a predict block has one correct option; it has " + std::to_string(correct));
      else if (correct > 1 && !c.multiple)
        ctx.error(at,
                  "this check has " + std::to_string(correct) + " correct options; add 'answer: multiple' or keep one");
    }
    f.finish();
    push(std::move(block_id), std::move(c));
  }

  void reveal() {
    Fields f(ctx, settings, "reveal", origin());
    Reveal r;
    std::string block_id = id(f, true);
    r.label = f.rich("label", true);
    f.finish();
    r.blocks = nested_blocks();
    if (r.blocks.empty() && ctx.block_depth < kMaxBlockNesting)
      ctx.error(origin(),
                "the reveal block has nothing to reveal: write "
                "its text after a '---' line");
    push(std::move(block_id), std::move(r));
  }

  // [SECTION] Explanation -----------------------------------------------------------------------

  void callout() {
    Fields f(ctx, settings, "callout", origin());
    Callout c;
    std::string block_id = id(f, false);
    if (auto kind = f.source("kind", true)) {
      if (kind->text() == "tip")
        c.kind = Callout::Kind::Tip;
      else if (kind->text() == "mistake")
        c.kind = Callout::Kind::Mistake;
      else if (kind->text() == "note")
        c.kind = Callout::Kind::Note;
      else
        ctx.error(kind->origin(0), "'kind' should be tip, mistake or note, not '" + kind->text() + "'");
    }
    c.title = f.rich("title", false);
    f.finish();
    c.blocks = nested_blocks();
    if (c.blocks.empty() && c.title.empty() && ctx.block_depth < kMaxBlockNesting)
      ctx.error(origin(), "the callout block is empty: write its text after a '---' line");
    push(std::move(block_id), std::move(c));
  }

  void equation() {
    Fields f(ctx, settings, "equation", origin());
    EquationBlock e;
    std::string block_id = id(f, false);
    e.caption = f.rich("caption", false);
    f.finish();
    const SourceText latex = text.trimmed();
    e.latex = latex.text();
    if (latex.empty()) {
      ctx.error(origin(), "the equation block is empty");
      return;
    }
    EquationParse parsed = parse_equation(latex.text());
    for (const auto& err : parsed.errors) ctx.error(latex.origin(err.offset), err.message);
    if (!parsed.root) return;
    e.root = std::move(*parsed.root);
    push(std::move(block_id), std::move(e));
  }

  void code() {
    Fields f(ctx, settings, "code", origin());
    CodeBlock c;
    std::string block_id = id(f, false);
    c.language = f.text("language", true).value_or("text");
    c.file = f.text("file", false).value_or("");
    c.caption = f.rich("caption", false);
    std::string code = text.text();
    if (!code.empty() && code.back() == '\n') code.pop_back();
    c.lines = tokenize_code(c.language, code);
    const int n = static_cast<int>(c.lines.size());
    if (code.empty()) ctx.error(origin(), "the code block has no code: write it after a '---' line");
    if (auto h = f.source("highlight", false)) c.highlight = line_list(ctx, *h, n);
    if (const SettingsNode* steps = f.map("steps", false)) {
      for (const auto& e : steps->entries) {
        if (!is_playback_step(e.key)) {
          ctx.error(e.key_origin, "unknown playback step '" + e.key + "'");
          continue;
        }
        if (e.value.kind != SettingsNode::Kind::Text) {
          ctx.error(e.value.origin, "step '" + e.key + "' needs line numbers like 9 or 9-11");
          continue;
        }
        c.steps.push_back({e.key, line_list(ctx, e.value.text, n)});
      }
    }
    f.finish();
    push(std::move(block_id), std::move(c));
  }

  // [SECTION] Widgets ---------------------------------------------------------------------------

  // A widget kind the reader passed in: its own parser reads its keys; id and caption are read here.
  void widget(const WidgetBlockParser& kind) {
    Fields f(ctx, settings, std::string(kind.name), origin());
    std::string block_id = id(f, false);
    WidgetFields fields{ctx, f, std::string(kind.name)};
    WidgetBlock w;
    w.kind = std::string(kind.name);
    w.settings = kind.parse(fields);
    w.caption = f.rich("caption", false);
    f.finish();
    if (!w.settings) return;  // the parser reported why
    push(std::move(block_id), std::move(w));
  }
};

}  // namespace

void build_fenced_block(ParseContext& ctx, const Fence& fence, Nesting nesting, Blocks& out) {
  const std::string& kind = fence.kind;
  if (kind.empty()) {
    ctx.error(fence.kind_origin,
              "a fenced block needs a kind after the backticks, e.g. "
              "```check; for source code use ```code");
    return;
  }
  if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds) && !widget_kind(ctx, kind)) {
    std::string list;
    for (const char* k : kKinds) list += (list.empty() ? "" : ", ") + std::string(k);
    for (const WidgetBlockParser& k : ctx.widgets) list += ", " + std::string(k.name);
    ctx.error(fence.kind_origin, "unknown block '" + kind + "' (known: " + list + ")");
    return;
  }
  if (!fence.rest.empty()) {
    ctx.error(fence.kind_origin + kind.size() + 1, "write settings inside the block, not after '```" + kind + "'");
  }

  Builder b{ctx, fence, nesting, out, {}, {}, 0};
  SourceText settings_text;
  if (takes_text(kind))
    split_body(fence.body, settings_text, b.text);
  else
    settings_text = fence.body;
  if (kind == "task" && settings_text.empty()) std::swap(settings_text, b.text);  // no corpus

  std::vector<SettingsError> errors;
  b.settings = parse_settings(settings_text, errors);
  for (auto& e : errors) ctx.error(e.origin, e.message);
  if (b.settings.kind != SettingsNode::Kind::Map) {
    ctx.error(b.settings.origin, "a block's settings are 'key: value' lines, not a list");
    return;
  }

  if (kind == "vocabulary" || kind == "weights") {
    if (nesting != Nesting::Document) {
      ctx.error(fence.kind_origin, "the " + kind + " block belongs at the top level of the lesson");
      return;
    }
    auto& slot = kind == "vocabulary" ? ctx.vocabulary_settings : ctx.weights_settings;
    if (slot) {
      ctx.error(fence.kind_origin, "a lesson has at most one " + kind + " block");
      return;
    }
    slot = std::move(b.settings);
    (kind == "vocabulary" ? ctx.vocabulary_origin : ctx.weights_origin) = fence.kind_origin;
    return;
  }
  if (kind == "task")
    build_task(ctx, fence, nesting, b.settings, b.text);  // task_block.cpp
  else if (kind == "trained-weights")
    keep_trained_weights(ctx, fence, nesting, std::move(b.settings));  // task_block.cpp
  else if (kind == "check")
    b.check();
  else if (kind == "predict")
    b.check(true);
  else if (kind == "reveal")
    b.reveal();
  else if (kind == "callout")
    b.callout();
  else if (kind == "equation")
    b.equation();
  else if (kind == "code")
    b.code();
  else if (const WidgetBlockParser* widget = widget_kind(ctx, kind))
    b.widget(*widget);
}

}  // namespace neuralpath::lesson::detail
