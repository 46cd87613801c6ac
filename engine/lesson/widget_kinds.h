// widget_kinds.h: the widget kinds that live wholly in their own folder, one line each:
//
//   X(identifier, "block-name")
//
// From that line the lesson parser reads a ```block-name block with
//   std::shared_ptr<const WidgetSettings> parse_<identifier>_settings(WidgetFields&)
// (engine/ui/widgets/<identifier>/<identifier>_settings.cpp, compiled into the lesson library so
// `neuralpath-cli check` validates the block without any view), and the page makes its widget
// from <identifier>_widget_kind() (engine/ui/widgets/registry.h). Nothing else names the kind:
// adding one is its folder plus a line here.
//
// A kind's parser registers its sentences (WidgetFields::sentence) for the lesson checker and
// may override WidgetSettings::check for what only the engine can find (the playback does).
#pragma once

#include <string_view>

#define NEURALPATH_WIDGET_KINDS(X) \
    X(spotlight, "spotlight")          \
    X(heatmap, "heatmap")              \
    X(mask_steps, "mask-steps")        \
    X(cost_explorer, "cost-explorer")  \
    X(head_view, "head-view")          \
    X(train, "train")                  \
    X(head_cost, "head-cost")          \
    X(split_join, "split-join")        \
    X(model_view, "model-view")        \
    X(playback, "playback")

namespace neuralpath::lesson {

// How many tokens a widget kind's sentence may have: as many rows as its figure keeps legible.
// One number for both sides: the checker refuses a longer sentence in a lesson (at its
// `sentence:`), and the kind's model refuses one from setSentence, a shared link or a
// snapshot with the same figure in its message (each model reads its own line here). Every
// sentence also has limits.h's kMaxSentenceBytes. 0: the kind has no sentence.
constexpr int max_sentence_tokens(std::string_view kind) {
    if (kind == "heatmap" || kind == "model-view" || kind == "head-view") return 24;  // a 24×24 grid still reads
    if (kind == "mask-steps" || kind == "playback") return 16;  // four stages of a T×T grid, or the board's
    if (kind == "split-join") return 12;                        // a T × d_model grid of numbers, on a phone
    // One row of weights with each cell's terms: the engine records per-cell terms up to 48
    // tokens (engine/core/block.h, TraceOptions::max_term_tokens).
    if (kind == "spotlight" || kind == "train") return 48;
    return 0;
}

}  // namespace neuralpath::lesson
