// limits.h: how big and how deep a lesson may be, and what its widgets and model may ask for.
//
// Every parser and visitor over lesson content recurses once per nesting level, and the page
// runs it on a WebAssembly stack far smaller than a native one. So each kind of nesting has a
// limit well above what any real lesson needs; going past it is a `file:line:col` error like
// any other authoring mistake, never a crash. The same limits hold for `neuralpath-cli check`
// and for the page, because both load through load_lesson_text(). The page's JavaScript reads
// the ones it needs from the engine (web/main.cpp's np_limits), never from copies of its own.
//
// [SECTION] Size and nesting
// [SECTION] What the page can show
// [SECTION] The lesson's model
#pragma once

#include <cstddef>
#include <string_view>

namespace neuralpath::lesson {

// [SECTION] Size and nesting ---------------------------------------------------------------------

// A lesson is text, not a data dump (the launch lessons are ~20 KB).
inline constexpr std::size_t kMaxLessonBytes = 4 * 1024 * 1024;

// Lists, quotes, callouts and reveals inside one another (a list level counts once).
inline constexpr int kMaxBlockNesting = 16;

// Groups, fractions, roots, scripts, styles and \left…\right inside one another in one
// equation; every atom nested in another counts one level ({x} is two: the group and x).
inline constexpr int kMaxEquationNesting = 64;

// Inline lists ([[1, 2], [3, 4]] is two levels) and indented maps or lists in block settings.
inline constexpr int kMaxSettingsNesting = 16;

// After this many problems in one file the checker stops listing them (like a compiler's
// error limit): a broken 4 MB file would otherwise print millions of lines.
inline constexpr std::size_t kMaxDiagnostics = 200;

// [SECTION] What the page can show ---------------------------------------------------------------
// The page lays out every section and check on each frame and runs every widget's model when
// the lesson opens: 100k sections cost 2.5 s a frame, 20k checks never finished opening. The
// launch lessons have about 10 sections, 6 checks and 6 widgets, and the page's scripts spend
// some 15 ms on a frame while their page scrolls. Measured the same way (headless Chromium,
// load average ~18): 100 sections with 100 checks 9 ms, 200 with 200 44 ms; 20 heatmaps
// 22 ms, 100 heatmaps 120 ms.
inline constexpr std::size_t kMaxSections = 100;
inline constexpr std::size_t kMaxChecks = 100;
inline constexpr std::size_t kMaxWidgets = 20;

// A widget's sentence in bytes: what a sentence field holds (the views' 512-byte buffers, less
// the NUL). The checker refuses a longer one in a lesson, and each widget refuses one from
// setSentence, a shared link or a restored snapshot, so state() and a saved image stay small.
// How many tokens a sentence may have is the widget kind's own (its settings header), as many
// rows as its figure keeps legible; the checker asks the same of the lesson's sentences.
inline constexpr std::size_t kMaxSentenceBytes = 511;

// [SECTION] The lesson's model -------------------------------------------------------------------
// A 3 KB weights block could ask for 51 GB (context layers of d-model 4096 with hidden 16384).
// Every number the model holds, written or seeded: vocabulary vectors, each layer's W_Q, W_K,
// W_V, W_O, the feed-forward matrices and biases. The launch lessons hold under 3,000.
inline constexpr std::size_t kMaxModelNumbers = 1u << 20;
inline constexpr int kMaxContextLayers = 8;

// Numbers a weights block writes (word vectors, matrix entries, position scale): a learner reads
// them, and far larger ones overflow float sums into infinity and then NaN.
inline constexpr float kMaxWeightMagnitude = 1000.0f;
// The next-token softmax's temperature (logits / temperature): the playback's slider range.
// 1e-45 turned every logit into infinity.
inline constexpr float kMinTemperature = 0.1f, kMaxTemperature = 5.0f;

// Training a `lesson-weights: trained` task (task_set.h) may not take more than this many
// floating-point operations (about 6 per model number per token, forward and backward): the
// CLI trains such a lesson when it loads it without the weights the site's build ships, and a
// 400-byte lesson asking for 10⁵ steps of 1024 sentences kept `check` busy for minutes. The
// launch lessons' tasks need at most 4.3·10⁸ (multi-head's: 0.7 s of one core, measured at
// 0.6 GFLOP/s on these small matrices); this is about 5 s.
inline constexpr double kMaxTrainingFlops = 3e9;

// How many tokens a widget kind's sentence may have is the kind's own figure: its settings'
// kMaxTokens (engine/widgets/<kind>/<kind>_settings.h), handed to the checker with the sentence
// (WidgetFields::sentence) and used by its model. Every sentence also has kMaxSentenceBytes.

}  // namespace neuralpath::lesson
