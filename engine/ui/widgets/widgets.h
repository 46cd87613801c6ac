// widgets.h: the lesson widgets this folder provides, one file each. make_widget()
// (factory.cpp) picks one for a widget block; tests may build them directly.
//
//   spotlight.cpp      where one word's attention goes, as beams; A/B sentences; your sentence
//   heatmap.cpp        the T×T weights, causal or BERT, each cell explained
//   mask_steps.cpp     raw -> scaled -> masked -> softmax, and three common mistakes made live
//   cost_explorer.cpp  T² growth, and the naive and tiled kernels run side by side
//
// Each widget runs the engine once per change (sentence, mask, length) and draws only what
// that run returned; explain.h makes every drawn number explain itself.
//
// Commands (any other type gets the base "this widget does not take ..." reply) and state():
//   spotlight      setSentence{text} setQuery{query: word|index} setHead{head: -1 mean|0..}
//                  explain{token: word|index}
//                  {kind, sentence, sentences, sentence_index, custom, tokens, seeded, query,
//                   query_index, head, heads, mask: "none", weights, top{token,index,weight},
//                   blend[{token, weight(, count)}], vector, error?, input_error?, explained}
//   heatmap        setMask{mask: causal|none | causal: bool} setSentence{text} setHead{head}
//                  selectCell{row, col} explain{row, col}
//                  {kind, sentence, tokens, causal, mask, bert_switch, head, heads,
//                   weights[[..]], masked[[i, j]], row_sums, selected{row,col}|null, explained}
//   mask-steps     stage{stage: raw|scaled|masked|softmax|index} setSentence{text} setHead{head}
//                  mistake{mistake: mask-after-softmax|no-scale|wrong-transpose, d?: 2..1024}
//                  {kind, stages, stage, stage_index, causal, sentence, tokens, head, heads,
//                   matrix (−∞ as null), masked, row_sums (softmax stage), mistake,
//                   mistakes{mask_after_softmax{weights,row_sums}, no_scale{d,max_with,
//                   max_without,with,without,curve}, wrong_transpose{error,max_difference}}}
//   cost-explorer  setLength{T} run{T?} stop
//                  {kind, T, pairs, bytes_fp32, bytes_fp16, bytes_all_heads, heads,
//                   bytes_per_score, lengths, naive_bytes, tiled_bytes, limit_bytes,
//                   naive_allowed, running, runs[{T, d, tile, naive{status, seconds, bytes,
//                   rows_done, gflops, reason?}, tiled{...}, max_difference|null}], explained}
// Events: {"type": "explain", title, text} when a number's explanation opens; the cost
// explorer adds {"type": "costRun", T, naive{...}, tiled{...}, max_difference?} per finished run.
#pragma once
#include "engine/ui/widget.h"

#include <memory>
#include <optional>

namespace neuralpath::ui {

// An integer field of a command ({"head": 1}), or nothing when absent or not an integer.
inline std::optional<int> int_field(const nlohmann::json& message, const char* name) {
  if (!message.contains(name) || !message[name].is_number_integer()) return std::nullopt;
  return message[name].get<int>();
}

std::unique_ptr<Widget> make_spotlight_widget(const lesson::Spotlight& block, const ModelSpec& spec);
std::unique_ptr<Widget> make_heatmap_widget(const lesson::Heatmap& block, const ModelSpec& spec);
std::unique_ptr<Widget> make_mask_steps_widget(const lesson::MaskSteps& block, const ModelSpec& spec);
std::unique_ptr<Widget> make_cost_explorer_widget(const lesson::CostExplorer& block);

}  // namespace neuralpath::ui
