// widgets.h: the lesson widgets this folder provides, one folder each, every one a model
// (no ImGui: settings, sentence, trace, selection, typed commands, state, snapshot, the text
// version's summary and table) and a view that draws the const model (model_view_widget.h),
// registered once (registry.h):
//
//   spotlight/      where one word's attention goes, as beams; A/B sentences; your sentence
//   heatmap/        the T×T weights, causal or BERT, each cell explained
//   mask_steps/     raw -> scaled -> masked -> softmax, and three common mistakes made live
//   cost_explorer/  T² growth, and the naive and tiled kernels raced side by side
//
// Each model runs the engine once per change (sentence, mask, length) and the view draws only
// what that run returned; explain.h makes every drawn number explain itself. Each model's
// header lists its commands and state() (and the "explained" popup the view adds). Events:
// {"type": "explain", title, text} when a number's explanation opens; the cost explorer adds
// {"type": "costRun", T, naive{...}, tiled{...}, max_difference?} per finished run.
#pragma once
#include "engine/widgets/command_result.h"  // int_field(), which the models use to read commands
