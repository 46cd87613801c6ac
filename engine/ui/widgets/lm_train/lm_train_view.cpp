// lm_train_view.cpp: draws a const LmTrainModel with Dear ImGui: Train/Pause and Start again, the
// download's progress bar, the step; the loss and validation curves with the bigram model's
// line and the steps where a previous-token head and an induction head formed (the phase
// change) marked on them; every head's two scores (a tap picks the head shown); that head's
// attention on the learner's text and on a random sequence shown twice; the latest sample; a
// field for the learner's text. layout() reports {train, reset, chart, heads[{layer, head,
// rect}], text_matrix, probe_matrix} (CSS px from the canvas's top left, last frame).
//
// It trains and measures nothing: every curve, score, sample and weight is the worker's, kept by
// the model.  [SECTION] Controls    Train/Pause, Start again, progress bar, step, error [SECTION]
// Curves      loss, validation, bigram line, the two heads' steps marked [SECTION] Heads       each
// head's previous-token and induction scores; a tap picks one [SECTION] Attention   the picked head
// on the learner's text and on the repeated probe [SECTION] Sample, input
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/theme.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/lm_train/lm_train_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace neuralpath::ui {

using LmTrainView = SentenceView<LmTrainModel, 2048>;

using Model = LmTrainModel;
using Status = LmTrainModel::Status;
using Asked = LmTrainView::Asked;

namespace {

std::string count(long long n) { return format_count(static_cast<std::uint64_t>(std::max(0LL, n))); }

std::string head_name(int layer, int head) {
  return tr("lm_train.head_name", {{"layer", std::to_string(layer)}, {"head", std::to_string(head)}});
}

// Bytes as the page prints a download ("1.2 MB"): the catalogue has no unit words, so kilobytes
// and megabytes are written with the number format and their SI symbols.
std::string bytes_text(double bytes) {
  if (bytes >= 1e6) return format_number(static_cast<float>(bytes / 1e6)) + " MB";
  return count(static_cast<long long>(std::lround(bytes / 1e3))) + " kB";
}

// [SECTION] Controls ------------------------------------------------------------------------------

void draw_controls(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  const Palette& c = ui.colors();
  const Status status = model.status();
  const char* go = status == Status::training   ? "lm_train.pause"
                   : status == Status::finished ? "lm_train.trained"
                   : model.latest().step > 0    ? "lm_train.resume"
                                                : "lm_train.train";
  // A finger needs a target taller than the label: 44 CSS px.
  const std::string go_label = tr(go) + "##go";
  const float go_w = kit::text_size(kit::font(ui, kit::Face::body), tr(go)).x + ui.px(36);
  ImGui::BeginDisabled(status == Status::finished);
  if (kit::button(ui, go_label.c_str(), true, ImVec2(std::max(go_w, ui.px(96)), ui.px(44)))) {
    if (status == Status::training)
      asked.push_back(Pause{});
    else
      asked.push_back(Train{});
  }
  ImGui::EndDisabled();
  layout["train"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::SameLine(0, ui.px(8));
  const std::string reset = tr("lm_train.reset") + "##reset";
  if (kit::button(ui, reset.c_str(), false, ImVec2(0, ui.px(44)))) asked.push_back(Model::ResetTraining{});
  layout["reset"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());

  kit::gap(ui, 4);
  ImGui::PushFont(kit::font(ui, kit::Face::small));
  if (status == Status::error) {
    ImGui::PopFont();
    kit::wrapped(ui, model.error(), c.bad, kit::Face::small);
    return;
  }
  if (const auto& d = model.download()) {
    const std::string what = tr(d->what == "code" ? "lm_train.what_code" : "lm_train.what_data");
    const std::string line =
        d->total > 0 ? tr("lm_train.downloading",
                          {{"what", what}, {"loaded", bytes_text(d->loaded)}, {"total", bytes_text(d->total)}})
                     : tr("lm_train.downloading_unknown", {{"what", what}, {"loaded", bytes_text(d->loaded)}});
    ImGui::TextUnformatted(line.c_str());
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 end(at.x + width, at.y + ui.px(8));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(at, end, kit::fade(c.muted, 0.25f), ui.px(4));
    const float done = d->total > 0 ? static_cast<float>(std::clamp(d->loaded / d->total, 0.0, 1.0)) : 0.0f;
    draw->AddRectFilled(at, ImVec2(at.x + width * done, end.y), c.accent, ui.px(4));
    layout["progress"] = kit::css_rect(ui, at, end);
    ImGui::Dummy(ImVec2(width, ui.px(8)));
  } else if (status == Status::loading && model.catching_up() == 0) {
    ImGui::TextUnformatted(tr("lm_train.starting").c_str());
  }
  if (model.catching_up() > 0)
    kit::wrapped(ui, tr("lm_train.catching_up", {{"step", count(model.catching_up())}}), c.muted, kit::Face::small);
  const std::string step =
      tr("lm_train.step_of", {{"step", count(model.latest().step)}, {"total", count(model.steps())}}) + " " +
      tr("lm_train.seed", {{"seed", count(model.seed())}});
  ImGui::TextUnformatted(step.c_str());
  ImGui::PopFont();
}

// [SECTION] Curves --------------------------------------------------------------------------------

void draw_curves(const UiContext& ui, const Model& model, nlohmann::json& layout, float width) {
  const Palette& c = ui.colors();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImFont* small = kit::font(ui, kit::Face::small);
  kit::title(ui, tr("lm_train.plot_loss"));
  const float plot_h = ui.px(width >= ui.px(600) ? 180 : 130);
  const float label_w = ui.px(34);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 box_min(at.x + label_w, at.y), box_max(at.x + width, at.y + plot_h);
  draw->AddRect(box_min, box_max, c.border, ui.px(2));
  layout["chart"] = kit::css_rect(ui, box_min, box_max);

  // The y axis: 0 to the highest loss seen (at least the bigram line and the uniform guess of
  // the first steps), so the line to beat always shows.
  const auto& curve = model.curve();
  const float bigram = model.ready() ? model.ready()->bigram_loss : NAN;
  float top = std::isfinite(bigram) ? bigram * 1.15f : 1.0f;
  for (const auto& p : curve) {
    if (std::isfinite(p.loss)) top = std::max(top, p.loss);
    if (std::isfinite(p.val_loss)) top = std::max(top, p.val_loss);
  }
  top = std::ceil(top);
  const float steps = static_cast<float>(std::max(1, model.steps()));
  const auto x_of = [&](float step) {
    return box_min.x + (box_max.x - box_min.x) * std::clamp(step / steps, 0.0f, 1.0f);
  };
  const auto y_of = [&](float loss) {
    return box_max.y - (box_max.y - box_min.y) * std::clamp(loss / top, 0.0f, 1.0f);
  };
  for (float v : {0.0f, top / 2, top}) {
    const std::string label = format_number(v);
    const ImVec2 size = kit::text_size(small, label);
    draw->AddText(small, small->FontSize, ImVec2(box_min.x - size.x - ui.px(4), y_of(v) - size.y / 2), c.muted,
                  label.c_str());
  }

  // The phase change: vertical marks where each head first reached 0.5, labelled at the top.
  const auto mark = [&](const std::optional<lmworker::Milestone>& m, const char* key, ImU32 color, int row) {
    if (!m) return;
    const float x = x_of(static_cast<float>(m->step));
    draw->AddLine(ImVec2(x, box_min.y), ImVec2(x, box_max.y), color, ui.px(1.5f));
    const std::string label = tr(key) + " · " + count(m->step);
    const ImVec2 size = kit::text_size(small, label);
    const float lx = std::min(x + ui.px(3), box_max.x - size.x - ui.px(2));
    draw->AddText(small, small->FontSize,
                  ImVec2(std::max(box_min.x + ui.px(2), lx), box_min.y + ui.px(2) + row * (size.y + ui.px(1))), color,
                  label.c_str());
  };
  mark(model.latest().previous_token, "lm_train.mark_previous", c.tip, 0);
  mark(model.latest().induction, "lm_train.mark_induction", c.bad, 1);

  if (std::isfinite(bigram)) {  // the line to beat, dashed
    const float y = y_of(bigram);
    for (float x = box_min.x; x < box_max.x; x += ui.px(8))
      draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + ui.px(4), box_max.x), y), c.muted, ui.px(1.5f));
  }
  const auto polyline = [&](bool validation, ImU32 color) {
    ImVec2 last;
    bool have = false;
    for (const auto& p : curve) {
      const float v = validation ? p.val_loss : p.loss;
      if (!std::isfinite(v)) continue;
      const ImVec2 now(x_of(static_cast<float>(p.step)), y_of(v));
      if (have)
        draw->AddLine(last, now, color, ui.px(validation ? 2.0f : 1.5f));
      else if (validation)
        draw->AddCircleFilled(now, ui.px(2), color);
      last = now;
      have = true;
    }
  };
  polyline(false, kit::fade(c.accent, 0.7f));
  polyline(true, c.good);
  ImGui::Dummy(ImVec2(width, plot_h + ui.px(4)));

  // The legend, with the latest numbers.
  ImGui::PushFont(small);
  const auto entry = [&](ImU32 color, const std::string& text) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = small->FontSize;
    draw->AddRectFilled(ImVec2(p.x, p.y + h * 0.4f), ImVec2(p.x + ui.px(14), p.y + h * 0.6f), color);
    ImGui::Dummy(ImVec2(ui.px(18), h));
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(text.c_str());
  };
  const auto& last = model.latest();
  const auto value = [](float v) { return std::isfinite(v) ? " " + format_number(v) : std::string(); };
  kit::Flow flow(width, ui.px(14), ui.px(2));
  const std::string parts[3] = {tr("lm_train.legend_train") + value(last.loss),
                                tr("lm_train.legend_val") + value(last.val_loss),
                                tr("lm_train.legend_bigram") + value(bigram)};
  const ImU32 colors[3] = {kit::fade(c.accent, 0.7f), c.good, c.muted};
  for (int k = 0; k < 3; ++k) {
    flow.place(ImVec2(ui.px(18) + kit::text_size(small, parts[k]).x, small->FontSize));
    entry(colors[k], parts[k]);
  }
  flow.end();
  ImGui::PopFont();
}

