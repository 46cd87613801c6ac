// spotlight.cpp: where one word's attention goes. The sentence as token chips, a beam from the
// query chip to every token whose thickness and label are the engine's softmax weight
// (Trace::spotlight), sentence A/B switching with the beams swinging, the query's new vector
// written as the weighted sum the engine computed, and the learner's own sentence.
//
// No mask here: "it" must see "tired"/"wide", which come after it (model.h explains why the
// context layer needs that), so the spotlight runs the block bidirectionally.
//
// [SECTION] Model (one engine run per sentence; the rest are lookups into it)
// [SECTION] Explanations
// [SECTION] Drawing
// [SECTION] State and commands
#include "engine/core/block.h"
#include "engine/core/error.h"
#include "engine/core/format.h"
#include "engine/core/narration.h"
#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/readout.h"
#include "engine/ui/widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <string_view>
#include <cmath>
#include <numeric>

namespace neuralpath::ui {
namespace {

using nlohmann::json;

constexpr float kSwingRate = 5.0f;          // 1/s: how quickly the beams move to new weights
constexpr int   kMaxBlendTerms = 3;         // terms written out before "others"
constexpr float kBlendTermFloor = 0.05f;    // smaller weights go into "others"

struct BlendTerm {
  int   token = -1;   // -1: "others", the remaining tokens together
  float weight = 0;   // the engine's weight (for "others": the remaining weights summed)
  int   count = 1;
};

std::string first_key(const std::string& word) {
  try {
    const std::vector<Token> tokens = tokenize(word);
    return tokens.empty() ? std::string() : tokens.front().key;
  } catch (const InputError&) {
    return {};
  }
}

class SpotlightWidget final : public Widget {
 public:
  SpotlightWidget(const lesson::Spotlight& block, const ModelSpec& spec);

  const char* kind() const override { return "spotlight"; }
  void update(float dt) override;
  void draw(const UiContext& ui) override;
  json state() const override;
  std::optional<std::string> command(const json& message) override;
  std::vector<json> take_events() override { return explain_.take_events(); }

 private:
  std::optional<std::string> show(const std::string& text);  // runs the engine on `text`
  std::optional<std::string> set_sentence(const std::string& text);
  void choose_sentence(int index);
  void select_query(int token);
  void refresh();                                            // weights and blend of query/head
  int  find_token(const std::string& key) const;
  int  default_query(const std::string& key) const;

  Explanation explain_weight(int token) const;
  Explanation explain_others() const;
  Explanation explain_entry(int column) const;

  void draw_choices(const UiContext& ui, float width);
  void draw_beams(const UiContext& ui, float width);
  void draw_blend(const UiContext& ui, float width);
  void draw_input(const UiContext& ui, float width);

  lesson::Spotlight        block_;
  ModelSpec                spec_;
  std::vector<std::string> sentences_;  // the block's sentence, its alternatives, then the learner's
  std::vector<std::string> labels_;     // "A · tired", "B · wide", "Yours"
  bool                     has_custom_ = false;
  int                      sentence_ = 0;
  std::string              query_key_;  // the block's query as a token key ("it")

  std::optional<Trace>     trace_;      // the engine's run of sentences_[sentence_]
  std::string              error_;      // why the block's own sentence could not run
  int                      query_ = 0;
  int                      head_ = -1;  // -1: the mean over heads (model_spec.h), else one head
  Vector                   weights_;    // trace_->spotlight(query_, head_)
  std::vector<BlendTerm>   blend_;
  int                      top_ = -1;   // the heaviest token other than the query itself
  std::vector<float>       shown_;      // beam weights on screen, swinging toward weights_
  bool                     reduced_motion_ = false;

