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
