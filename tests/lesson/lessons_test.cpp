// lessons_test.cpp: the launch lessons pass the checker, and the engine — run with each
// lesson's own vocabulary and weights — makes the lesson's point.
#include "helpers.h"

#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/widgets/playback/playback_settings.h"
#include "engine/widgets/heatmap/heatmap_settings.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"
#include "engine/widgets/spotlight/spotlight_settings.h"
#include "engine/widgets/widget_kinds.h"

#include <fstream>
#include <regex>
#include <sstream>

using namespace lesson_test;

namespace {

const std::string kLessons = NEURALPATH_SOURCE_DIR "/lessons/";

Lesson load(const std::string& name) {
  LoadResult r = load_lesson_file(kLessons + name, neuralpath::widgets::with_widgets());
  REQUIRE_MESSAGE(r.ok(), format_diagnostics(r.diagnostics));
  return *r.lesson;
}

const std::string kTired = "The animal didn't cross the street because it was too tired.";
const std::string kWide = "The animal didn't cross the street because it was too wide.";

int index_of(const SpotlightWeights& w, const std::string& token) {
  for (std::size_t i = 0; i < w.tokens.size(); ++i)
    if (w.tokens[i] == token) return static_cast<int>(i);
  return -1;
}

// The largest weight among tokens other than `a` and the query itself.
float runner_up(const SpotlightWeights& w, int a) {
  float best = 0.0f;
  for (std::size_t i = 0; i < w.weights.size(); ++i)
    if (static_cast<int>(i) != a && static_cast<int>(i) != w.query) best = std::max(best, w.weights[i]);
  return best;
}

template <class T>
std::vector<const T*> blocks_of(const Lesson& lesson) {
  std::vector<const T*> out;
  for_each_block(lesson, [&](const Block& b) {
    if (auto* x = std::get_if<T>(&b.content)) out.push_back(x);
  });
  return out;
}

// The settings of every block of one folder widget kind (widget_kinds.h), in reading order.
template <class T>
std::vector<const T*> settings_of(const Lesson& lesson) {
  std::vector<const T*> out;
  for_each_block(lesson, [&](const Block& b) {
    if (auto* x = widget_settings<T>(b)) out.push_back(x);
  });
  return out;
}

using neuralpath::widgets::HeatmapSettings;
using neuralpath::widgets::MaskStepsSettings;
using neuralpath::widgets::PlaybackSettings;
using neuralpath::widgets::SpotlightSettings;

}  // namespace

TEST_CASE("both launch lessons pass the checker") {
  for (const char* name : {"self-attention.md", "course-playback.md"}) {
    CAPTURE(name);
    CHECK_MESSAGE(check_lesson_file(kLessons + name, neuralpath::widgets::block_parsers()).empty(),
                  format_diagnostics(check_lesson_file(kLessons + name, neuralpath::widgets::block_parsers())));
  }
}

TEST_CASE("with the lesson's weights, 'it' attends most to 'animal' when tired and to 'street' when wide") {
  const Lesson lesson = load("self-attention.md");
  const auto tired = spotlight_weights(lesson, kTired, "it");
  const auto wide = spotlight_weights(lesson, kWide, "it");
  REQUIRE(tired);
  REQUIRE(wide);
  const int animal = index_of(*tired, "animal"), street = index_of(*tired, "street");
  REQUIRE(animal >= 0);
  REQUIRE(street >= 0);

  CHECK(tired->top == animal);
  CHECK(wide->top == street);
  // Clearly dominant, on the order of the seed's 0.76-0.85: most of the attention, and far
  // ahead of every other word.
  CHECK(tired->weights[animal] > 0.7f);
  CHECK(wide->weights[street] > 0.7f);
  CHECK(tired->weights[animal] > 5.0f * runner_up(*tired, animal));
  CHECK(wide->weights[street] > 5.0f * runner_up(*wide, street));
  // And the other noun is nearly ignored.
  CHECK(tired->weights[street] < 0.05f);
  CHECK(wide->weights[animal] < 0.05f);
  MESSAGE("tired: animal " << tired->weights[animal] << ", street " << tired->weights[street] << "; wide: street "
                           << wide->weights[street] << ", animal " << wide->weights[animal]);
}

TEST_CASE("the spotlight's swing comes from the context layer, not from the shown layer alone") {
  // Without the context layer, 'it' has the same query and the nouns the same keys in both
  // sentences, so both would pick the same top word: the lesson's honest point.
  Lesson lesson = load("self-attention.md");
  REQUIRE(lesson.weights);
  REQUIRE_FALSE(lesson.weights->context.empty());
  lesson.weights->context.clear();
  const auto tired = spotlight_weights(lesson, kTired, "it");
  const auto wide = spotlight_weights(lesson, kWide, "it");
  REQUIRE(tired);
  REQUIRE(wide);
  CHECK(tired->tokens[static_cast<std::size_t>(tired->top)] == wide->tokens[static_cast<std::size_t>(wide->top)]);
}

