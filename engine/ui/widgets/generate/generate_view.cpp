// generate_view.cpp: draws a const GenerateModel with Dear ImGui: the model's loading panel until
// it is here; the prompt field; the text so far as token chips (the last one drawn in the accent
// colour); Step, Write / Stop and Restart; the block's sliders (temperature, top-k, top-p, seed);
// and the next token's candidates at each stage that changes anything, as bars with their
// probabilities, with how many tokens each stage keeps; last, which token the draw picked, and u.
// layout() reports where it drew: {load: [x, y, w, h] (until the model is here), step: [x, y, w, h],
// write: [...], stages: [[x, y, w, h]...]}
// (CSS px from the canvas's top left, last frame).
//
// It computes no probability: every token, bar and number is the model's (engine/core/lm/decode).
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/model_panel.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/generate/generate_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace neuralpath::ui {

using GenerateView = SentenceView<GenerateModel, 512>;

using Model = GenerateModel;
using Asked = GenerateView::Asked;

namespace {

// Whether a stage changes anything with these settings (the model's own stage always shows).
bool stage_shown(const Model& model, int index) {
  const GenerateSettings& s = model.settings();
  const lm::SamplingSettings& now = model.sampling();
  switch (index) {
    case 1: return s.temperature_control || now.temperature != 1.0f;
    case 2: return s.top_k_control || now.top_k > 0;
    case 3: return s.top_p_control || now.top_p < 1.0f;
    default: return true;
  }
}

void draw_prompt(const UiContext& ui, const Model& model, kit::FollowingField<512>& prompt_field, float width,
                 Asked& asked) {
  kit::title(ui, tr("generate.prompt"));
  sentence_box(ui, model, prompt_field, {"##prompt", tr("generate.use_prompt")}, model.prompt(), width, asked);
}

void draw_text(const UiContext& ui, const Model& model, float width) {
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::mono);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pad(ui.px(4), ui.px(3));
  const float chip_h = face->FontSize + 2 * pad.y;
  kit::Flow flow(width, ui.px(2), ui.px(4));
  // the prompt as the learner typed it, then each written token on its own chip
  const std::string prompt =
      kit::fit_text(face, model.prompt().empty() ? tr("generate.no_prompt") : model.prompt(), width - 2 * pad.x);
  const float prompt_w = kit::text_size(face, prompt).x + 2 * pad.x;
  const ImVec2 at = flow.place(ImVec2(prompt_w, chip_h));
  ImGui::Dummy(ImVec2(prompt_w, chip_h));
  draw->AddText(face, face->FontSize, ImVec2(at.x + pad.x, at.y + pad.y), c.muted, prompt.c_str());
  const auto& written = model.written();
  for (std::size_t i = 0; i < written.size(); ++i) {
    const std::string text = kit::fit_text(face, chip_label(written[i].label), width - 2 * pad.x);
    const float w = kit::text_size(face, text).x + 2 * pad.x;
    const ImVec2 p = flow.place(ImVec2(w, chip_h));
    ImGui::Dummy(ImVec2(w, chip_h));
    const bool newest = i + 1 == written.size();
    draw->AddRectFilled(p, ImVec2(p.x + w, p.y + chip_h),
                        kit::fade(newest ? c.accent : c.muted, newest ? 0.35f : (i % 2 ? 0.10f : 0.18f)), ui.px(3));
    draw->AddText(face, face->FontSize, ImVec2(p.x + pad.x, p.y + pad.y), c.text, text.c_str());
  }
  flow.end();
  if (model.ended())
    kit::wrapped(ui, tr("generate.ended"), c.muted, kit::Face::small);
  else if (model.finished())
    kit::wrapped(ui, tr("generate.all_written", {{"n", format_count(written.size())}}), c.muted, kit::Face::small);
}

void draw_buttons(const UiContext& ui, const Model& model, nlohmann::json& layout, Asked& asked) {
  ImGui::BeginDisabled(model.finished());
  if (kit::button(ui, tr("generate.step").c_str(), true)) asked.push_back(Model::Step{});
  layout["step"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::SameLine(0, ui.px(8));
  if (model.writing()) {
    if (kit::button(ui, tr("generate.stop").c_str())) asked.push_back(Stop{});
  } else if (kit::button(ui, tr("generate.write").c_str())) {
    asked.push_back(Model::Write{});
  }
  layout["write"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::EndDisabled();
  ImGui::SameLine(0, ui.px(8));
  if (kit::button(ui, tr("generate.restart").c_str())) asked.push_back(Restart{});
}

void draw_controls(const UiContext& ui, const Model& model, float width, Asked& asked) {
  const GenerateSettings& s = model.settings();
  const lm::SamplingSettings& now = model.sampling();
  const float slider_w = std::min(width, ui.px(420));
  const auto slider_label = [&](const std::string& text) {
    kit::gap(ui, 4);
    kit::wrapped(ui, text, 0, kit::Face::bold);
    ImGui::SetNextItemWidth(slider_w);
    kit::push_field_style(ui);
  };
  if (s.temperature_control) {
    slider_label(tr("generate.temperature_label", {{"value", format_setting(now.temperature)}}));
    float t = now.temperature;
    if (ImGui::SliderFloat("##temperature", &t, 0.0f, 2.0f, "", ImGuiSliderFlags_AlwaysClamp))
      asked.push_back(Model::SetTemperature{std::round(t * 20.0f) / 20.0f});  // steps of 0.05
    kit::pop_field_style();
  }
  if (s.top_k_control) {
    slider_label(now.top_k == 0
                     ? tr("generate.top_k_off")
                     : tr("generate.top_k_label", {{"k", format_count(static_cast<std::uint64_t>(now.top_k))}}));
    int k = now.top_k;
    if (ImGui::SliderInt("##topk", &k, 0, 100, "", ImGuiSliderFlags_AlwaysClamp)) asked.push_back(Model::SetTopK{k});
    kit::pop_field_style();
  }
  if (s.top_p_control) {
    slider_label(now.top_p >= 1.0f ? tr("generate.top_p_off")
                                   : tr("generate.top_p_label", {{"p", format_setting(now.top_p)}}));
    float p = now.top_p;
    if (ImGui::SliderFloat("##topp", &p, 0.05f, 1.0f, "", ImGuiSliderFlags_AlwaysClamp))
      asked.push_back(Model::SetTopP{std::round(p * 20.0f) / 20.0f});
    kit::pop_field_style();
  }
  if (s.seed_control) {
    kit::gap(ui, 4);
    kit::wrapped(ui, tr("generate.seed_label"), 0, kit::Face::bold);
    int seed = static_cast<int>(model.seed());
    ImGui::SetNextItemWidth(std::min(width, ui.px(200)));
    kit::push_field_style(ui);
    if (ImGui::InputInt("##seed", &seed, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue) && seed >= 0 && seed <= 1000000 &&
        static_cast<std::uint64_t>(seed) != model.seed())
      asked.push_back(Model::SetSeed{static_cast<std::uint64_t>(seed)});
    kit::pop_field_style();
  }
}

void draw_stages(const UiContext& ui, const Model& model, nlohmann::json& layout, float width) {
  const Palette& c = ui.colors();
  nlohmann::json rects = nlohmann::json::array();
  const auto& stages = model.stages();
  if (!stages.empty()) {
    kit::title(ui, tr("generate.next_title"));
    std::vector<int> shown;
    for (int i = 0; i < static_cast<int>(stages.size()); ++i)
      if (stage_shown(model, i)) shown.push_back(i);
    // As many stages side by side as fit at 190 px each, the rest below.
    const int per_row = std::max(1, std::min(static_cast<int>(shown.size()), static_cast<int>(width / ui.px(190))));
    const float gap = ui.px(12);
    const float col_w = (width - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row);
    float max_p = 0.0f;
    for (int i : shown)
      for (const auto& cand : stages[static_cast<std::size_t>(i)].top) max_p = std::max(max_p, cand.p);
    ImFont* mono = kit::font(ui, kit::Face::mono);
    ImFont* small = kit::font(ui, kit::Face::small);
    ImFont* bold = kit::font(ui, kit::Face::bold);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float row_h = mono->FontSize + ui.px(6);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float y = origin.y, row_bottom = origin.y;
    for (std::size_t n = 0; n < shown.size(); ++n) {
      const int col = static_cast<int>(n) % per_row;
      if (col == 0 && n > 0) y = row_bottom + ui.px(10);
      const Model::Stage& stage = stages[static_cast<std::size_t>(shown[n])];
      const float x = origin.x + static_cast<float>(col) * (col_w + gap);
      float cy = y;
      draw->AddText(bold, bold->FontSize, ImVec2(x, cy), c.text,
                    tr(std::string("generate.stage.") + stage.name).c_str());
      cy += bold->FontSize + ui.px(2);
      const std::string kept =
          tr_n("generate.kept", stage.kept, {{"n", format_count(static_cast<std::uint64_t>(stage.kept))}});
      draw->AddText(small, small->FontSize, ImVec2(x, cy), c.muted, kept.c_str());
      cy += small->FontSize + ui.px(4);
      const float label_w = col_w * 0.42f;
      for (const auto& cand : stage.top) {
        const std::string label = kit::fit_text(mono, chip_label(cand.label), label_w - ui.px(4));
        draw->AddText(mono, mono->FontSize, ImVec2(x, cy + ui.px(3)), c.text, label.c_str());
        const std::string percent = format_percent(cand.p);
        const float pct_w = kit::text_size(small, percent).x;
        const float bar_room = std::max(ui.px(8), col_w - label_w - pct_w - ui.px(6));
        const float bar = max_p > 0 ? bar_room * cand.p / max_p : 0;
        draw->AddRectFilled(ImVec2(x + label_w, cy + ui.px(3)),
                            ImVec2(x + label_w + std::max(bar, ui.px(1)), cy + row_h - ui.px(3)),
                            kit::fade(c.accent, 0.75f), ui.px(2));
        draw->AddText(small, small->FontSize, ImVec2(x + label_w + bar + ui.px(4), cy + ui.px(4)), c.muted,
                      percent.c_str());
        cy += row_h;
      }
      rects.push_back(kit::css_rect(ui, ImVec2(x, y), ImVec2(x + col_w, cy)));
      row_bottom = std::max(row_bottom, cy);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, row_bottom));
    ImGui::Dummy(ImVec2(width, ui.px(4)));
  }
  layout["stages"] = std::move(rects);
  if (const Model::Candidate* last = model.last()) {
    const std::string text = last->id == lm::kDocumentToken
                                 ? tr("generate.last_end", {{"u", format_number(static_cast<float>(model.last_u()))}})
                                 : tr("generate.last", {{"u", format_number(static_cast<float>(model.last_u()))},
                                                        {"token", quoted(chip_label(last->label))},
                                                        {"p", format_percent(last->p)}});
    kit::wrapped(ui, text, c.muted, kit::Face::small);
  }
}

}  // namespace

template <>
void GenerateView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_prompt(ui, model, sentence_, width, asked);
    kit::gap(ui, 6);
    if (!model_panel_ready(ui, model, width, asked, layout_)) return;
    draw_text(ui, model, width);
    kit::gap(ui, 6);
    draw_buttons(ui, model, layout_, asked);
    draw_controls(ui, model, width, asked);
    kit::gap(ui, 8);
    draw_stages(ui, model, layout_, width);
  });
}

const ViewKind& generate_view_kind() { return view_kind<GenerateModel, GenerateView>(); }

}  // namespace neuralpath::ui
