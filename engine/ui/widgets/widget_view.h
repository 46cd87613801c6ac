// widget_view.h: what every kind's view has the same way (model_view_widget.h says what a view
// is): the commands a frame asks of its model, no animation of its own unless it says so, and
// the "explain any number" popup whose state() shows as "explained"; and for a view that reports
// where it drew its parts (LaidOutView), its layout.
#pragma once
#include "engine/ui/widgets/explain.h"
#include "engine/widgets/widget_model.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace neuralpath::ui {

template <WidgetModel Model>
class WidgetView {
 public:
  using Asked = std::vector<typename Model::Command>;
  void update(const Model& /*model*/, float /*dt*/) {}
  Explainer& explainer() { return explain_; }
  const Explainer& explainer() const { return explain_; }

 protected:
  Explainer explain_;
};

// A view that reports where the last frame drew its parts: state()'s "layout"
// (model_view_widget.h), rectangles [x, y, w, h] in CSS px from the canvas's top left
// (kit::css_rect), which the browser tests tap and the page lines its text version up with.
// Each view's header says which parts it names.
template <WidgetModel Model>
class LaidOutView : public WidgetView<Model> {
 public:
  const nlohmann::json& layout() const { return layout_; }

 protected:
  nlohmann::json layout_ = nlohmann::json::object();
};

}  // namespace neuralpath::ui