TEST_CASE("every widget sentence of both lessons is made of vocabulary words" * doctest::test_suite("slow")) {
  for (const char* name : {"self-attention.md", "course-playback.md"}) {
    CAPTURE(name);
    const Lesson lesson = load(name);
    REQUIRE(lesson.vocabulary);
    std::vector<std::string> sentences;
    for (auto* h : settings_of<HeatmapSettings>(lesson)) sentences.push_back(h->sentence);
    for (auto* m : settings_of<MaskStepsSettings>(lesson)) sentences.push_back(m->sentence);
    for (auto* p : settings_of<PlaybackSettings>(lesson)) sentences.push_back(p->sentence);
    for (auto* s : settings_of<SpotlightSettings>(lesson)) {
      sentences.push_back(s->sentence);
      sentences.insert(sentences.end(), s->alternatives.begin(), s->alternatives.end());
    }
    REQUIRE_FALSE(sentences.empty());
    for (const auto& s : sentences) {
      CAPTURE(s);
      const neuralpath::Trace t = run_sentence(lesson, s, true);
      for (bool known : t.known) CHECK(known);
    }
  }
}

TEST_CASE("the self-attention lesson has its widgets, checks and sections") {
  const Lesson lesson = load("self-attention.md");
  CHECK(lesson.id == "self-attention");
  const auto spots = settings_of<SpotlightSettings>(lesson);
  REQUIRE(spots.size() == 1);
  CHECK(spots[0]->sentence == kTired);
  CHECK(spots[0]->alternatives.at(0) == kWide);
  const auto maps = settings_of<HeatmapSettings>(lesson);
  REQUIRE(maps.size() == 1);
  CHECK(maps[0]->sentence == "The cat sat down");
  CHECK(maps[0]->causal);
  CHECK(maps[0]->bert_switch);
  int cost_explorers = 0;
  for_each_block(lesson, [&](const Block& b) { cost_explorers += widget_kind_name(b.content) == "cost-explorer"; });
  CHECK(cost_explorers == 1);
  CHECK(blocks_of<Reveal>(lesson).size() >= 1);
  const auto checks = check_blocks(lesson);
  CHECK(checks.size() >= 2);
  for (const Block* b : checks)
    for (const auto& o : std::get<Check>(b->content).options) CHECK_FALSE(o.feedback.empty());
  int levels[4] = {};
  for (const auto& s : lesson.sections) ++levels[static_cast<int>(s.level)];
  CHECK(levels[static_cast<int>(Level::Beginner)] >= 2);
  CHECK(levels[static_cast<int>(Level::Medium)] >= 2);
  CHECK(levels[static_cast<int>(Level::Advanced)] >= 1);
}

TEST_CASE("the causal heatmap hides the future and the BERT switch shows it") {
  const Lesson lesson = load("self-attention.md");
  const neuralpath::Trace gpt = run_sentence(lesson, "The cat sat down", true);
  const neuralpath::Trace bert = run_sentence(lesson, "The cat sat down", false);
  const neuralpath::Matrix w = gpt.weights(0), b = bert.weights(0);
  REQUIRE(w.rows() == 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(w.row(i).sum() == doctest::Approx(1.0));
    for (int j = i + 1; j < 4; ++j) CHECK(w(i, j) == 0.0f);
  }
  CHECK(b(0, 3) > 0.0f);
}

TEST_CASE("the course-playback lesson runs 'AI Agents Build Future' through the whole block" *
          doctest::test_suite("slow")) {
  const Lesson lesson = load("course-playback.md");
  const auto plays = settings_of<PlaybackSettings>(lesson);
  REQUIRE(plays.size() == 1);
  const PlaybackSettings& p = *plays[0];
  CHECK(p.sentence == "AI Agents Build Future");
  CHECK(p.heads >= 2);
  REQUIRE_FALSE(p.code.empty());
  const Block* code = find_block(lesson, p.code);
  REQUIRE(code);
  const auto& c = std::get<CodeBlock>(code->content);
  // Every step the playback shows that has code is mapped to real lines.
  for (const auto& step : c.steps) CHECK_FALSE(step.lines.empty());
  CHECK(c.steps.size() >= 6);

  const neuralpath::ModelSpec spec = playback_spec(lesson, p);
  neuralpath::TraceOptions options;
  const neuralpath::Trace t = neuralpath::run_block(spec, p.sentence, options);
  CHECK(t.tokens.size() == 4);
  CHECK(t.heads == p.heads);
  CHECK(t.next.probabilities.sum() == doctest::Approx(1.0));
  // Each playback step names engine steps that the trace really has.
  for (const auto& step : p.steps) {
    CAPTURE(step);
    bool found = false;
    for (auto kind : step_kinds(step))
      for (const auto& s : t.steps) found = found || s.kind == kind;
    CHECK(found);
  }
}

