// kv_cache_view.cpp: draws a const KvCacheModel with Dear ImGui: the model's loading panel until it
// is here; the formula for the cache's bytes with the model's shapes put in (per head, per
// layer, per token, for T tokens); T, key-value heads G and bytes per number as controls; one
// bar per choice of G (multi-head, grouped-query, multi-query); the engine's own cache after the
// prompt beside the formula; then the race: its button, its progress, and the time of every
// position with and without the cache as two lines, with the totals.
// layout() reports where it drew: {load: [x, y, w, h] (until the model is here), race: [x, y, w, h],
// chart: [...], heads: [[x, y, w, h]...]}
// (CSS px from the canvas's top left, last frame).
//
// It computes no byte and times nothing: every figure is the model's (kv_memory.h, KvDecoder,
// CacheRace).
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/model_panel.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/kv_cache/kv_cache_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace neuralpath::ui {

using KvCacheView = SentenceView<KvCacheModel, 256>;

using Model = KvCacheModel;
using Asked = KvCacheView::Asked;

namespace {

std::string count(long long n) { return format_count(static_cast<std::uint64_t>(n)); }
std::string bytes(std::int64_t n) { return format_bytes(static_cast<double>(n)); }

// The name of a choice of key-value heads: multi-head (G = H), multi-query (G = 1), grouped.
std::string heads_name(int g, int h) {
  if (g == h) return tr("kv-cache.multi_head", {{"g", count(g)}});
  if (g == 1) return tr("kv-cache.multi_query", {{"g", count(g)}});
  return tr("kv-cache.grouped", {{"g", count(g)}, {"share", count(h / g)}});
}

void draw_prompt(const UiContext& ui, const Model& model, kit::FollowingField<256>& prompt_field, float width,
                 Asked& asked) {
  kit::wrapped(ui, tr("kv-cache.prompt"), 0, kit::Face::bold);
  const kit::TextEntry entry{"##kvprompt", tr("kv-cache.use_prompt"), "", nullptr, 520, false};
  sentence_box(ui, model, prompt_field, entry, model.prompt(), width, asked);
}

// One bar per choice of G, for the learner's T and b: what sharing keys and values saves.
void draw_heads(const UiContext& ui, const Model& model, nlohmann::json& layout, float width) {
  const Palette& c = ui.colors();
  const lm::LmConfig& cfg = *model.config();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::vector<int> choices = model.kv_head_choices();
  const double most = static_cast<double>(model.memory_with(cfg.heads)->total);
  const float label_w = std::min(width * 0.45f, ui.px(230));
  const float row_h = small->FontSize + ui.px(10);
  nlohmann::json rects = nlohmann::json::array();
  for (int g : choices) {
    const lm::KvMemory m = *model.memory_with(g);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const std::string label = kit::fit_text(small, heads_name(g, cfg.heads), label_w - ui.px(6));
    draw->AddText(small, small->FontSize, ImVec2(at.x, at.y + ui.px(5)), c.text, label.c_str());
    const std::string value = bytes(m.total);
    const float value_w = kit::text_size(small, value).x;
    const float room = std::max(ui.px(8), width - label_w - value_w - ui.px(8));
    const float bar = most > 0 ? room * static_cast<float>(static_cast<double>(m.total) / most) : 0.0f;
    const bool chosen = g == model.kv_heads();
    draw->AddRectFilled(ImVec2(at.x + label_w, at.y + ui.px(3)),
                        ImVec2(at.x + label_w + std::max(bar, ui.px(2)), at.y + row_h - ui.px(3)),
                        kit::fade(c.accent, chosen ? 0.85f : 0.35f), ui.px(2));
    draw->AddText(small, small->FontSize, ImVec2(at.x + label_w + bar + ui.px(4), at.y + ui.px(5)),
                  chosen ? c.text : c.muted, value.c_str());
    rects.push_back(kit::css_rect(ui, at, ImVec2(at.x + width, at.y + row_h)));
    ImGui::Dummy(ImVec2(width, row_h));
  }
  layout["heads"] = std::move(rects);
}

void draw_memory(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  const Palette& c = ui.colors();
  const lm::LmConfig& cfg = *model.config();
  const lm::KvMemory m = *model.memory();
  kit::wrapped(ui,
               tr("kv-cache.shape", {{"L", count(cfg.layers)},
                                     {"H", count(cfg.heads)},
                                     {"dh", count(cfg.head_dim())},
                                     {"context", count(cfg.context)}}),
               c.muted, kit::Face::small);
  kit::gap(ui, 4);
  // The controls: T (logarithmic, a phone's thumb reaches a million), G, and b.
  kit::wrapped(ui, tr("kv-cache.tokens_label", {{"T", count(model.tokens())}}), 0, kit::Face::bold);
  ImGui::SetNextItemWidth(std::min(width, ui.px(520)));
  kit::push_field_style(ui);
  int t = static_cast<int>(model.tokens());
  if (ImGui::SliderInt("##kvT", &t, 1, static_cast<int>(Model::kMaxTokens), "",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    asked.push_back(Model::SetTokens{t});
  kit::pop_field_style();
  kit::gap(ui, 4);
  kit::wrapped(ui, tr("kv-cache.heads_label"), 0, kit::Face::bold);
  const std::vector<int> choices = model.kv_head_choices();
  std::vector<std::string> labels;
  int selected = -1;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    labels.push_back(heads_name(choices[i], cfg.heads));
    if (choices[i] == model.kv_heads()) selected = static_cast<int>(i);
  }
  const int picked = kit::segmented(ui, "kvheads", labels, selected, width);
  if (picked >= 0) asked.push_back(Model::SetKvHeads{choices[static_cast<std::size_t>(picked)]});
  kit::gap(ui, 4);
  kit::wrapped(ui, tr("kv-cache.bytes_label"), 0, kit::Face::bold);
  const int b = kit::segmented(ui, "kvbytes", {tr("kv-cache.float32"), tr("kv-cache.float16")},
                               model.bytes_per_number() == 4 ? 0 : 1, width);
  if (b >= 0) asked.push_back(Model::SetBytes{b == 0 ? 4 : 2});
  kit::gap(ui, 6);
  // The formula, each line with the model's numbers put in.
  const std::string G = count(m.kv_heads), L = count(m.layers), dh = count(m.head_dim), B = count(m.bytes_per_number);
  kit::wrapped(ui, tr("kv-cache.formula_head", {{"dh", dh}, {"b", B}, {"bytes", bytes(m.per_head_per_token)}}), 0,
               kit::Face::mono);
  kit::wrapped(ui,
               tr("kv-cache.formula_layer", {{"G", G}, {"dh", dh}, {"b", B}, {"bytes", bytes(m.per_layer_per_token)}}),
               0, kit::Face::mono);
  kit::wrapped(ui,
               tr("kv-cache.formula_token", {{"L", L}, {"G", G}, {"dh", dh}, {"b", B}, {"bytes", bytes(m.per_token)}}),
               0, kit::Face::mono);
  kit::wrapped(ui, tr("kv-cache.formula_total", {{"T", count(m.tokens)}, {"bytes", bytes(m.total)}}), 0,
               kit::Face::bold);
  kit::gap(ui, 4);
  draw_heads(ui, model, layout, width);
  kit::gap(ui, 4);
  kit::wrapped(
      ui,
      tr("kv-cache.engine_cache", {{"n", count(model.cached_tokens())},
                                   {"bytes", bytes(model.cached_bytes())},
                                   {"formula", bytes(lm::kv_memory(cfg, model.cached_tokens(), cfg.heads, 4).total)}}),
      c.muted, kit::Face::small);
}

// Time per position, with the cache (accent) and re-reading the text (muted): the second grows
// with the position, the first barely.
void draw_chart(const UiContext& ui, const lm::CacheRace& race, nlohmann::json& layout, float width) {
  const Palette& c = ui.colors();
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int n = race.positions();
  double top = 0;
  for (int i = 0; i < n; ++i) top = std::max({top, race.cached_seconds(i), race.full_seconds(i)});
  const float h = ui.px(width < ui.px(500) ? 140 : 180);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float axis_w = kit::text_size(small, format_seconds(top)).x + ui.px(6);
  // The axis labels are centred on the heights they name (0 on the axis, the top on the plot's
  // top edge): set above the axis, "0" read as a level the cached line seemed to dip below.
  const float half = small->FontSize * 0.5f;
  const ImVec2 lo(at.x + axis_w, at.y + h - small->FontSize - ui.px(4)), hi(at.x + width, at.y + half + ui.px(2));
  draw->AddLine(ImVec2(lo.x, hi.y), lo, c.border);
  draw->AddLine(lo, ImVec2(hi.x, lo.y), c.border);
  draw->AddText(small, small->FontSize, ImVec2(at.x, hi.y - half), c.muted, format_seconds(top).c_str());
  draw->AddText(small, small->FontSize, ImVec2(at.x, lo.y - half), c.muted, "0");
  const std::string axis = tr("kv-cache.chart_axis",
                              {{"first", count(race.prompt_length())}, {"last", count(race.prompt_length() + n - 1)}});
  draw->AddText(small, small->FontSize, ImVec2(lo.x, lo.y + ui.px(2)), c.muted, axis.c_str());
  const auto point = [&](int i, double s) {
    const float x = lo.x + (hi.x - lo.x) * (n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 0.5f);
    const float y = lo.y - (lo.y - hi.y) * (top > 0 ? static_cast<float>(s / top) : 0.0f);
    return ImVec2(x, y);
  };
  for (int series = 0; series < 2; ++series) {
    const ImU32 colour = series == 0 ? c.accent : c.muted;
    ImVec2 previous;
    bool has = false;
    for (int i = 0; i < n; ++i) {
      const double s = series == 0 ? race.cached_seconds(i) : race.full_seconds(i);
      if (s < 0) {
        has = false;
        continue;
      }
      const ImVec2 p = point(i, s);
      if (has) draw->AddLine(previous, p, colour, ui.px(2));
      previous = p;
      has = true;
    }
  }
  // The legend, top left inside the plot.
  float ly = hi.y;
  for (int series = 0; series < 2; ++series) {
    const ImU32 colour = series == 0 ? c.accent : c.muted;
    const std::string text = tr(series == 0 ? "kv-cache.with_cache" : "kv-cache.without_cache");
    draw->AddRectFilled(ImVec2(lo.x + ui.px(8), ly + ui.px(5)), ImVec2(lo.x + ui.px(20), ly + ui.px(9)), colour);
    draw->AddText(small, small->FontSize, ImVec2(lo.x + ui.px(24), ly), c.text, text.c_str());
    ly += small->FontSize + ui.px(2);
  }
  layout["chart"] = kit::css_rect(ui, at, ImVec2(at.x + width, at.y + h));
  ImGui::Dummy(ImVec2(width, h));
}

void draw_race(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  const Palette& c = ui.colors();
  const lm::CacheRace* race = model.race();
  if (model.racing()) {
    if (kit::button(ui, tr("kv-cache.stop").c_str())) asked.push_back(Stop{});
  } else if (kit::button(ui, tr(race ? "kv-cache.race_again" : "kv-cache.race").c_str(), true)) {
    asked.push_back(Model::Race{});
  }
  layout["race"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (!race) {
    kit::wrapped(ui, tr("kv-cache.race_explained"), c.muted, kit::Face::small);
    layout.erase("chart");
    return;
  }
  if (!race->finished()) {
    const float done = static_cast<float>(race->units_done()) / static_cast<float>(std::max(1, race->units_total()));
    const std::string overlay =
        tr("kv-cache.race_progress",
           {{"round", count(std::min(race->rounds_done() + 1, race->rounds()))}, {"rounds", count(race->rounds())}});
    kit::push_field_style(ui);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, c.accent);
    ImGui::ProgressBar(done, ImVec2(std::min(width, ui.px(480)), ui.px(20)), overlay.c_str());
    ImGui::PopStyleColor();
    kit::pop_field_style();
  }
  draw_chart(ui, *race, layout, width);
  if (race->rounds_done() > 0) {
    kit::wrapped(ui,
                 tr("kv-cache.race_result", {{"positions", count(race->positions())},
                                             {"cached", format_seconds(race->cached_total())},
                                             {"full", format_seconds(race->full_total())},
                                             {"ratio", format_setting(race->full_total() / race->cached_total())}}),
                 0, kit::Face::bold);
    kit::wrapped(
        ui,
        tr(race->same_tokens() ? "kv-cache.same_tokens" : "kv-cache.other_tokens", {{"n", count(race->mismatches())}}),
        race->same_tokens() ? c.muted : c.bad, kit::Face::small);
  }
}

}  // namespace

template <>
void KvCacheView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    kit::title(ui, tr("kv-cache.title"));
    if (!model_panel_ready(ui, model, width, asked, layout_)) return;
    const KvCacheSettings& s = model.settings();
    if (s.show_memory) draw_memory(ui, model, layout_, width, asked);
    if (s.show_memory && s.show_race) {
      kit::gap(ui, 8);
      kit::rule(ui, width);
      kit::gap(ui, 8);
    }
    if (s.show_race) {
      draw_prompt(ui, model, sentence_, width, asked);
      kit::gap(ui, 6);
      draw_race(ui, model, layout_, width, asked);
    }
  });
}

const ViewKind& kv_cache_view_kind() { return view_kind<KvCacheModel, KvCacheView>(); }

}  // namespace neuralpath::ui
