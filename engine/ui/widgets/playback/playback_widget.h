// playback_widget.h: the course-playback board as the page holds it: its model (no ImGui,
// playback_model.h) drawn by its view (playback_view.h), joined like every widget kind's
// (model_view_widget.h). Its registry entries: playback_widget_kind() at the end of
// playback_model.cpp, playback_view_kind() at the end of playback_view.cpp.
#pragma once
#include "engine/widgets/playback/playback_model.h"
#include "engine/ui/widgets/playback/playback_view.h"
#include "engine/ui/widgets/model_view_widget.h"

namespace neuralpath::ui {

using PlaybackWidget = ModelViewWidget<PlaybackModel, PlaybackView>;

}  // namespace neuralpath::ui
