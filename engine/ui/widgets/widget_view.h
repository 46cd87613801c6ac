// widget_view.h: what every kind's view has the same way (model_view_widget.h says what a view
// is): the commands a frame asks of its model, no animation of its own unless it says so, and
// the "explain any number" popup whose state() shows as "explained".
#pragma once
#include "engine/ui/widgets/explain.h"
#include "engine/widgets/widget_model.h"

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

}  // namespace neuralpath::ui
