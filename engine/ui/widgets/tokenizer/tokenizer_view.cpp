// tokenizer_view.cpp: draws a const TokenizerModel with Dear ImGui: the text as token chips, each
// with its id under it (a leading space shows as "·"), a − / + stepper over the merges learned
// (fewer merges: shorter tokens, down to bytes), and a field for the learner's own text. A chip
// opens its explanation (which merge made it, of which two tokens). layout() reports where the
// chips were drawn: {chips: [[x, y, w, h]...]} (CSS px from the canvas's top left, last frame).
//
// It cuts nothing: every token and id is the model's, from engine/core/lm/bpe.h.
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/tokenizer/tokenizer_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

namespace neuralpath::ui {

using TokenizerView = SentenceView<TokenizerModel, 2048>;

using Model = TokenizerModel;
using Asked = TokenizerView::Asked;

namespace {

// A token's text on its chip: a leading space (the word's own, BPE keeps it) shows as "·".
std::string chip_text(const std::string& text) {
  return !text.empty() && text.front() == ' ' ? "\xC2\xB7" + text.substr(1) : text;
}

void draw_merges(const UiContext& ui, const Model& model, Asked& asked) {
  const int shown = model.merges();
  ImGui::BeginDisabled(shown <= 0);
  if (kit::button(ui, "\xE2\x88\x92##fewer")) asked.push_back(Model::SetMerges{shown - 1});  // "−"
  ImGui::EndDisabled();
  ImGui::SameLine(0, ui.px(6));
  ImGui::BeginDisabled(shown >= model.learned());
  if (kit::button(ui, "+##more")) asked.push_back(Model::SetMerges{shown + 1});
  ImGui::EndDisabled();
  ImGui::SameLine(0, ui.px(10));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(
      tr("tokenizer.merges_label", {{"n", format_count(static_cast<std::uint64_t>(shown))},
                                    {"learned", format_count(static_cast<std::uint64_t>(model.learned()))}})
          .c_str());
}

void draw_chips(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::mono);
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pad(ui.px(7), ui.px(4));
  const float chip_h = face->FontSize + 2 * pad.y;
  kit::Flow flow(width, ui.px(4), ui.px(6));
  nlohmann::json chips = nlohmann::json::array();
  const auto& tokens = model.tokens();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string text = kit::fit_text(face, chip_text(tokens[i].text), width - 2 * pad.x);
    const std::string id = format_count(static_cast<std::uint64_t>(tokens[i].id));
    const float w = std::max(kit::text_size(face, text).x, kit::text_size(small, id).x) + 2 * pad.x;
    const ImVec2 at = flow.place(ImVec2(w, chip_h + small->FontSize + ui.px(2)));
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::InvisibleButton("##token", ImVec2(w, chip_h))) asked.push_back(Model::Explain{static_cast<int>(i)});
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    const ImVec2 max(at.x + w, at.y + chip_h);
    // Merged tokens (ids past the 256 bytes) in the accent colour, single bytes plain.
    const bool merged = tokens[i].id >= lm::kFirstMerge;
    draw->AddRectFilled(at, max, kit::fade(merged ? c.accent : c.muted, hovered ? 0.35f : 0.18f), ui.px(4));
    draw->AddText(face, face->FontSize, ImVec2(at.x + pad.x, at.y + pad.y), c.text, text.c_str());
    draw->AddText(small, small->FontSize, ImVec2(at.x + pad.x, max.y + ui.px(2)), c.muted, id.c_str());
    chips.push_back({at.x / ui.scale, at.y / ui.scale, w / ui.scale, chip_h / ui.scale});
  }
  flow.end();
  layout["chips"] = std::move(chips);
}

void draw_input(const UiContext& ui, const Model& model, kit::FollowingField<2048>& input_field, float width,
                Asked& asked) {
  kit::title(ui, tr("tokenizer.your_text"));
  sentence_box(ui, model, input_field, {"##text", tr("tokenizer.cut")}, model.text(), width, asked);
}

}  // namespace

template <>
void TokenizerView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_merges(ui, model, asked);
    kit::gap(ui, 6);
    draw_chips(ui, model, layout_, width, asked);
    kit::gap(ui, 8);
    draw_input(ui, model, sentence_, width, asked);
  });
}

const ViewKind& tokenizer_view_kind() { return view_kind<TokenizerModel, TokenizerView>(); }

}  // namespace neuralpath::ui
