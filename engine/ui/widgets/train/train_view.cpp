// train_view.cpp: the train widget drawn from its model (train_view.h). It trains nothing and
// runs no engine: the curves, the spotlights and every number are the model's.
#include "engine/ui/widgets/train/train_view.h"
#include "engine/ui/widgets/registry.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/widget_card.h"

#include <imgui.h>

#include <algorithm>

namespace neuralpath::ui {

using Model = TrainModel;

void TrainView::draw(const UiContext& ui, const Model& model, Asked& asked) {
  draw_widget_card(ui, this, model, explain_, [&](float width) {
    kit::title(ui, tr("train.title"));
    if (!model.has_session()) {
      kit::wrapped(ui, tr("train.cannot_train", {{"error", model.error()}}), ui.colors().bad);
      return;
    }
    draw_controls(ui, model, width, asked);
    kit::gap(ui, 6);
    draw_curves(ui, model, width);
    kit::gap(ui, 8);
    const TrainSession& s = model.session();
    const bool heads = !model.shown().heads.empty();
    const std::string looks =
        heads ? (s.showing_trained() ? "train.heads_looks" : model.other_weights("train.heads_looks_hand_set"))
              : (s.showing_trained() ? "train.looks_trained" : model.other_weights("train.looks_hand_set"));
    kit::wrapped(ui,
                 tr(looks, {{"query", widgets::quoted(model.settings().query)},
                            {"step", format_count(static_cast<std::uint64_t>(s.spotlight_step()))}}),
                 ui.colors().muted, kit::Face::small);
    draw_spotlight(ui, model.shown(), width);
    kit::gap(ui, 8);
    draw_try(ui, model, width, asked);
  });
}

void TrainView::draw_controls(const UiContext& ui, const Model& model, float width, Asked& asked) {
  const TrainSession& s = model.session();
  const char* go = s.running()     ? "train.pause"
                   : s.step() == 0 ? "train.train"
                   : s.finished()  ? "train.trained"
                                   : "train.resume";
  const float row_x = ImGui::GetCursorScreenPos().x;
  // As wide as its longest label: Train, Pause, Resume and Trained take turns on it, and the
  // buttons after it (the seed's − and +) must not slide sideways as they do (#34: a click
  // meant for + set the seed from 1 to 0).
  float go_w = 0;
  for (const char* key : {"train.train", "train.pause", "train.resume", "train.trained"})
    go_w = std::max(go_w, ImGui::CalcTextSize(tr(key).c_str()).x);
  go_w += 2 * ui.px(12);  // kit::button's padding
  ImGui::BeginDisabled(s.finished());
  if (kit::button(ui, (tr(go) + "###go").c_str(), true, ImVec2(go_w, 0))) {
    if (s.running())
      asked.push_back(Pause{});
    else
      asked.push_back(Train{});
  }
  layout_["go"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  // Train on screen: the page's trainer worker loads now, while the learner reads, so that the
  // first run's curves move at once (its download and compile would otherwise share the cores
  // with the frames of that run).
  if (!trainer_asked_ && ImGui::IsItemVisible()) {
    asked.push_back(Model::PrepareTrainer{});
    trainer_asked_ = true;
  }
  ImGui::EndDisabled();
  ImGui::SameLine(0, ui.px(8));
  if (kit::button(ui, tr("train.reset").c_str())) asked.push_back(Model::ResetTraining{});

  // The seed on the buttons' line when it fits whole (its field with its − and + buttons),
  // else on a line of its own: on a phone the + would fall off the card.
  const std::string seed_label = tr("train.seed");
  const float field_w = ui.px(110);
  const float seed_w = ImGui::CalcTextSize(seed_label.c_str()).x + ui.px(6) + field_w;
  const float used = ImGui::GetItemRectMax().x - row_x;
  if (used + ui.px(12) + seed_w <= width)
    ImGui::SameLine(0, ui.px(12));
  else
    kit::gap(ui, 4);
  // The seed field follows the model (a command may change it) except while the learner edits it.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(seed_label.c_str());
  ImGui::SameLine(0, ui.px(6));
  if (s.seed() != seed_shown_) {
    seed_shown_ = s.seed();
    seed_field_ = static_cast<int>(std::min<std::uint64_t>(s.seed(), Model::kMaxSeed));
  }
  kit::push_field_style(ui);
  ImGui::SetNextItemWidth(field_w);
  // Enter, the +/- buttons, or leaving the field after an edit: a new seed (a reset).
  ImGui::BeginGroup();
  const bool entered = ImGui::InputInt("##seed", &seed_field_, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue);
  const bool left = ImGui::IsItemDeactivatedAfterEdit();
  const bool editing = ImGui::IsItemActive();
  ImGui::EndGroup();
  layout_["seed"] = kit::css_rect(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());  // its field, − and +
  kit::pop_field_style();
  if ((entered || left) && seed_field_ >= 0 && static_cast<std::uint64_t>(seed_field_) != s.seed())
    asked.push_back(Model::SetSeed{seed_field_});
  else if (seed_field_ < 0 && !editing)
    seed_field_ = static_cast<int>(s.seed());  // a negative number is not a seed: back to the model's

  // Step, learning rate, speed; the loss and accuracy are in the plots' corners.
  kit::gap(ui, 2);
  ImGui::PushFont(kit::font(ui, kit::Face::small));
  ImGui::TextUnformatted(tr("train.step_of", {{"step", format_count(static_cast<std::uint64_t>(s.step()))},
                                              {"total", format_count(static_cast<std::uint64_t>(s.total_steps()))}})
                             .c_str());
  ImGui::SameLine(0, ui.px(6));  // the catalogue's words start with their own separator ("· learning rate")
  ImGui::TextUnformatted(tr("train.learning_rate").c_str());
  ImGui::SameLine(0, ui.px(4));
  NumberStyle style;
  style.small = true;
  explain_.number(
      ui, "##rate", format_setting(s.learning_rate()), [&model] { return model.explain("learning_rate"); }, style);
  ImGui::PopFont();

  // "This run's weights", not "Trained weights": before any training they are the run's
  // starting weights, and beside "The lesson's trained weights" the two read alike (#34).
  const int picked =
      kit::segmented(ui, "weights", {tr("train.weights_run"), tr(model.other_weights("train.weights_hand_set"))},
                     s.showing_trained() ? 0 : 1, width);
  if (picked >= 0) asked.push_back(Model::UseTrained{picked == 0});
}

// Two plots (side by side when there is room): held-out loss (scaled to its own highest point)
// and held-out accuracy (0 to 100%), across the steps the task trains for.
void TrainView::draw_curves(const UiContext& ui, const Model& model, float width) {
  const TrainSession& s = model.session();
  const Palette& c = ui.colors();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImFont* small = kit::font(ui, kit::Face::small);
  const bool side_by_side = width >= ui.px(520);
  const float gap = ui.px(16);
  const float plot_w = side_by_side ? (width - gap) / 2 : width;
  const float plot_h = ui.px(side_by_side ? 110 : 90);
  const float label_h = small->FontSize + ui.px(4);
  const auto& curve = s.curve();
  // With the switch on the other weights, the plots show those: a level line at what they
  // score, over the run's curve faded (#34: the curves kept showing the run alone).
  const CurvePoint* other = s.showing_trained() ? nullptr : &s.hand_set_point();
  float max_loss = 1e-3f;
  for (const CurvePoint& p : curve) max_loss = std::max(max_loss, p.held_out_loss);
  if (other) max_loss = std::max(max_loss, other->held_out_loss);

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int k = 0; k < 2; ++k) {
    const bool loss = k == 0;
    const ImVec2 at = side_by_side ? ImVec2(origin.x + k * (plot_w + gap), origin.y)
                                   : ImVec2(origin.x, origin.y + k * (label_h + plot_h + ui.px(10)));
    // The latest value on the title's line, right-aligned, explainable like every number (inside
    // the box it sat on the curve: the accuracy's line runs along the top once it reaches 100%).
    // A title too long for the rest of the line is cut short of the value.
    const CurvePoint& shown = other ? *other : curve.back();
    const std::string value = loss ? format_number(shown.held_out_loss) : format_percent(shown.held_out_accuracy);
    const ImVec2 size = kit::text_size(small, value);
    const ImVec2 corner(at.x + plot_w - size.x, at.y);
    const ImVec4 title_clip(at.x, at.y, corner.x - ui.px(8), at.y + label_h);
    const std::string plot = tr(loss ? "train.plot_loss" : "train.plot_accuracy");
    const std::string title =
        other ? tr("train.plot_with",
                   {{"plot", plot}, {"weights", tr(model.other_weights("train.weights_hand_set_lower"))}})
              : plot;
    draw->AddText(small, small->FontSize, at, c.muted, title.c_str(), nullptr, 0.0f, &title_clip);
    draw->AddText(small, small->FontSize, corner, c.text, value.c_str());
    explain_.area(ui, loss ? "##loss" : "##accuracy", corner, ImVec2(corner.x + size.x, corner.y + size.y),
                  [&model, loss] { return model.explain(loss ? "loss" : "accuracy"); });
    const ImVec2 min(at.x, at.y + label_h), max(at.x + plot_w, at.y + label_h + plot_h);
    draw->AddRectFilled(min, max, c.page, ui.px(3));
    draw->AddRect(min, max, c.border, ui.px(3));
    // The curve inside an inset, so that a loss of 0 or an accuracy of 100% stays off the frame.
    const float inset = ui.px(5);
    const ImVec2 lo(min.x + inset, min.y + inset), hi(max.x - inset, max.y - inset);
    std::vector<ImVec2> points;
    for (const CurvePoint& p : curve) {
      const float x =
          lo.x + (hi.x - lo.x) * static_cast<float>(p.step) / static_cast<float>(std::max(1, s.total_steps()));
      const float v = loss ? p.held_out_loss / max_loss : p.held_out_accuracy;
      points.emplace_back(x, hi.y - (hi.y - lo.y) * std::clamp(v, 0.0f, 1.0f));
    }
    const ImU32 run_color = other ? kit::fade(c.accent, 0.3f) : c.accent;
    if (points.size() >= 2)
      draw->AddPolyline(points.data(), static_cast<int>(points.size()), run_color, 0, ui.px(2));
    else
      draw->AddCircleFilled(points.front(), ui.px(3), run_color);
    if (other) {
      const float v = loss ? other->held_out_loss / max_loss : other->held_out_accuracy;
      const float y = hi.y - (hi.y - lo.y) * std::clamp(v, 0.0f, 1.0f);
      draw->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), c.text, ui.px(2));
    }
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, side_by_side ? label_h + plot_h : 2 * (label_h + plot_h) + ui.px(10)));
}