// [SECTION] Heads ---------------------------------------------------------------------------------

void draw_heads(const UiContext& ui, const Model& model, nlohmann::json& layout, float width, Asked& asked) {
  const Palette& c = ui.colors();
  const auto& heads = model.latest().heads;
  kit::title(ui, tr("lm_train.heads_title"));
  if (heads.empty()) {
    kit::wrapped(ui, tr("lm_train.attention_none"), c.muted, kit::Face::small);
    return;
  }
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int per_layer = model.ready() ? model.ready()->heads : 1;
  const float cell_w = std::min(ui.px(150), (width - ui.px(6) * (per_layer - 1)) / std::max(1, per_layer));
  const float bar_h = ui.px(7), cell_h = small->FontSize * 1 + bar_h * 2 + ui.px(14);
  nlohmann::json rects = nlohmann::json::array();
  int current_layer = -1;
  ImVec2 row_at = ImGui::GetCursorScreenPos();
  for (const auto& h : heads) {
    if (h.layer != current_layer) {
      if (current_layer >= 0) row_at.y += cell_h + ui.px(6);
      current_layer = h.layer;
    }
    const ImVec2 at(row_at.x + h.head * (cell_w + ui.px(6)), row_at.y);
    const ImVec2 end(at.x + cell_w, at.y + cell_h);
    ImGui::SetCursorScreenPos(at);
    ImGui::PushID(h.layer * 64 + h.head);
    if (ImGui::InvisibleButton("##head", ImVec2(cell_w, cell_h))) asked.push_back(Model::SetLayerHead{h.layer, h.head});
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    const bool picked = h.layer == model.layer() && h.head == model.head();
    draw->AddRectFilled(at, end, kit::fade(c.muted, hovered ? 0.2f : 0.1f), ui.px(4));
    if (picked) draw->AddRect(at, end, c.accent, ui.px(4), 0, ui.px(2));
    draw->AddText(small, small->FontSize, ImVec2(at.x + ui.px(5), at.y + ui.px(3)), c.text,
                  head_name(h.layer, h.head).c_str());
    const auto bar = [&](float y, float score, ImU32 color) {
      const float inner = cell_w - ui.px(10);
      draw->AddRectFilled(ImVec2(at.x + ui.px(5), y), ImVec2(at.x + ui.px(5) + inner, y + bar_h),
                          kit::fade(color, 0.2f), ui.px(2));
      draw->AddRectFilled(ImVec2(at.x + ui.px(5), y),
                          ImVec2(at.x + ui.px(5) + inner * std::clamp(score, 0.0f, 1.0f), y + bar_h), color, ui.px(2));
    };
    const float y0 = at.y + ui.px(5) + small->FontSize;
    bar(y0, h.previous_token, c.tip);
    bar(y0 + bar_h + ui.px(3), h.induction, c.bad);
    rects.push_back({{"layer", h.layer}, {"head", h.head}, {"rect", kit::css_rect(ui, at, end)}});
  }
  ImGui::SetCursorScreenPos(ImVec2(row_at.x, row_at.y + cell_h + ui.px(4)));
  layout["heads"] = std::move(rects);
  // The two bars' colours, and what a tap does.
  ImGui::PushFont(small);
  const std::string legend = tr("lm_train.heads_pick");
  kit::Flow flow(width, ui.px(14), ui.px(2));
  for (const auto& [key, color] :
       {std::pair{"lm_train.heads_previous", c.tip}, std::pair{"lm_train.heads_induction", c.bad}}) {
    const std::string text = tr(key);
    const ImVec2 p = flow.place(ImVec2(ui.px(18) + kit::text_size(small, text).x, small->FontSize));
    draw->AddRectFilled(ImVec2(p.x, p.y + small->FontSize * 0.3f),
                        ImVec2(p.x + ui.px(14), p.y + small->FontSize * 0.7f), color);
    draw->AddText(small, small->FontSize, ImVec2(p.x + ui.px(18), p.y), c.muted, text.c_str());
  }
  flow.end();
  ImGui::PopFont();
  kit::wrapped(ui, legend, c.muted, kit::Face::small);
}

