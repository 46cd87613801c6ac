// lesson.h: a lesson as data — everything a view needs to draw it, nothing about drawing.
//
//   Lesson                 front matter + intro blocks + sections (the table of contents)
//   └─ Section             "## Beginner: Title" -> level, title, anchor, blocks
//      └─ Block            source position, optional id, and one of the contents below
//           prose          Paragraph, Heading, ListBlock, Quote, Rule, Table
//           interaction    Check, Reveal
//           explanation    Callout, EquationBlock, CodeBlock
//           widgets        WidgetBlock (a kind the reader passed in, parser.h: spotlight,
//                          heatmap, ..., playback; engine/widgets/ holds them)
//   VocabularyData         named feature dimensions and word vectors   (```vocabulary)
//   WeightsData            the matrices the engine runs the lesson with (```weights)
//
// Prose is a list of Spans (flat, each with its own style) so a view draws it left to right
// without walking a tree. Equations are EqNode trees (equation.h).
// The format authors write is documented in docs/lesson-format.md.
#pragma once

#include "engine/lesson/diagnostic.h"
#include "engine/lesson/equation.h"
#include "engine/lesson/task.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace neuralpath {
struct ModelSpec;  // engine/core/model.h
}

namespace neuralpath::lesson {

struct Lesson;

enum class Level { None, Beginner, Medium, Advanced };
const char* level_name(Level level);                      // "Beginner", ... ("" for None)
std::optional<Level> parse_level(std::string_view name);  // exact, case-sensitive

// [SECTION] Inline text -------------------------------------------------------------------------

struct Span {
  enum class Kind { Text, Code, Math, Break };
  Kind kind = Kind::Text;
  std::string text;  // Text, Code: the characters; Math: the LaTeX source
  bool bold = false;
  bool italic = false;
  bool strike = false;
  std::string link;  // the target when this span is (part of) a link
  EqNode math;       // Math: the tree to typeset
};
using Inline = std::vector<Span>;

std::string plain_text(const Inline& text);  // for narration, the DOM mirror and tests

// [SECTION] Prose blocks ------------------------------------------------------------------------

struct Block;
using Blocks = std::vector<Block>;

struct Paragraph {
  Inline text;
};
struct Heading {
  int level = 3;
  Inline text;
};  // ### … ###### inside a section
struct ListBlock {
  bool ordered = false;
  int start = 1;
  std::vector<Blocks> items;
};
struct Quote {
  Blocks blocks;
};
struct Rule {};
struct Table {
  enum class Align { Default, Left, Center, Right };
  std::vector<Align> align;    // one per column
  std::vector<Inline> header;  // one per column
  std::vector<std::vector<Inline>> rows;
};

// [SECTION] Interaction -------------------------------------------------------------------------

struct CheckOption {
  Inline text;
  bool correct = false;
  Inline feedback;  // shown when the learner picks this option
};

// A predict block's number from the engine: a value in one widget's state(), shown with the
// answer once the learner has committed a guess (docs/lesson-format.md, "predict").
struct MeasuredValue {
  std::string widget;   // the widget block's id
  std::string pointer;  // a JSON pointer into its state(), e.g. /training/bigram_loss
  Inline label;         // what the number is, shown before it
};

struct Check {  // a knowledge check; its Block id keys the answer
  Inline question;
  bool multiple = false;  // several correct options: learner picks all
  std::vector<CheckOption> options;
  Inline hint;  // may be empty
  // ```predict: predict-then-reveal. One guess, committed before anything is shown; then the
  // answer, the explanation and the engine's measured value appear, and the guess stays.
  bool predict = false;
  Inline explanation;                     // predict: shown with the answer (may be empty)
  std::optional<MeasuredValue> measured;  // predict: the engine's number (optional)
};

struct Reveal {  // hidden content opened on click; Block id keys it
  Inline label;  // the button text
  Blocks blocks;
};

// [SECTION] Explanation -------------------------------------------------------------------------

struct Callout {
  enum class Kind { Tip, Mistake, Note };
  Kind kind = Kind::Tip;
  Inline title;  // may be empty
  Blocks blocks;
};

struct EquationBlock {
  std::string latex;
  EqNode root;
  Inline caption;  // may be empty
};

struct CodeToken {
  enum class Kind { Plain, Keyword, Builtin, String, Number, Comment, Operator };
  int begin = 0, end = 0;  // byte range in the line
  Kind kind = Kind::Plain;
};

struct CodeLine {
  std::string text;
  std::vector<CodeToken> tokens;  // cover the whole line, in order
};

struct CodeStep {
  std::string step;        // a playback step name (see playback_steps())
  std::vector<int> lines;  // 1-based line numbers in the code
};

struct CodeBlock {
  std::string language;  // "python", "cpp", "text"
  std::string file;      // a file name to show above the code; may be empty
  std::vector<CodeLine> lines;
  std::vector<int> highlight;   // lines emphasised from the start (1-based)
  std::vector<CodeStep> steps;  // step -> lines, for a playback to highlight
  Inline caption;
};

// [SECTION] Widgets -----------------------------------------------------------------------------
// Widgets name sentences; the engine computes every number they show (never the lesson text).

// A widget whose kind lives wholly in its own folder (engine/widgets/<kind>/): the lesson keeps
// the settings its kind's parser made without knowing their type; the kind's model reads them
// with widget_settings<T>(block).
struct WidgetSettings {
  virtual ~WidgetSettings() = default;
  // Problems only the engine can find (a step this model's trace lacks, heads that do not
  // divide d_model): the lesson checker (check_with_engine, model_spec.h) calls this with the
  // lesson's resolved model once its sentences are known to run. Default: nothing to check.
  using Report = std::function<void(SourcePos at, std::string message)>;
  virtual void check(const Lesson& /*lesson*/, const ModelSpec& /*resolved*/, SourcePos /*block*/,
                     const Report& /*error*/) const {}
  // Names of other blocks that can only be looked up once the whole lesson is read (a train
  // widget's task, usually written after it): check_tasks (task_set.h) calls this once the
  // engine checks passed. Default: nothing to look up.
  virtual void check_references(const Lesson& /*lesson*/, SourcePos /*block*/, const Report& /*error*/) const {}
};

struct WidgetBlock {
  std::string kind;                                // the block's name, e.g. "cost-explorer"
  std::shared_ptr<const WidgetSettings> settings;  // never null for a parsed block
  Inline caption;
};

// The playback step names authors may use, in block order: tokens, embedding, positions,
// context, qkv, scores, scale, mask, softmax, blend, heads, output, residual, layer-norm,
// feed-forward, next-token. step_kinds() (model_spec.h) maps them to engine/core StepKinds.
const std::vector<std::string>& playback_steps();
bool is_playback_step(std::string_view name);

// [SECTION] Blocks ------------------------------------------------------------------------------

using BlockContent = std::variant<Paragraph, Heading, ListBlock, Quote, Rule, Table, Check, Reveal, Callout,
                                  EquationBlock, CodeBlock, WidgetBlock>;

struct Block {
  SourcePos pos;   // where the block starts in the lesson file
  std::string id;  // from "id:"; required for checks and reveals
  BlockContent content;
};

// The widget kind of a block (a WidgetBlock's kind, "heatmap"), or "" for prose,
// checks and the other blocks the page draws itself.
std::string_view widget_kind_name(const BlockContent& content);
const Inline* widget_caption(const BlockContent& content);  // nullptr when not a widget

// A WidgetBlock's settings as its kind's type, or nullptr (another kind, or not a widget).
template <class T>
const T* widget_settings(const Block& block) {
  const auto* w = std::get_if<WidgetBlock>(&block.content);
  return w ? dynamic_cast<const T*>(w->settings.get()) : nullptr;
}

// [SECTION] Model data --------------------------------------------------------------------------

using Grid = std::vector<std::vector<float>>;  // row-major, rows of equal length

struct WordVector {
  std::string word;           // the token key (lower case), e.g. "didn't", "."
  std::vector<float> values;  // one per feature (missing trailing ones are 0)
  SourcePos pos;
};

struct VocabularyData {
  std::vector<std::string> features;  // named feature dimensions, e.g. "animate"
  std::vector<std::string> labels;    // per feature, the name the board and narration show
                                      // ("cosa" for thing in a translation); empty: the name
  std::vector<WordVector> words;      // in file order
  SourcePos pos;
};

struct MatrixData {
  std::string name;  // "W_Q", "W_K", "W_V", "W_O", "W1", "W2", "b1", "b2"
  Grid rows;         // dense, after sparse "a -> b: x" entries are expanded
  SourcePos pos;
};

struct LayerData {
  std::string label;  // a readable name for the UI ("reads its sentence")
  int heads = 1;
  std::vector<MatrixData> matrices;  // any of W_Q, W_K, W_V, W_O (absent = engine default)
  SourcePos pos;
  const MatrixData* find(std::string_view name) const;
};

struct WeightsData {
  int d_model = 0;        // 0 = number of features
  bool positions = true;  // add the sinusoidal position code
  float position_scale = 1.0f;
  std::vector<LayerData> context;  // run first, each x = x + MultiHead(x)
  LayerData attention;             // the layer the widgets show
  bool feed_forward = true;
  int hidden = 0;                                 // 0 = 4·d_model
  std::vector<MatrixData> feed_forward_matrices;  // W1, b1, W2, b2 (absent = default)
  float temperature = 1.0f;
  std::uint64_t seed = 42;
  SourcePos pos;
};

// Weights a build trained for one of the lesson's tasks, carried by the site's copy of the
// lesson as a ```trained-weights block (`neuralpath-cli train --ship`, task_set.h): used instead
// of training at load when their fingerprint matches the lesson's data.
struct ShippedWeights {
  std::string task;         // the ```task block's id
  std::string fingerprint;  // task_set.h's weights_fingerprint when they were trained
  WeightsData weights;
  SourcePos pos;
};

// [SECTION] The lesson --------------------------------------------------------------------------

struct Section {
  std::string title;   // plain text, without the level prefix
  Inline title_spans;  // for drawing (may hold code or maths)
  Level level = Level::None;
  std::string anchor;  // "{#anchor}" or the title as a slug; unique
  SourcePos pos;
  Blocks blocks;
};

struct Lesson {
  std::string file;
  std::string id;  // front matter: [a-z0-9-]+, the URL's lesson=ID
  std::string title;
  Level level = Level::None;
  std::string summary;
  int order = 0;  // front matter: place in the lesson list (0: after those with one)
  Blocks intro;   // blocks before the first section
  std::vector<Section> sections;
  std::optional<VocabularyData> vocabulary;
  std::optional<WeightsData> weights;
  std::vector<TaskData> tasks;                    // ```task blocks, in file order (task.h)
  std::optional<ShippedWeights> shipped_weights;  // ```trained-weights (a built site's copy)
};

// [SECTION] Queries -----------------------------------------------------------------------------

// Visits every block, nested ones (list items, quotes, callouts, reveals) included: of the
// whole lesson, or of `blocks` (a section's).
void for_each_block(const Lesson& lesson, const std::function<void(const Block&)>& visit);
void for_each_block(const Blocks& blocks, const std::function<void(const Block&)>& visit);

const Block* find_block(const Lesson& lesson, std::string_view id);
const Check* find_check(const Lesson& lesson, std::string_view id);
std::vector<const Block*> check_blocks(const Lesson& lesson);  // in reading order
const Section* find_section(const Lesson& lesson, std::string_view anchor);

// Grading: the learner's chosen option indices against a check's correct set.
struct CheckGrade {
  bool correct = false;     // exactly the correct options were chosen
  std::vector<int> wrong;   // chosen but not correct
  std::vector<int> missed;  // correct but not chosen
};
CheckGrade grade(const Check& check, const std::vector<int>& chosen);

std::string slugify(std::string_view title);  // "Causal masking (GPT)" -> "causal-masking-gpt"

}  // namespace neuralpath::lesson