void TrainView::draw_spotlight(const UiContext& ui, const SpotlightNow& spot, float width) {
  if (spot.heads.empty())
    draw_chips(ui, spot, width);
  else
    draw_heads(ui, spot, width);
}

// Several heads: one row per word, one column per head, each cell shaded by the weight that
// head gives the word from the query, its percentage inside; a head's largest (the query
// excluded) has the accent border, so the learner sees each head settle on its own word.
void TrainView::draw_heads(const UiContext& ui, const SpotlightNow& spot, float width) {
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::body);
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int heads = static_cast<int>(spot.heads.size());
  // the word column takes at most a third of the card; longer words are cut with "…"
  const float word_limit = width / 3;
  std::vector<std::string> words;
  float word_w = 0;
  for (const std::string& t : spot.tokens) {
    words.push_back(kit::fit_text(face, t, word_limit));
    word_w = std::max(word_w, kit::text_size(face, words.back()).x);
  }
  word_w += ui.px(12);
  const float gap = ui.px(3);
  const float column_w = std::min(ui.px(96), (width - word_w - gap * heads) / static_cast<float>(heads));
  const float row_h = face->FontSize + ui.px(8);
  const float header_h = small->FontSize + ui.px(6);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int h = 0; h < heads; ++h) {  // "Head 1", or "1" when the column is too narrow for it
    std::string label = tr("train.head_column", {{"head", std::to_string(h + 1)}});
    if (kit::text_size(small, label).x > column_w - ui.px(4)) label = std::to_string(h + 1);
    const float x = origin.x + word_w + gap + h * (column_w + gap);
    draw->AddText(small, small->FontSize, ImVec2(x + (column_w - kit::text_size(small, label).x) / 2, origin.y),
                  c.muted, label.c_str());
  }
  for (std::size_t i = 0; i < spot.tokens.size(); ++i) {
    const bool query = static_cast<int>(i) == spot.query;
    const float y = origin.y + header_h + static_cast<float>(i) * (row_h + gap);
    draw->AddText(face, face->FontSize, ImVec2(origin.x, y + ui.px(4)), query ? c.accent : c.text, words[i].c_str());
    for (int h = 0; h < heads; ++h) {
      const float weight = spot.heads[static_cast<std::size_t>(h)][i];
      const ImVec2 min(origin.x + word_w + gap + h * (column_w + gap), y);
      const ImVec2 max(min.x + column_w, y + row_h);
      const bool top = spot.head_tops[static_cast<std::size_t>(h)] == static_cast<int>(i);
      const ImU32 fill = heat_color(ui.theme, weight);
      draw->AddRectFilled(min, max, fill, ui.px(3));
      if (top) draw->AddRect(min, max, c.accent, ui.px(3), 0, ui.px(2));
      const std::string pct = format_percent(weight);
      const ImVec2 size = kit::text_size(small, pct);
      if (size.x <= column_w - ui.px(4))
        draw->AddText(small, small->FontSize, ImVec2(min.x + (column_w - size.x) / 2, min.y + (row_h - size.y) / 2),
                      text_on(fill), pct.c_str());
    }
  }
  ImGui::Dummy(ImVec2(width, header_h + static_cast<float>(spot.tokens.size()) * (row_h + gap)));
}

