// parse_context.h (internal): state shared by the Markdown walker and the block builders
// while one lesson file is parsed. Not part of the public API.
#pragma once

#include "engine/lesson/diagnostic.h"
#include "engine/lesson/lesson.h"
#include "engine/lesson/limits.h"
#include "engine/lesson/parser.h"
#include "engine/lesson/settings.h"
#include "engine/lesson/source_text.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson::detail {

struct ParseContext {
  std::string file;
  std::string_view text;  // the whole file
  LineIndex lines;
  std::vector<Diagnostic> diagnostics;
  Lesson* lesson = nullptr;

  // Model data is interpreted after the walk, once features are known (weights may name
  // features declared further down the file).
  std::optional<SettingsNode> vocabulary_settings, weights_settings, trained_weights_settings;
  std::size_t vocabulary_origin = 0, weights_origin = 0, trained_weights_origin = 0;
  std::vector<SentenceRef> sentences;
  struct Ref {
    std::string id;
    std::size_t origin;
  };
  std::vector<Ref> ids;          // every block id, for the duplicate check
  std::vector<Ref> code_refs;    // playback "code:" references
  std::vector<Ref> widget_refs;  // predict "measured: widget:" references
  WidgetBlockParsers widgets;    // the widget kinds this reader knows (parser.h)

  // How deep the block being read sits (lists, quotes, callouts, reveals); see limits.h.
  int block_depth = 0;
  bool too_many_errors = false;  // kMaxDiagnostics reached: later errors are dropped

  void add_sentence(const SourceText& src, std::string widget, std::string query, int max_tokens) {
    SentenceRef ref{src.text(), std::move(widget), std::move(query), max_tokens, {}};
    ref.positions.reserve(src.size());
    // Consecutive bytes of one line are one column apart (or zero, inside a UTF-8
    // character): stepping from the previous byte keeps this linear in the sentence.
    std::size_t previous = kNoOrigin;
    for (std::size_t i = 0; i < src.size(); ++i) {
      const std::size_t o = src.origin(i);
      if (previous != kNoOrigin && o == previous + 1 && o < text.size() && text[previous] != '\n') {
        SourcePos p = ref.positions.back();
        if ((static_cast<unsigned char>(text[previous]) & 0xC0) != 0x80) ++p.col;
        ref.positions.push_back(p);
      } else {
        ref.positions.push_back(pos(o));
      }
      previous = o;
    }
    sentences.push_back(std::move(ref));
  }

  ParseContext(std::string f, std::string_view t) : file(std::move(f)), text(t), lines(t) {}

  SourcePos pos(std::size_t origin) const { return lines.position(origin); }
  void error(std::size_t origin, std::string message) {
    if (diagnostics.size() >= kMaxDiagnostics) {
      too_many_errors = true;
      return;
    }
    diagnostics.push_back({file, pos(origin), std::move(message)});
  }
  void error_at(SourcePos at, std::string message) {
    if (diagnostics.size() >= kMaxDiagnostics) {
      too_many_errors = true;
      return;
    }
    diagnostics.push_back({file, at, std::move(message)});
  }
};

// Where fenced blocks may appear: the document (sections), inside a callout/reveal, or in a
// one-line setting value (no blocks at all).
enum class Nesting { Document, Nested, InlineOnly };

// A fenced block as md4c delivered it.
struct Fence {
  std::string kind;             // first word of the info string
  std::string rest;             // the rest of the info string (trimmed)
  std::size_t kind_origin = 0;  // file offset of the kind word (or of the fence)
  SourceText body;
};

// The Markdown walker (markdown.cpp).
Blocks parse_blocks(ParseContext& ctx, const SourceText& src, Nesting nesting);
Inline parse_inline(ParseContext& ctx, const SourceText& src);  // prose of one setting value

