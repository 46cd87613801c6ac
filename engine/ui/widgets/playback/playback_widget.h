// playback_widget.h: the course-playback board as the page holds it: its model (no ImGui,
// playback_model.h) drawn by its view (playback_view.h), joined like every widget kind's
// (model_view_widget.h). The registry entry, playback_widget_kind(), is in playback_kind.cpp.
#pragma once
#include "engine/ui/playback/playback_model.h"
#include "engine/ui/playback/playback_view.h"
#include "engine/ui/widgets/model_view_widget.h"

namespace neuralpath::ui {

using PlaybackWidget = ModelViewWidget<PlaybackModel, PlaybackView>;

}  // namespace neuralpath::ui
