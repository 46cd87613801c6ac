// widget_card.h: the frame every widget view draws in, so the views hold only what is theirs:
//
//   draw_widget_card(ui, this, model, explain_, [&](float width) { ...the widget's body... });
//
//   the card (kit::Card) under the view's own ImGui id; the body, or, for a model whose
//   sentence could not run (has_trace() false), the kind's title and why ("<kind>.title",
//   "<kind>.cannot_show" with {error}); the author's caption in small muted text; then the
//   explain-any-number popup (explain.h) above everything.
#pragma once
#include "engine/text/catalogue.h"
#include "engine/lesson/lesson.h"
#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/kit.h"

#include <imgui.h>

#include <string>

namespace neuralpath::ui {

template <class Model, class Body>
void draw_widget_card(const UiContext& ui, const void* view, const Model& model, Explainer& explain, Body&& body) {
  ImGui::PushID(view);
  const float top = ImGui::GetCursorScreenPos().y;
  kit::Card card(ui, Model::kKind);
  const float width = card.inner_width();
  if constexpr (requires { model.has_trace(); }) {
    if (model.has_trace()) {
      body(width);
    } else {
      const std::string kind = Model::kKind;
      kit::title(ui, tr(kind + ".title"));
      kit::wrapped(ui, tr(kind + ".cannot_show", {{"error", model.error()}}), ui.colors().bad);
    }
  } else {
    body(width);
  }
  const std::string caption = lesson::plain_text(model.caption());
  if (!caption.empty()) {
    kit::gap(ui, 4);
    kit::wrapped(ui, caption, ui.colors().muted, kit::Face::small);
  }
  card.end();
  explain.draw_popup(ui, top, ImGui::GetCursorScreenPos().y);
  ImGui::PopID();
}

}  // namespace neuralpath::ui