// [SECTION] Attention -----------------------------------------------------------------------------

void draw_attention(const UiContext& ui, const Model& model, nlohmann::json& layout, float width) {
  const Palette& c = ui.colors();
  const int per_layer = model.ready() ? model.ready()->heads : 0;
  const int index = model.layer() * per_layer + model.head();
  const std::string name = head_name(model.layer(), model.head());
  const bool side_by_side = width >= ui.px(600);
  const float side = side_by_side ? std::min((width - ui.px(16)) / 2, ui.px(300)) : std::min(width, ui.px(300));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  float bottom = origin.y;
  int k = 0;
  for (const auto* which : {&model.text_attention(), &model.probe_attention()}) {
    const bool probe = k == 1;
    const ImVec2 at = side_by_side ? ImVec2(origin.x + k * (side + ui.px(16)), origin.y)
                                   : ImVec2(origin.x, bottom + (k ? ui.px(10) : 0));
    ImGui::SetCursorScreenPos(at);
    ImGui::PushTextWrapPos(at.x + (side_by_side ? side : width));
    ImGui::PushFont(kit::font(ui, kit::Face::bold));
    ImGui::TextWrapped("%s",
                       tr(probe ? "lm_train.attention_probe" : "lm_train.attention_text", {{"head", name}}).c_str());
    ImGui::PopFont();
    ImGui::PopTextWrapPos();
    const auto& a = *which;
    if (!a || index < 0 || index >= static_cast<int>(a->weights.size()) || a->tokens.empty()) {
      ImGui::SetCursorScreenPos(ImVec2(at.x, ImGui::GetCursorScreenPos().y));
      kit::wrapped(ui, tr("lm_train.attention_none"), c.muted, kit::Face::small);
      bottom = std::max(bottom, ImGui::GetCursorScreenPos().y);
      ++k;
      continue;
    }
    const int T = static_cast<int>(a->tokens.size());
    const std::vector<float>& w = a->weights[static_cast<std::size_t>(index)];
    const ImVec2 m0(at.x, ImGui::GetCursorScreenPos().y + ui.px(2));
    const float cell = side / static_cast<float>(T);
    for (int i = 0; i < T; ++i)
      for (int j = 0; j <= i && static_cast<std::size_t>(i * T + j) < w.size(); ++j) {
        const float v = w[static_cast<std::size_t>(i * T + j)];
        if (!std::isfinite(v)) continue;
        draw->AddRectFilled(ImVec2(m0.x + j * cell, m0.y + i * cell),
                            ImVec2(m0.x + (j + 1) * cell, m0.y + (i + 1) * cell), heat_color(ui.theme, v));
      }
    const ImVec2 m1(m0.x + side, m0.y + side);
    draw->AddRect(m0, m1, c.border);
    layout[probe ? "probe_matrix" : "text_matrix"] = kit::css_rect(ui, m0, m1);
    ImGui::SetCursorScreenPos(ImVec2(m0.x, m1.y + ui.px(4)));
    if (a->cut) kit::wrapped(ui, tr("lm_train.attention_cut", {{"n", std::to_string(T)}}), c.muted, kit::Face::small);
    bottom = std::max(bottom, ImGui::GetCursorScreenPos().y);
    ++k;
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom));
  ImGui::Dummy(ImVec2(width, 0));
}

