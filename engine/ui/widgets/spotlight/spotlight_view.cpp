// spotlight_view.cpp: draws a const SpotlightModel with Dear ImGui — sentence and head choices,
// token chips with beams whose thickness is the engine's weight (swinging to new weights over a
// few frames), the blend written as a weighted sum, and "Try your own sentence". Clicks and the
// text field come back as the model's commands; the beams on screen, the text being typed and
// the open explanation are the view's own. layout() reports where the chips, their
// percentages and the beams were drawn (CSS pixels from the canvas's top left, last frame):
//   {chips: [[x, y, w, h]...], labels: [[x, y, w, h]...],
//    beams: [{from, to, width, points: [[x, y]...], dot: [x, y, r]}...]}
//
// The beams' thickness and labels are the engine's softmax weights (Trace::spotlight, through the
// model); the view only eases the beams from old weights to new ones.
#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/widget_card.h"
#include "engine/ui/widgets/widget_view.h"
#include "engine/widgets/spotlight/spotlight_model.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace neuralpath::ui {

class SpotlightView : public LaidOutView<SpotlightModel> {
 public:
  void draw(const UiContext& ui, const SpotlightModel& model, Asked& asked);
  void update(const SpotlightModel& model, float dt);  // the beams swing toward the model's weights

 private:
  std::vector<float> shown_;  // beam weights on screen, swinging toward the model's
  bool reduced_motion_ = false;
  kit::FollowingField<512> input_;  // the learner's sentence
};

using Asked = SpotlightView::Asked;

namespace {
constexpr float kSwingRate = 5.0f;  // 1/s: how quickly the beams move to new weights
constexpr int kBeamSamples = 24;    // points per beam in layout()

// [x, y, width, height] in CSS pixels from the canvas's top left, as the page's rectangles.
// A point of the cubic Bézier ImGui draws for a beam (t in 0..1).
ImVec2 bezier_at(ImVec2 p0, ImVec2 p1, ImVec2 p2, ImVec2 p3, float t) {
  const float u = 1 - t, a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
  return ImVec2(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y);
}

void draw_choices(const UiContext& ui, const SpotlightModel& model, kit::FollowingField<512>& input_field, float width,
                  Asked& asked) {
  if (model.sentences().size() > 1) {
    const int picked = kit::segmented(ui, "sentence", model.labels(), model.sentence_index(), width);
    // The chosen sentence again after a refusal still counts: it puts that sentence back in the box.
    if (picked >= 0 && (picked != model.sentence_index() || !model.input_error().empty()))
      asked.push_back(SpotlightModel::ChooseSentence{picked});
    if (picked >= 0) input_field.refill();  // the box shows the chosen sentence, even over unsent typing (#15)
  }
  const int count = model.trace().heads;
  if (count > 1) {
    std::vector<std::string> heads = {tr("widgets.all_heads")};
    for (int h = 0; h < count; ++h) heads.push_back(tr("widgets.head", {{"n", std::to_string(h + 1)}}));
    const int picked = kit::segmented(ui, "head", heads, model.head() + 1, width);
    if (picked >= 0 && picked - 1 != model.head()) asked.push_back(SetHead{picked - 1});
  }
  kit::gap(ui, 2);
}

void draw_beams(const UiContext& ui, const SpotlightModel& model, Explainer& explainer, nlohmann::json& layout,
                const std::vector<float>& on_screen, float width, Asked& asked) {
  const Trace& t = model.trace();
  const Vector& weights = model.weights();
  const int query = model.query();
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::body);
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto n = static_cast<int>(t.tokens.size());
  const ImVec2 pad(ui.px(9), ui.px(5));
  const float chip_h = face->FontSize + 2 * pad.y;
  const float label_h = small->FontSize;
  const float arc_h = std::max(ui.px(28), chip_h * 1.3f);  // room above each row for the beams
  const float pitch = arc_h + chip_h + ui.px(3) + label_h + ui.px(8);
  const float between = chip_h * 0.9f;  // extra room between lines: beams to other lines cross it
  const float gap_x = ui.px(7);
  const float label_min = kit::text_size(small, "00.0%").x;

