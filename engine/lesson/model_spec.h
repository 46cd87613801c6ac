// model_spec.h: a lesson's vocabulary and weights as the engine's ModelSpec, and the checks
// that need the engine (every widget sentence made of known words, the model consistent).
//
// A lesson without a ```vocabulary block runs on neuralpath::default_model_spec().
// Widgets run the engine like this:
//   spotlight   mask none (the context layers must read words after the query), weights of
//               the shown layer, row of the query word, mean over heads
//   heatmap     mask causal or none (the BERT switch flips it), shown layer's weights
//   mask-steps  the shown layer's raw / scaled / masked / softmax matrices
//   playback    the whole Trace, steps grouped by playback step name (step_kinds())
#pragma once

#include "engine/trace/block_trace.h"
#include "engine/core/model.h"
#include "engine/trace/trace.h"
#include "engine/lesson/lesson.h"
#include "engine/lesson/parser.h"

#include <optional>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

// The engine's spec for this lesson (unresolved: empty matrices are the engine's seeded
// defaults). A playback's "heads:" is applied by widgets::playback_spec (playback_settings.h).
neuralpath::ModelSpec model_spec_for(const Lesson& lesson);

// Runs the block on a widget sentence. Throws neuralpath::InputError for sentences the engine
// refuses (the checker reports those for the lesson's own sentences).
neuralpath::Trace run_sentence(const Lesson& lesson, std::string_view sentence, bool causal);

// What the spotlight shows: each token's share of the query word's attention.
struct SpotlightWeights {
  std::vector<std::string> tokens;  // as written
  std::vector<float> weights;       // one per token, sums to 1
  int query = -1;                   // index of the query word in tokens
  int top = -1;                     // index of the largest weight other than the query
};
std::optional<SpotlightWeights> spotlight_weights(const Lesson& lesson, std::string_view sentence,
                                                  std::string_view query);

// The engine steps a playback step name covers ("qkv" -> project_q, project_k, project_v).
std::vector<neuralpath::StepKind> step_kinds(std::string_view playback_step);

// No NaN in the trace and no infinity but the mask's −∞: a model whose numbers overflow a float.
bool trace_is_finite(const neuralpath::Trace& trace);

// Problems only the engine can find: unknown words in widget sentences (at the word's
// column), a query word missing from its sentence, vocabulary words the tokenizer would split,
// heads that do not divide d_model, anything resolve_model() rejects, a sentence longer than
// its widget shows (limits.h, widget_kinds.h) and numbers that overflow.
std::vector<Diagnostic> check_with_engine(const Lesson& lesson, const std::vector<SentenceRef>& sentences);

}  // namespace neuralpath::lesson