TEST_CASE("lesson text never writes attention percentages: the engine computes them") {
  for (const char* name : {"self-attention.md", "course-playback.md"}) {
    CAPTURE(name);
    const std::string text = read(kLessons + name);
    std::smatch m;
    CHECK_MESSAGE(!std::regex_search(text, m, std::regex("[0-9]\\s*(%|\\\\%|percent)")), "found: " << m.str());
  }
}

TEST_CASE("every example in docs/lesson-format.md parses") {
  const std::string format = read(NEURALPATH_SOURCE_DIR "/docs/lesson-format.md");
  // Examples sit in fences of four or more backticks with the info string "markdown"; the
  // closing fence has the same number of backticks.
  int examples = 0;
  const std::regex open("(^|\n)(`{4,})markdown\n");
  for (auto it = std::sregex_iterator(format.begin(), format.end(), open); it != std::sregex_iterator(); ++it) {
    const std::size_t begin = static_cast<std::size_t>(it->position(0) + it->length(0));
    const std::string close = "\n" + (*it)[2].str() + "\n";
    const std::size_t end = format.find(close, begin);
    REQUIRE(end != std::string::npos);
    const std::string example = format.substr(begin, end - begin + 1);
    CAPTURE(example);
    // A whole lesson parses as it is; a block example is parsed inside a test lesson.
    const ParseResult r = example.rfind("---\n", 0) == 0 ? parse(example) : parse(doc(example));
    CHECK_MESSAGE(r.diagnostics.empty(), all_messages(r));
    ++examples;
  }
  CHECK(examples >= 15);
}

TEST_CASE("a lesson without a vocabulary runs on the engine's default model") {
  const std::string text = doc("```heatmap\nsentence: the animal was too tired\n```\n");
  const LoadResult r = load_lesson_text(text, "test.md", neuralpath::widgets::with_widgets());
  REQUIRE_MESSAGE(r.ok(), format_diagnostics(r.diagnostics));
  const neuralpath::ModelSpec spec = model_spec_for(*r.lesson);
  CHECK(spec.vocabulary.feature_names == neuralpath::default_model_spec().vocabulary.feature_names);
  // ...and its sentences are checked against that model's words.
  const LoadResult bad =
      load_lesson_text(doc("```heatmap\nsentence: the zyzzyva\n```\n"), "test.md", neuralpath::widgets::with_widgets());
  REQUIRE(bad.diagnostics.size() == 1);
  CHECK(bad.diagnostics[0].message.find("'zyzzyva' is not in") == 0);
}

TEST_CASE("model_spec_for carries the lesson's weights into the engine's spec") {
  const Lesson lesson = load("self-attention.md");
  const neuralpath::ModelSpec spec = model_spec_for(lesson);
  CHECK(spec.vocabulary.feature_names.size() == 8);
  CHECK(spec.context_layers.size() == 1);
  CHECK(spec.attention.heads == 1);
  CHECK(spec.positional_scale == doctest::Approx(0.1));
  REQUIRE(spec.attention.w_q.rows() == 8);
  // W_Q row needs_animate (feature 5), column animate (feature 4).
  CHECK(spec.attention.w_q(5, 4) == doctest::Approx(3.5));
  CHECK(spec.attention.w_o.size() == 0);  // left to the engine's default (identity)
}

TEST_CASE("every link to a lesson names one that exists; self-attention's last note leads on to multi-head") {
  const std::regex link("lesson\\.html\\?lesson=([A-Za-z0-9_-]+)");
  for (const char* name : {"self-attention.md", "course-playback.md", "multi-head.md", "es/self-attention.md",
                           "es/course-playback.md", "es/multi-head.md"}) {
    CAPTURE(name);
    const std::string text = read(kLessons + name);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it)
      CHECK_MESSAGE(std::ifstream(kLessons + (*it)[1].str() + ".md").good(), "no lesson " << (*it)[1].str());
  }
  // The teaser about several heads sits in the lesson's last section; it must link the lesson
  // that teaches them, in both languages.
  for (const char* name : {"self-attention.md", "es/self-attention.md"}) {
    CAPTURE(name);
    const std::string text = read(kLessons + name);
    const std::size_t last = text.rfind("\n## ");
    REQUIRE(last != std::string::npos);
    CHECK(text.find("lesson.html?lesson=multi-head", last) != std::string::npos);
  }
}