  // Layout: chips flow left to right and wrap; each slot is wide enough for its percentage.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  std::vector<ImVec2> chip_min(static_cast<std::size_t>(n)), chip_size(static_cast<std::size_t>(n));
  std::vector<int> row_of(static_cast<std::size_t>(n));
  // a word wider than the card (a pasted link, a long run of letters) is cut with "…"
  std::vector<std::string> chip_text(static_cast<std::size_t>(n));
  float x = 0, y = 0;
  int row = 0;
  for (int j = 0; j < n; ++j) {
    chip_text[static_cast<std::size_t>(j)] =
        kit::fit_text(face, t.labels[static_cast<std::size_t>(j)], width - 2 * pad.x);
    const ImVec2 text = kit::text_size(face, chip_text[static_cast<std::size_t>(j)]);
    const ImVec2 size(std::min(text.x + 2 * pad.x, width), chip_h);
    const float slot = std::max(size.x, label_min);
    if (x > 0 && x + slot > width) {
      x = 0;
      y += pitch + between;
      ++row;
    }
    row_of[static_cast<std::size_t>(j)] = row;
    chip_min[static_cast<std::size_t>(j)] = ImVec2(origin.x + x + (slot - size.x) * 0.5f, origin.y + y + arc_h);
    chip_size[static_cast<std::size_t>(j)] = size;
    x += slot + gap_x;
  }
  const float height = y + pitch;

  // Beams first (under the chips), lightest first so the strong ones stay on top.
  const auto top_of = [&](int j) {
    return ImVec2(chip_min[static_cast<std::size_t>(j)].x + chip_size[static_cast<std::size_t>(j)].x * 0.5f,
                  chip_min[static_cast<std::size_t>(j)].y);
  };
  // A beam's end dot is at most this wide; a beam that arrives from below stops that far under
  // the chip's percentage, so neither dot nor stroke reaches the label (on a phone the sentence
  // wraps and the strongest beam often comes up from the next line).
  const float dot_max = ui.px(6.0f);
  const auto bottom_of = [&](int j) {  // under the chip's percentage
    const ImVec2 top = top_of(j);
    return ImVec2(top.x, top.y + chip_h + ui.px(3) + label_h + ui.px(2) + dot_max);
  };
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const auto shown = [&](int j) {
    return j < static_cast<int>(on_screen.size()) ? on_screen[static_cast<std::size_t>(j)] : weights[j];
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return shown(a) < shown(b); });
  nlohmann::json beams = nlohmann::json::array(), chips = nlohmann::json::array(), labels = nlohmann::json::array();
  for (int j : order) {
    if (j == query) continue;
    const float w = std::clamp(shown(j), 0.0f, 1.0f);
    const ImU32 color = kit::fade(c.accent, 0.18f + 0.82f * std::sqrt(w));
    const float thickness = ui.px(1.0f) + ui.px(10.0f) * w;
    const int rows_apart = row_of[static_cast<std::size_t>(j)] - row_of[static_cast<std::size_t>(query)];
    ImVec2 from, to, c0, c1;
    if (rows_apart == 0) {  // same line: an arc over the chips between them
      from = top_of(query);
      to = top_of(j);
      const float lift = std::min(arc_h * 0.95f, arc_h * 0.3f + std::fabs(to.x - from.x) * 0.22f);
      const float lean = (to.x - from.x) * 0.12f;
      c0 = ImVec2(from.x + lean, from.y - lift);
      c1 = ImVec2(to.x - lean, to.y - lift);
    } else {  // another line: an S through the gap between the lines, never across a chip
      const bool up = rows_apart < 0;
      from = up ? top_of(query) : bottom_of(query);
      to = up ? bottom_of(j) : top_of(j);
      const float bend = (to.y - from.y) * 0.45f;
      c0 = ImVec2(from.x, from.y + bend);
      c1 = ImVec2(to.x, to.y - bend);
    }
    const float dot = ui.px(2.0f) + ui.px(4.0f) * w;
    draw->AddBezierCubic(from, c0, c1, to, color, thickness);
    draw->AddCircleFilled(to, dot, color);
    nlohmann::json points = nlohmann::json::array();
    for (int k = 0; k <= kBeamSamples; ++k) {
      const ImVec2 p = bezier_at(from, c0, c1, to, static_cast<float>(k) / kBeamSamples);
      points.push_back({p.x / ui.scale, p.y / ui.scale});
    }
    beams.push_back({{"from", query},
                     {"to", j},
                     {"width", thickness / ui.scale},
                     {"points", std::move(points)},
                     {"dot", {to.x / ui.scale, to.y / ui.scale, dot / ui.scale}}});
  }

  // Chips: click (or Space/Enter) makes a token the query. Labels: the engine's weights.
  for (int j = 0; j < n; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    const ImVec2 min = chip_min[uj], max(min.x + chip_size[uj].x, min.y + chip_size[uj].y);
    ImGui::PushID(j);
    ImGui::SetCursorScreenPos(min);
    if (ImGui::InvisibleButton("##chip", chip_size[uj])) asked.push_back(SpotlightModel::SetQuery{j});
    if (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false))
      asked.push_back(SpotlightModel::SetQuery{j});
    const bool hovered = ImGui::IsItemHovered();
    const bool is_query = j == query;
    const ImU32 fill = is_query ? c.accent : hovered ? kit::mix(c.page, c.accent, 0.12f) : c.page;
    draw->AddRectFilled(min, max, fill, ui.px(6));
    if (!t.known[uj] && !is_query)
      kit::dashed_rect(draw, min, max, c.muted, ui.px(4), ui.px(1.2f));
    else
      draw->AddRect(min, max, is_query ? c.accent : hovered ? c.accent : c.border, ui.px(6), 0, ui.px(1));
    if (ImGui::IsItemFocused())
      draw->AddRect(ImVec2(min.x - ui.px(2), min.y - ui.px(2)), ImVec2(max.x + ui.px(2), max.y + ui.px(2)), c.accent,
                    ui.px(8), 0, ui.px(2));
    draw->PushClipRect(min, max, true);
    draw->AddText(face, face->FontSize, ImVec2(min.x + pad.x, min.y + pad.y), is_query ? text_on(c.accent) : c.text,
                  chip_text[uj].c_str());
    draw->PopClipRect();

    const std::string pct = format_percent(weights[j]);
    const float pw = kit::text_size(small, pct).x;
    const ImVec2 label_at(min.x + (chip_size[uj].x - pw) * 0.5f, max.y + ui.px(3));
    // The card's colour behind the percentage: a beam crossing between lines passes under it.
    draw->AddRectFilled(ImVec2(label_at.x - ui.px(2), label_at.y),
                        ImVec2(label_at.x + pw + ui.px(2), label_at.y + label_h), c.panel, ui.px(2));
    chips.push_back(kit::css_rect(ui, min, max));
    labels.push_back(kit::css_rect(ui, label_at, ImVec2(label_at.x + pw, label_at.y + label_h)));
    ImGui::SetCursorScreenPos(label_at);
    NumberStyle style;
    style.small = true;
    style.color = j == model.heaviest() ? c.accent : c.muted;  // the largest weight, the query's own too
    explainer.number(
        ui, "##weight", pct, [&model, j] { return model.explain_weight(j); }, style);
    ImGui::PopID();
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
  ImGui::Dummy(ImVec2(width, 0));
  layout = {{"chips", std::move(chips)}, {"labels", std::move(labels)}, {"beams", std::move(beams)}};

  const int head = model.head();
  std::string legend = tr(t.heads == 1 ? "spotlight.legend_one_head"
                          : head < 0   ? "spotlight.legend_mean"
                                       : "spotlight.legend_head",
                          {{"heads", std::to_string(t.heads)}, {"n", std::to_string(head + 1)}});
  if (std::find(t.known.begin(), t.known.end(), false) != t.known.end()) legend += tr("spotlight.legend_seeded");
  kit::wrapped(ui, legend, c.muted, kit::Face::small);
}

