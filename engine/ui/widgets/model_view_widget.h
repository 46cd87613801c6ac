// model_view_widget.h: the Widget every lesson widget kind is — a model (no ImGui; the
// WidgetModel concept, engine/widgets/widget_model.h) that a view draws as a const object. The
// view never changes the model: what the learner does with it comes back as the model's typed
// commands, applied after the frame's drawing.
//
//   View    draw(ui, const Model&, Asked&)   Asked: the commands the frame asks of the model
//           update(const Model&, dt)         animation only (beams swinging); default none
//           explainer()                      the popup's state: "explained" in state()
//           layout()                         optional: where it drew its parts (CSS px)
// WidgetView<Model> (widget_view.h) gives a view the defaults.
#pragma once
#include "engine/ui/widget.h"
#include "engine/ui/widgets/widget_view.h"

#include <utility>
#include <variant>
#include <vector>

namespace neuralpath::ui {

template <WidgetModel Model, class View>
class ModelViewWidget final : public Widget {
 public:
  using Command = typename Model::Command;
  using Parsed = std::variant<Command, CommandResult>;

  explicit ModelViewWidget(Model model) : model_(std::move(model)) {}

  const Model& model() const { return model_; }
  const View& view() const { return view_; }

  const char* kind() const override { return Model::kKind; }

  void update(float dt) override {
    model_.update(dt);
    view_.update(model_, dt);
  }

  // A model that works with time alone (a run in update()) says so; the others never need a
  // frame without input (their animations move pixels, which the platform sees).
  bool wants_another_frame() const override {
    if constexpr (requires(const Model& m) { m.wants_another_frame(); })
      return model_.wants_another_frame();
    else
      return false;
  }

  void draw(const UiContext& ui) override {
    std::vector<Command> asked;
    view_.draw(ui, model_, asked);
    for (const Command& command : asked) (void)model_.apply(command);  // a refusal shows in the model's state
  }

  nlohmann::json state() const override {
    nlohmann::json s = model_.state();
    s["explained"] = view_.explainer().state();
    // A view that records where it drew its parts (CSS pixels) reports them too.
    if constexpr (requires(const View& v) { v.layout(); }) s["layout"] = view_.layout();
    return s;
  }

  CommandResult command(const nlohmann::json& message) override {
    Parsed parsed = Model::parse(message);
    if (auto* reply = std::get_if<CommandResult>(&parsed)) return *reply;
    CommandResult result = model_.apply(std::get<Command>(parsed));
    if (auto explanation = model_.take_explanation()) view_.explainer().open(std::move(*explanation));
    return result;
  }

  std::optional<nlohmann::json> transport() const override {
    if constexpr (requires(const Model& m) { m.transport(); })
      return model_.transport();
    else
      return std::nullopt;
  }

  nlohmann::json snapshot() const override { return model_.snapshot(); }
  CommandResult restore(const nlohmann::json& snapshot) override { return model_.restore(snapshot); }

  std::vector<nlohmann::json> take_events() override {
    std::vector<nlohmann::json> out = view_.explainer().take_events();
    for (nlohmann::json& e : model_.take_events()) out.push_back(std::move(e));
    return out;
  }

 private:
  Model model_;
  View view_;
};

}  // namespace neuralpath::ui
