// kv_cache_view.h: draws a const KvCacheModel with Dear ImGui: the model's loading panel until it
// is here; the formula for the cache's bytes with the model's shapes put in (per head, per
// layer, per token, for T tokens); T, key-value heads G and bytes per number as controls; one
// bar per choice of G (multi-head, grouped-query, multi-query); the engine's own cache after the
// prompt beside the formula; then the race: its button, its progress, and the time of every
// position with and without the cache as two lines, with the totals.
// layout() reports where it drew: {load: [x, y, w, h] (until the model is here), race: [x, y, w, h],
// chart: [...], heads: [[x, y, w, h]...]}
// (CSS px from the canvas's top left, last frame).
#pragma once
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/kv_cache/kv_cache_model.h"

#include <nlohmann/json.hpp>

#include <string>

namespace neuralpath::ui {

class KvCacheView : public LaidOutView<KvCacheModel> {
 public:
  void draw(const UiContext& ui, const KvCacheModel& model, Asked& asked);

 private:
  kit::FollowingField<256> prompt_;
};

}  // namespace neuralpath::ui
