// widget_view.h: what every kind's view has the same way (model_view_widget.h says what a view
// is): the commands a frame asks of its model, no animation of its own unless it says so, and
// the "explain any number" popup whose state() shows as "explained"; and for a view that reports
// where it drew its parts (LaidOutView), its layout; and for the kinds that take the learner's
// own text, sentence_box() and SentenceView, the view that holds that box.
#pragma once
#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/kit.h"
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

// The box the learner types the kind's own text into (a sentence, a prompt): what they send
// comes back as SetSentence, and the model's refusal of the last one (input_error()) shows
// beneath the box. `shown` is the model's text, which the box follows (kit::FollowingField).
template <WidgetModel Model, std::size_t N>
void sentence_box(const UiContext& ui, const Model& model, kit::FollowingField<N>& field, const kit::TextEntry& entry,
                  const std::string& shown, float width, typename WidgetView<Model>::Asked& asked) {
  if (field.draw(ui, entry, shown, width)) asked.push_back(SetSentence{field.text()});
  if (!model.input_error().empty()) kit::wrapped(ui, model.input_error(), ui.colors().bad, kit::Face::small);
}

// The view of a kind whose one input is the learner's own text (generate, kv-cache, lm-train,
// tokenizer): its layout and the box, which holds up to TextBytes bytes. A kind names its view
// `using XView = SentenceView<XModel, bytes>` and defines XView::draw in its own .cpp.
template <WidgetModel Model, std::size_t TextBytes>
class SentenceView : public LaidOutView<Model> {
 public:
  using Asked = typename LaidOutView<Model>::Asked;
  void draw(const UiContext& ui, const Model& model, Asked& asked);

 private:
  kit::FollowingField<TextBytes> sentence_;
};

}  // namespace neuralpath::ui