// Fenced blocks (blocks.cpp): appends the block (or reports why not) to `out`.
void build_fenced_block(ParseContext& ctx, const Fence& fence, Nesting nesting, Blocks& out);

// The ```task block (task_block.cpp).
void build_task(ParseContext& ctx, const Fence& fence, Nesting nesting, const SettingsNode& settings,
                const SourceText& text);

// The ```trained-weights block a build appends to a lesson (task_block.cpp): kept like the
// weights block and read after the walk.
void keep_trained_weights(ParseContext& ctx, const Fence& fence, Nesting nesting, SettingsNode settings);
void build_trained_weights(ParseContext& ctx);  // after the vocabulary (model_data.cpp calls it)

// Vocabulary and weights (model_data.cpp), after the walk.
void build_model_data(ParseContext& ctx);
// A weights block's settings as WeightsData (model_data.cpp); `skip` names keys another reader
// takes (the trained-weights block's task and fingerprint).
WeightsData read_weights(ParseContext& ctx, const SettingsNode& node, std::size_t origin, const char* block,
                         const std::vector<std::string_view>& skip = {});

// Code lines with highlighting tokens (code_tokens.cpp).
std::vector<CodeLine> tokenize_code(std::string_view language, std::string_view code);

// [SECTION] Reading settings --------------------------------------------------------------------
// Fields wraps one settings map: take what a block knows, report what it does not.

class Fields {
 public:
  Fields(ParseContext& ctx, const SettingsNode& map, std::string block, std::size_t origin);

  const SettingsNode* get(std::string_view key);  // marks the key as known
  bool has(std::string_view key) const;
  std::size_t key_origin(std::string_view key) const;  // the key, or the block

  std::optional<std::string> text(std::string_view key, bool required);
  std::optional<SourceText> source(std::string_view key, bool required);  // text + origins
  Inline rich(std::string_view key, bool required);                       // inline Markdown
  bool flag(std::string_view key, bool fallback);
  std::optional<long long> integer(std::string_view key, long long fallback, long long min, long long max);
  const SettingsNode* list(std::string_view key, bool required);
  const SettingsNode* map(std::string_view key, bool required);

  void finish();  // unknown keys -> errors (call once, at the end)

  ParseContext& ctx;
  const SettingsNode& node;
  std::string block;   // "check", "heatmap", ... for messages
  std::size_t origin;  // where the block starts (for "missing" errors)

 private:
  std::vector<std::string> known_;
  void missing(std::string_view key);
  // A list or map under `key` (list() and map()); another kind is an error saying "should be <should_be>".
  const SettingsNode* nested(std::string_view key, bool required, SettingsNode::Kind kind, const char* should_be);
};

// What a widget kind's settings parser (WidgetBlockParser, parser.h) reads its block with. The block's id
// and caption are read for it; it reads its own keys from `fields`, and every key it did not
// ask for is reported as unknown once it returns.
struct WidgetFields {
  ParseContext& ctx;
  Fields& fields;
  std::string kind;  // "cost-explorer"

  // The required "sentence:", registered for the lesson checker (vocabulary, the engine run,
  // at most `max_tokens` tokens: what the kind's figure shows; 0, no limit of its own).
  std::string sentence(int max_tokens, const std::string& query = {});
  // "mask: causal|none" -> causal; absent: `otherwise` (a GPT-style block defaults to causal,
  // a view of a whole encoder to none); anything else is an error at the value.
  bool causal_mask(bool otherwise = true);
  // An optional reference to a ```code block's id ("code: sdpa"), checked once the whole
  // lesson is read (no such code block: an error at the value). "" when absent.
  std::string code_ref(std::string_view key);
};

// Helpers shared by builders.
std::optional<bool> parse_flag(std::string_view value);  // yes/no, on/off, true/false
std::optional<long long> parse_integer(std::string_view value);
std::optional<float> parse_number(std::string_view value);
std::string trim(std::string_view s);

}  // namespace neuralpath::lesson::detail