  char                     input_[512] = {};
  std::string              input_error_;
  Explainer                explain_;
};

// [SECTION] Model ------------------------------------------------------------------------------

SpotlightWidget::SpotlightWidget(const lesson::Spotlight& block, const ModelSpec& spec)
    : block_(block), spec_(spec) {
  sentences_.push_back(block.sentence);
  for (const std::string& s : block.alternatives)
    if (!s.empty() && std::find(sentences_.begin(), sentences_.end(), s) == sentences_.end()) sentences_.push_back(s);
  query_key_ = first_key(block.query.empty() ? std::string("it") : block.query);

  // Each sentence is named by the words that set it apart: A by those the first alternative
  // lacks, every alternative by those the block's sentence lacks ("A · tired", "C · dog, sleepy").
  for (std::size_t i = 0; i < sentences_.size(); ++i) {
    std::string label(1, static_cast<char>('A' + std::min<std::size_t>(i, 25)));
    try {
      const auto mine = tokenize(sentences_[i]);
      const auto other = tokenize(sentences_[i == 0 ? (sentences_.size() > 1 ? 1 : 0) : 0]);
      int words = 0;
      for (const Token& t : mine)
        if (!t.is_punctuation && words < 3 &&
            std::none_of(other.begin(), other.end(), [&](const Token& o) { return o.key == t.key; }))
          label += (words++ ? ", " : " · ") + t.text;
    } catch (const InputError&) {
    }
    labels_.push_back(label);
  }
  std::snprintf(input_, sizeof input_, "%s", block.sentence.c_str());
  if (auto problem = show(block.sentence)) error_ = *problem;
}

std::optional<std::string> SpotlightWidget::show(const std::string& text) {
  std::vector<Token> tokens;
  try {
    tokens = tokenize(text);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  if (tokens.empty()) return std::string("Type a sentence first: the spotlight needs at least one word.");
  const int limit = TraceOptions{}.max_term_tokens;  // beyond it the trace keeps no per-cell terms
  if (static_cast<int>(tokens.size()) > limit)
    return "That sentence has " + std::to_string(tokens.size()) + " tokens; the spotlight shows at most " +
           std::to_string(limit) + " so every beam stays readable. Try a shorter one.";
  TraceOptions options;
  options.mask = Mask::none();
  Trace trace;
  try {
    trace = run_block(spec_, tokens, options);
  } catch (const InputError& e) {
    return std::string("The engine could not run this sentence: ") + e.what();
  }
  const std::string previous = trace_ ? trace_->tokens[static_cast<std::size_t>(query_)].key : query_key_;
  const bool same_length = trace_ && trace_->tokens.size() == trace.tokens.size();
  trace_ = std::move(trace);
  query_ = default_query(previous);
  head_ = trace_->heads == 1 ? 0 : std::clamp(head_, -1, trace_->heads - 1);
  refresh();
  if (!same_length) shown_.clear();  // a different sentence shape: no swing, draw it directly
  error_.clear();
  return std::nullopt;
}

int SpotlightWidget::find_token(const std::string& key) const {
  for (std::size_t i = 0; i < trace_->tokens.size(); ++i)
    if (trace_->tokens[i].key == key) return static_cast<int>(i);
  return -1;
}

int SpotlightWidget::default_query(const std::string& key) const {
  if (int t = find_token(key); t >= 0) return t;
  if (int t = find_token(query_key_); t >= 0) return t;
  for (int t = static_cast<int>(trace_->tokens.size()) - 1; t >= 0; --t)
    if (!trace_->tokens[static_cast<std::size_t>(t)].is_punctuation) return t;
  return 0;
}

void SpotlightWidget::refresh() {
  weights_ = trace_->spotlight(query_, head_);
  // The blend's biggest terms by the engine's weights; the rest are summed as "others".
  std::vector<int> order(static_cast<std::size_t>(weights_.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weights_[a] > weights_[b]; });
  top_ = -1;
  for (int t : order)
    if (t != query_) {
      top_ = t;
      break;
    }
  blend_.clear();
  BlendTerm others;
  others.count = 0;
  for (int t : order) {
    const bool keep = blend_.empty() ||
                      (static_cast<int>(blend_.size()) < kMaxBlendTerms && weights_[t] >= kBlendTermFloor);
    if (keep) {
      blend_.push_back({t, weights_[t], 1});
    } else {
      others.weight += weights_[t];
      ++others.count;
    }
  }
  if (others.count > 0) blend_.push_back(others);
}

std::optional<std::string> SpotlightWidget::set_sentence(const std::string& text) {
  for (std::size_t i = 0; i < sentences_.size(); ++i)
    if (sentences_[i] == text && !(has_custom_ && i + 1 == sentences_.size())) {
      choose_sentence(static_cast<int>(i));
      return error_.empty() ? std::nullopt : std::optional<std::string>(error_);
    }
  if (auto problem = show(text)) return problem;
  if (!has_custom_) {
    sentences_.push_back(text);
    labels_.push_back("Yours");
    has_custom_ = true;
  }
  sentences_.back() = text;
  sentence_ = static_cast<int>(sentences_.size()) - 1;
  return std::nullopt;
}

void SpotlightWidget::choose_sentence(int index) {
  if (index < 0 || index >= static_cast<int>(sentences_.size())) return;
  if (auto problem = show(sentences_[static_cast<std::size_t>(index)])) {
    error_ = *problem;
    return;
  }
  sentence_ = index;
}

void SpotlightWidget::select_query(int token) {
  if (!trace_ || token < 0 || token >= static_cast<int>(trace_->tokens.size())) return;
  query_ = token;
  refresh();
}

void SpotlightWidget::update(float dt) {
  const auto n = static_cast<std::size_t>(weights_.size());
  if (shown_.size() != n || reduced_motion_) {
    shown_.assign(weights_.data(), weights_.data() + n);
    return;
  }
  const float step = 1.0f - std::exp(-kSwingRate * std::max(dt, 0.0f));  // eased approach
  for (std::size_t j = 0; j < n; ++j) shown_[j] += (weights_[static_cast<Index>(j)] - shown_[j]) * step;
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation SpotlightWidget::explain_weight(int j) const {
  const Trace& t = *trace_;
  const Cell cell{query_, j};
  const std::string q = quote_token(t.labels[static_cast<std::size_t>(query_)]);
  const std::string k = quote_token(t.labels[static_cast<std::size_t>(j)]);
  Explanation e;
  e.title = "How much " + q + " looks at " + k + ": " + format_percent(weights_[j]);
  if (head_ < 0) {  // the mean over heads: each head's own weight is an input
    e.title += " (mean of " + std::to_string(t.heads) + " heads)";
    e.formula = "w = (w_head1 + … + w_headH) / H";
    for (int h = 0; h < t.heads; ++h)
      if (const Step* softmax = find_step(t, StepKind::softmax, h)) {
        e.inputs.push_back({"head " + std::to_string(h + 1), format_number(softmax->result.values(query_, j))});
        e.text += (e.text.empty() ? "" : " ") + narrate(t, *softmax, cell);
      }
    return e;
  }
  e.formula = "w = exp(s − max) / Σ exp(s − max),   s = q·k / √d_k";
  if (const Step* score = find_step(t, StepKind::score, head_))
    if (const CellTerms* terms = find_terms(*score, cell))
      e.inputs.push_back({"q·k", products_text(*terms) + " = " + format_number(terms->value)});
  if (const Step* scale = find_step(t, StepKind::scale, head_))
    e.inputs.push_back({"scaled s", "× " + scale->scalar_name + " = " + format_number(scale->result.values(query_, j))});
  const Step* softmax = find_step(t, StepKind::softmax, head_);
  if (softmax) {
    if (const CellTerms* terms = find_terms(*softmax, cell); terms && !terms->terms.empty()) {
      e.inputs.push_back({"exp(s − max)", format_number(terms->terms.front().a)});
      e.inputs.push_back({"1 / Σ exp(s − max) over the row", format_number(terms->terms.front().b)});
    }
    e.text = narrate(t, *softmax, cell);
  }
  if (t.heads > 1) e.text += " (Head " + std::to_string(head_ + 1) + " of " + std::to_string(t.heads) + ".)";
  return e;
}

Explanation SpotlightWidget::explain_others() const {
  const Trace& t = *trace_;
  const BlendTerm& others = blend_.back();
  Explanation e;
  e.title = "The other " + std::to_string(others.count) + " tokens together: " + format_number(others.weight);
  e.formula = "others = Σ w_j over the tokens not written out";
  for (int j = 0; j < weights_.size(); ++j)
    if (std::none_of(blend_.begin(), blend_.end() - 1, [&](const BlendTerm& b) { return b.token == j; }))
      e.inputs.push_back({quote_token(t.labels[static_cast<std::size_t>(j)]), format_number(weights_[j])});
  e.text = "Each of these tokens gets a small softmax weight; together they add this much of their value "
           "vectors to the new vector.";
  return e;
}

Explanation SpotlightWidget::explain_entry(int c) const {
  const Trace& t = *trace_;
  Explanation e;
  const Step* blend = find_step(t, StepKind::blend, head_);
  if (!blend) return e;
  e.title = "Entry " + std::to_string(c) + " of the new vector: " + format_number(blend->result.values(query_, c));
  e.formula = "new_i = Σ_j w_ij · v_j";
  if (const CellTerms* terms = find_terms(*blend, {query_, c}))
    e.inputs.push_back({"weight×value", products_text(*terms, 5)});
  e.text = narrate(t, *blend, {query_, c});
  return e;
}

// [SECTION] Drawing ----------------------------------------------------------------------------

void SpotlightWidget::draw(const UiContext& ui) {
  reduced_motion_ = ui.reduced_motion;
  ImGui::PushID(this);
  kit::Card card(ui, "spotlight");
  const float width = card.inner_width();
  if (!trace_) {
    kit::title(ui, "Spotlight");
    kit::wrapped(ui, "This spotlight cannot be shown: " + error_, ui.colors().bad);
  } else {
    draw_choices(ui, width);
    draw_beams(ui, width);
    draw_blend(ui, width);
    kit::gap(ui, 6);
    draw_input(ui, width);
  }
  const std::string caption = lesson::plain_text(block_.caption);
  if (!caption.empty()) {
    kit::gap(ui, 4);
    kit::wrapped(ui, caption, ui.colors().muted, kit::Face::small);
  }
  card.end();
  explain_.draw_popup(ui);
  ImGui::PopID();
}

void SpotlightWidget::draw_choices(const UiContext& ui, float width) {
  if (sentences_.size() > 1) {
    const int picked = kit::segmented(ui, "sentence", labels_, sentence_, width);
    if (picked >= 0 && picked != sentence_) choose_sentence(picked);
  }
  if (trace_->heads > 1) {
    std::vector<std::string> heads = {"All heads"};
    for (int h = 0; h < trace_->heads; ++h) heads.push_back("Head " + std::to_string(h + 1));
    const int picked = kit::segmented(ui, "head", heads, head_ + 1, width);
    if (picked >= 0 && picked - 1 != head_) {
      head_ = picked - 1;
      refresh();
    }
  }
  kit::gap(ui, 2);
}

void SpotlightWidget::draw_beams(const UiContext& ui, float width) {
  const Trace& t = *trace_;
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
  float x = 0, y = 0;
  int row = 0;
  for (int j = 0; j < n; ++j) {
    const ImVec2 text = kit::text_size(face, t.labels[static_cast<std::size_t>(j)]);
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
  const auto bottom_of = [&](int j) {  // under the chip's percentage
    const ImVec2 top = top_of(j);
    return ImVec2(top.x, top.y + chip_h + ui.px(3) + label_h + ui.px(2));
  };
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const auto shown = [&](int j) {
    return j < static_cast<int>(shown_.size()) ? shown_[static_cast<std::size_t>(j)] : weights_[j];
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return shown(a) < shown(b); });
  for (int j : order) {
    if (j == query_) continue;
    const float w = std::clamp(shown(j), 0.0f, 1.0f);
    const ImU32 color = kit::fade(c.accent, 0.18f + 0.82f * std::sqrt(w));
    const float thickness = ui.px(1.0f) + ui.px(10.0f) * w;
    const int rows_apart = row_of[static_cast<std::size_t>(j)] - row_of[static_cast<std::size_t>(query_)];
    ImVec2 from, to, c0, c1;
    if (rows_apart == 0) {  // same line: an arc over the chips between them
      from = top_of(query_);
      to = top_of(j);
      const float lift = std::min(arc_h * 0.95f, arc_h * 0.3f + std::fabs(to.x - from.x) * 0.22f);
      const float lean = (to.x - from.x) * 0.12f;
      c0 = ImVec2(from.x + lean, from.y - lift);
      c1 = ImVec2(to.x - lean, to.y - lift);
    } else {  // another line: an S through the gap between the lines, never across a chip
      const bool up = rows_apart < 0;
      from = up ? top_of(query_) : bottom_of(query_);
      to = up ? bottom_of(j) : top_of(j);
      const float bend = (to.y - from.y) * 0.45f;
      c0 = ImVec2(from.x, from.y + bend);
      c1 = ImVec2(to.x, to.y - bend);
    }
    draw->AddBezierCubic(from, c0, c1, to, color, thickness);
    draw->AddCircleFilled(to, ui.px(2.0f) + ui.px(4.0f) * w, color);
  }

  // Chips: click (or Space/Enter) makes a token the query. Labels: the engine's weights.
  for (int j = 0; j < n; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    const ImVec2 min = chip_min[uj], max(min.x + chip_size[uj].x, min.y + chip_size[uj].y);
    ImGui::PushID(j);
    ImGui::SetCursorScreenPos(min);
    if (ImGui::InvisibleButton("##chip", chip_size[uj])) select_query(j);
    if (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)) select_query(j);
    const bool hovered = ImGui::IsItemHovered();
    const bool is_query = j == query_;
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
                  t.labels[uj].c_str());
    draw->PopClipRect();

    const std::string pct = format_percent(weights_[j]);
    const float pw = kit::text_size(small, pct).x;
    ImGui::SetCursorScreenPos(ImVec2(min.x + (chip_size[uj].x - pw) * 0.5f, max.y + ui.px(3)));
    NumberStyle style;
    style.small = true;
    style.color = j == top_ ? c.accent : c.muted;
    explain_.number(ui, "##weight", pct, [this, j] { return explain_weight(j); }, style);
    ImGui::PopID();
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
  ImGui::Dummy(ImVec2(width, 0));

  std::string legend = "Tap a word to make it the query. Line thickness is the softmax weight";
  legend += t.heads == 1 ? "." : head_ < 0 ? " (mean of the " + std::to_string(t.heads) + " heads)."
                                            : " of head " + std::to_string(head_ + 1) + ".";
  legend += " No mask: each word sees the words before and after it.";
  if (std::find(t.known.begin(), t.known.end(), false) != t.known.end())
    legend += " Dashed words are not in the lesson's vocabulary: the engine gives them a seeded vector.";
  kit::wrapped(ui, legend, c.muted, kit::Face::small);
}

void SpotlightWidget::draw_blend(const UiContext& ui, float width) {
  const Trace& t = *trace_;
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
  const std::string query = quote_token(t.labels[static_cast<std::size_t>(query_)]);
  text(head_ < 0 ? "attention of " + query + " =" : "new " + query + " =", bold, c.text);
  for (std::size_t b = 0; b < blend_.size(); ++b) {
    const BlendTerm& term = blend_[b];
    if (b > 0) text("+", body, c.muted);
    const std::string value = format_number(term.weight);
    flow.place(kit::text_size(body, value));
    ImGui::PushID(static_cast<int>(b));
    NumberStyle style;
    style.color = b == 0 ? c.accent : c.text;
    if (term.token >= 0)
      explain_.number(ui, "##term", value, [this, j = term.token] { return explain_weight(j); }, style);
    else
      explain_.number(ui, "##others", value, [this] { return explain_others(); }, style);
    ImGui::PopID();
    text(term.token >= 0 ? "× " + t.labels[static_cast<std::size_t>(term.token)]
                         : "× others (" + std::to_string(term.count) + ")",
         body, c.text);
  }
  // The resulting vector itself, entry by entry, as the blend step recorded it.
  if (const Step* blend = find_step(t, StepKind::blend, head_)) {
    flow.newline();
    text("= [", body, c.muted);
    for (int col = 0; col < blend->result.values.cols(); ++col) {
      const std::string value = format_number(blend->result.values(query_, col));
      flow.place(kit::text_size(kit::font(ui, kit::Face::mono), value));
      ImGui::PushID(1000 + col);
      NumberStyle style;
      style.mono = true;
      explain_.number(ui, "##entry", value, [this, col] { return explain_entry(col); }, style);
      ImGui::PopID();
    }
    text("]", body, c.muted);
  }
  flow.end();
}

void SpotlightWidget::draw_input(const UiContext& ui, float width) {
  const Palette& c = ui.colors();
  kit::title(ui, "Try your own sentence");
  const float button_w = kit::text_size(kit::font(ui, kit::Face::body), "Show").x + ui.px(24);
  const bool same_line = width >= ui.px(420);
  kit::push_field_style(ui);
  ImGui::SetNextItemWidth(same_line ? std::min(width - button_w - ui.px(8), ui.px(620)) : width);
  const bool entered =
      ImGui::InputText("##sentence", input_, sizeof input_, ImGuiInputTextFlags_EnterReturnsTrue);
  kit::pop_field_style();
  if (same_line) ImGui::SameLine(0, ui.px(8));
  const bool clicked = kit::button(ui, "Show", true);
  if (entered || clicked) {
    const auto problem = set_sentence(input_);
    input_error_ = problem ? *problem : std::string();
  }
  if (!input_error_.empty()) {
    kit::wrapped(ui, input_error_, c.bad, kit::Face::small);
  } else if (has_custom_ && sentence_ + 1 == static_cast<int>(sentences_.size())) {
    std::string seeded;
    for (std::size_t i = 0; i < trace_->tokens.size(); ++i)
      if (!trace_->known[i]) seeded += (seeded.empty() ? "" : ", ") + quote_token(trace_->labels[i]);
    kit::wrapped(ui, seeded.empty() ? "Every word of your sentence is in the lesson's vocabulary."
                                    : "Seeded (not in the lesson's vocabulary): " + seeded + ".",
                 c.muted, kit::Face::small);
  }
}

// [SECTION] State and commands -----------------------------------------------------------------

json SpotlightWidget::state() const {
  json s = {{"kind", "spotlight"}, {"sentences", sentences_}, {"sentence_index", sentence_},
            {"mask", "none"}, {"explained", explain_.state()}};
  if (!error_.empty()) s["error"] = error_;
  if (!input_error_.empty()) s["input_error"] = input_error_;
  if (!trace_) return s;
  const Trace& t = *trace_;
  s["sentence"] = sentences_[static_cast<std::size_t>(sentence_)];
  s["custom"] = has_custom_ && sentence_ + 1 == static_cast<int>(sentences_.size());
  s["tokens"] = t.labels;
  json seeded = json::array();
  for (std::size_t i = 0; i < t.tokens.size(); ++i)
    if (!t.known[i]) seeded.push_back(t.labels[i]);
  s["seeded"] = seeded;
  s["query"] = t.labels[static_cast<std::size_t>(query_)];
  s["query_index"] = query_;
  s["head"] = head_;
  s["heads"] = t.heads;
  s["weights"] = std::vector<float>(weights_.data(), weights_.data() + weights_.size());
  if (top_ >= 0)  // one-token sentences have no other token to look at
    s["top"] = {{"token", t.labels[static_cast<std::size_t>(top_)]}, {"index", top_}, {"weight", weights_[top_]}};
  else
    s["top"] = nullptr;
  json blend = json::array();
  for (const BlendTerm& b : blend_)
    blend.push_back(b.token >= 0 ? json{{"token", t.labels[static_cast<std::size_t>(b.token)]}, {"weight", b.weight}}
                                 : json{{"token", "others"}, {"weight", b.weight}, {"count", b.count}});
  s["blend"] = blend;
  if (const Step* step = find_step(t, StepKind::blend, head_)) {
    const auto row = step->result.values.row(query_);
    s["vector"] = std::vector<float>(row.data(), row.data() + row.size());
  }
  return s;
}

constexpr std::string_view kCommands[] = {"setSentence", "setQuery", "explain", "setHead"};

std::optional<std::string> SpotlightWidget::command(const json& message) {
  const std::string type = message.value("type", std::string());
  // Anything else gets the base reply ("this widget does not take ..."), so the App tries the
  // next widget.
  if (std::find(std::begin(kCommands), std::end(kCommands), type) == std::end(kCommands))
    return Widget::command(message);
  if (type == "setSentence") {
    if (!message.contains("text") || !message["text"].is_string()) return "setSentence needs a string \"text\"";
    const std::string text = message["text"].get<std::string>();
    auto problem = set_sentence(text);
    if (!problem) std::snprintf(input_, sizeof input_, "%s", text.c_str());
    input_error_ = problem ? *problem : std::string();
    return problem;
  }
  if (!trace_) return "the spotlight has no sentence to work on: " + error_;
  const auto token_of = [&](const json& v) -> int {
    if (v.is_number_integer()) return v.get<int>();
    if (v.is_string()) return find_token(first_key(v.get<std::string>()));
    return -1;
  };
  if (type == "setQuery" || type == "explain") {
    const char* field = type == "setQuery" ? "query" : "token";
    const int token = message.contains(field) ? token_of(message[field]) : -1;
    if (token < 0 || token >= static_cast<int>(trace_->tokens.size()))
      return std::string("no such token in the sentence (\"") + field + "\" is a word of it or its index)";
    if (type == "setQuery") select_query(token);
    else explain_.open(explain_weight(token));
    return std::nullopt;
  }
  if (type == "setHead") {
    const int head = int_field(message, "head").value_or(-2);
    if (head < -1 || head >= trace_->heads)
      return "\"head\" must be -1 (mean of all heads) or 0.." + std::to_string(trace_->heads - 1);
    head_ = head;
    refresh();
    return std::nullopt;
  }
  return Widget::command(message);
}

}  // namespace

std::unique_ptr<Widget> make_spotlight_widget(const lesson::Spotlight& block, const ModelSpec& spec) {
  return std::make_unique<SpotlightWidget>(block, spec);
}

}  // namespace neuralpath::ui
