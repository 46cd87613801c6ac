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
// The launch kinds spotlight, heatmap, mask-steps and playback still have typed blocks in
// lesson.h (the lesson checker, model_spec.cpp, runs their sentences and steps); they share
// the page's registry all the same.
#pragma once

#define NEURALPATH_WIDGET_KINDS(X) \
    X(cost_explorer, "cost-explorer")