// [SECTION] Sample, input ---------------------------------------------------------------------------

void draw_sample(const UiContext& ui, const Model& model) {
  const Palette& c = ui.colors();
  if (model.samples().empty()) {
    kit::wrapped(ui, tr("lm_train.sample_none"), c.muted, kit::Face::small);
    return;
  }
  const auto& s = model.samples().back();
  kit::title(ui, tr("lm_train.sample_title", {{"prompt", tr("lm_train.default_prompt")}, {"step", count(s.step)}}));
  kit::wrapped(ui, kit::drawable_only(s.text), c.text, kit::Face::mono);
}

void draw_input(const UiContext& ui, const Model& model, kit::FollowingField<2048>& input_field, float width,
                Asked& asked) {
  kit::title(ui, tr("lm_train.your_text"));
  sentence_box(ui, model, input_field, {"##text", tr("lm_train.show"), "##show"}, model.text(), width, asked);
}

}  // namespace

template <>
void LmTrainView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  layout_ = nlohmann::json::object();
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    kit::title(ui, tr("lm_train.title"));
    draw_controls(ui, model, layout_, width, asked);
    kit::gap(ui, 8);
    draw_curves(ui, model, layout_, width);
    kit::gap(ui, 10);
    draw_heads(ui, model, layout_, width, asked);
    kit::gap(ui, 10);
    draw_attention(ui, model, layout_, width);
    kit::gap(ui, 10);
    draw_sample(ui, model);
    kit::gap(ui, 10);
    draw_input(ui, model, sentence_, width, asked);
  });
}

const ViewKind& lm_train_view_kind() { return view_kind<LmTrainModel, LmTrainView>(); }

}  // namespace neuralpath::ui