// The sentence's words as chips shaded by the weight the query gives them, the percentage under
// each; the query is outlined, the word it looks at most has the accent border.
void TrainView::draw_chips(const UiContext& ui, const SpotlightNow& spot, float width) {
  const Palette& c = ui.colors();
  ImFont* face = kit::font(ui, kit::Face::body);
  ImFont* small = kit::font(ui, kit::Face::small);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 pad(ui.px(8), ui.px(4));
  kit::Flow flow(width, ui.px(6), ui.px(6));
  for (std::size_t i = 0; i < spot.tokens.size(); ++i) {
    const bool query = static_cast<int>(i) == spot.query;
    const bool top = static_cast<int>(i) == spot.top;
    const float weight = i < spot.weights.size() ? spot.weights[i] : 0.0f;
    const std::string pct = query || i >= spot.weights.size() ? std::string() : format_percent(weight);
    // a word wider than the card (a pasted link, a long run of letters) is cut with "…"
    const std::string word = kit::fit_text(face, spot.tokens[i], width - 2 * pad.x);
    const ImVec2 text = kit::text_size(face, word);
    const float w = std::max(text.x + 2 * pad.x, kit::text_size(small, pct).x + ui.px(4));
    const float chip_h = face->FontSize + 2 * pad.y;
    flow.place(ImVec2(w, chip_h + small->FontSize + ui.px(2)));
    const ImVec2 min = ImGui::GetCursorScreenPos();
    const ImVec2 max(min.x + w, min.y + chip_h);
    const ImU32 fill = query ? c.panel : heat_color(ui.theme, weight);
    draw->AddRectFilled(min, max, fill, ui.px(4));
    draw->AddRect(min, max, query || top ? c.accent : c.border, ui.px(4), 0, query || top ? ui.px(2) : ui.px(1));
    draw->AddText(face, face->FontSize, ImVec2(min.x + (w - text.x) / 2, min.y + pad.y), query ? c.text : text_on(fill),
                  word.c_str());
    if (!pct.empty())
      draw->AddText(small, small->FontSize, ImVec2(min.x + (w - kit::text_size(small, pct).x) / 2, max.y + ui.px(2)),
                    top ? c.text : c.muted, pct.c_str());
    ImGui::Dummy(ImVec2(w, chip_h + small->FontSize + ui.px(2)));
  }
  flow.end();
}