void draw_blend(const UiContext& ui, const SpotlightModel& model, Explainer& explainer, float width) {
  const Trace& t = model.trace();
  const int query_index = model.query();
  const Palette& c = ui.colors();
  ImFont* body = kit::font(ui, kit::Face::body);
  ImFont* bold = kit::font(ui, kit::Face::bold);
  kit::gap(ui, 4);
  kit::Flow flow(width, ui.px(5), ui.px(4));
  const auto text = [&](const std::string& s, ImFont* face, ImU32 color) {
    flow.place(kit::text_size(face, s));
    ImGui::PushFont(face);
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(s.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
  };
  // One head's new vector is exactly this weighted sum of value vectors; with several heads
  // each blends its own values, so the mean is shown as "attention of", not as a new vector.
  const std::string query =
      quote_token(kit::fit_text(bold, t.labels[static_cast<std::size_t>(query_index)], width / 2));
  text(tr(model.head() < 0 ? "spotlight.blend_mean" : "spotlight.blend_new", {{"query", query}}), bold, c.text);
  const auto& blend_terms = model.blend();
  for (std::size_t b = 0; b < blend_terms.size(); ++b) {
    const SpotlightModel::BlendTerm& term = blend_terms[b];
    if (b > 0) text("+", body, c.muted);
    const std::string value = format_number(term.weight);
    flow.place(kit::text_size(body, value));
    ImGui::PushID(static_cast<int>(b));
    NumberStyle style;
    style.color = b == 0 ? c.accent : c.text;
    if (term.token >= 0)
      explainer.number(
          ui, "##term", value, [&model, j = term.token] { return model.explain_weight(j); }, style);
    else
      explainer.number(
          ui, "##others", value, [&model] { return model.explain_others(); }, style);
    ImGui::PopID();
    // a word wider than the line is cut with "…": the flow places each piece as one line
    text(term.token >= 0 ? "× " + kit::fit_text(body, t.labels[static_cast<std::size_t>(term.token)],
                                                width - kit::text_size(body, "× ").x)
                         : tr("spotlight.times_others", {{"n", std::to_string(term.count)}}),
         body, c.text);
  }
  // The resulting vector itself, entry by entry, as the blend step recorded it.
  if (const Step* blend = find_step(t, StepKind::blend, model.head())) {
    flow.newline();
    text("= [", body, c.muted);
    for (int col = 0; col < blend->result.values.cols(); ++col) {
      const std::string value = format_number(blend->result.values(query_index, col));
      ImFont* mono = kit::font(ui, kit::Face::mono);
      const ImVec2 size = kit::text_size(mono, value);
      // The last two entries and "]" share a line: a wrapped vector never ends on "0.22 ]" alone.
      const int cols = static_cast<int>(blend->result.values.cols());
      if (col + 2 == cols)
        flow.keep_together(size.x + kit::text_size(mono, format_number(blend->result.values(query_index, col + 1))).x +
                           kit::text_size(body, "]").x + 2 * flow.spacing());
      flow.place(size);
      ImGui::PushID(1000 + col);
      NumberStyle style;
      style.mono = true;
      explainer.number(
          ui, "##entry", value, [&model, col] { return model.explain_entry(col); }, style);
      ImGui::PopID();
    }
    text("]", body, c.muted);
  }
  flow.end();
}

void draw_input(const UiContext& ui, const SpotlightModel& model, kit::FollowingField<512>& input_field,
                nlohmann::json& layout, float width, Asked& asked) {
  const Palette& c = ui.colors();
  kit::title(ui, tr("spotlight.your_sentence"));
  // The field shows the model's field whenever it changes: the sentence on screen, or the one
  // just refused (typed, or sent as a command), so the message under the box speaks of what it holds.
  if (input_field.draw(ui, {"##sentence", tr("spotlight.show")}, model.field(), width))
    asked.push_back(SetSentence{input_field.text()});
  layout["field"] = input_field.text();  // what the box holds (a test compares it with the message)
  if (!model.input_error().empty()) {
    kit::wrapped(ui, model.input_error(), c.bad, kit::Face::small);
  } else if (model.custom()) {
    const Trace& t = model.trace();
    if (!model.has_query_word())  // "Your sentence has no 'it': the spotlight asks about 'mat'."
      kit::wrapped(ui,
                   tr("playback-ui.spotlight_no_query_word",
                      {{"word", quote_token(model.query_word())},
                       {"query", quote_token(t.labels[static_cast<std::size_t>(model.query())])}}),
                   c.text, kit::Face::small);
    std::string seeded;
    for (std::size_t i = 0; i < t.tokens.size(); ++i)
      if (!t.known[i]) seeded += (seeded.empty() ? "" : ", ") + quote_token(t.labels[i]);
    kit::wrapped(ui, seeded.empty() ? tr("spotlight.all_known") : tr("spotlight.seeded", {{"words", seeded}}), c.muted,
                 kit::Face::small);
  }
}

}  // namespace

void SpotlightView::update(const SpotlightModel& model, float dt) {
  if (!model.has_trace()) return;
  const Vector& weights = model.weights();
  const auto n = static_cast<std::size_t>(weights.size());
  if (shown_.size() != n || reduced_motion_) {  // a different sentence shape: no swing
    shown_.assign(weights.data(), weights.data() + n);
    return;
  }
  const float step = 1.0f - std::exp(-kSwingRate * std::max(dt, 0.0f));  // eased approach
  for (std::size_t j = 0; j < n; ++j) shown_[j] += (weights[static_cast<Index>(j)] - shown_[j]) * step;
}

void SpotlightView::draw(const UiContext& ui, const SpotlightModel& model, Asked& asked) {
  reduced_motion_ = ui.reduced_motion;
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    draw_choices(ui, model, input_, width, asked);
    draw_beams(ui, model, explain_, layout_, shown_, width, asked);
    draw_blend(ui, model, explain_, width);
    kit::gap(ui, 6);
    draw_input(ui, model, input_, layout_, width, asked);
  });
}

const ViewKind& spotlight_view_kind() { return view_kind<SpotlightModel, SpotlightView>(); }

}  // namespace neuralpath::ui