void TrainView::draw_try(const UiContext& ui, const Model& model, float width, Asked& asked) {
  kit::title(ui, tr("train.try_title"));
  // A sentence asked by a command or a shared link shows in the box, refused ones too (the
  // message under the box is about it); what the learner typed is already there.
  if (model.sentences_asked() != sentences_seen_) {
    sentences_seen_ = model.sentences_asked();
    kit::fill_field(sentence_, sizeof sentence_, model.asked_sentence());  // whole characters, none undrawable
  }
  const std::string hint = tr("train.try_hint", {{"query", widgets::quoted(model.settings().query)}});
  if (kit::text_entry(ui, {"##try", tr("train.show"), "", hint.c_str()}, sentence_, sizeof sentence_, width))
    asked.push_back(SetSentence{sentence_});
  if (!model.input_error().empty()) {
    kit::wrapped(ui, model.input_error(), ui.colors().bad, kit::Face::small);
  } else if (model.custom()) {
    kit::wrapped(ui, tr("train.yours", {{"sentence", model.custom_sentence()}}), ui.colors().muted, kit::Face::small);
    draw_spotlight(ui, *model.custom(), width);
    if (const std::string note = model.custom_note(); !note.empty())
      kit::wrapped(ui, note, ui.colors().muted, kit::Face::small);
  }
}

const ViewKind& train_view_kind() { return view_kind<TrainModel, TrainView>(); }

}  // namespace neuralpath::ui
