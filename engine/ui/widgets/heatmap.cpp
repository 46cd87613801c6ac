// heatmap.cpp: the causal heatmap. Query rows × key columns of the engine's softmax weights,
// masked cells hatched and blocked at 0%, every row's sum beside it, a BERT switch that removes
// the mask and reruns the engine, and for the hovered or tapped cell how it was made: the q·k
// products, the scaling by 1/√d_k, the exponent and the row's sum (the Trace's cell terms).
//
// [SECTION] Model (one engine run per sentence or mask change)
// [SECTION] Explanations
// [SECTION] Drawing
// [SECTION] State and commands
#include "engine/core/block.h"
#include "engine/core/error.h"
#include "engine/core/format.h"
#include "engine/core/narration.h"
#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/grid.h"
#include "engine/ui/widgets/kit.h"
#include "engine/ui/widgets/readout.h"
#include "engine/ui/widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <string_view>

namespace neuralpath::ui {
namespace {

using nlohmann::json;

constexpr int kMaxGridTokens = 24;  // a 24×24 grid still reads on a laptop; phones scroll it

class HeatmapWidget final : public Widget {
 public:
  HeatmapWidget(const lesson::Heatmap& block, const ModelSpec& spec);

  const char* kind() const override { return "heatmap"; }
  void draw(const UiContext& ui) override;
  json state() const override;
  std::optional<std::string> command(const json& message) override;
  std::vector<json> take_events() override { return explain_.take_events(); }

 private:
  std::optional<std::string> run(const std::string& sentence, bool causal);
  void refresh();

  Explanation explain_cell(Cell cell) const;
  Explanation explain_row_sum(int row) const;
  void draw_details(const UiContext& ui, Cell cell);

  lesson::Heatmap      block_;
  ModelSpec            spec_;
  std::string          sentence_;
  bool                 causal_ = true;
  int                  head_ = 0;
  std::optional<Trace> trace_;
  std::string          error_;
  Matrix               weights_;    // the softmax step's result for head_
  Vector               row_sums_;   // Σ_j weights_(i, j): 1 for every row that sees a key
  std::optional<Cell>  selected_;
  std::optional<Cell>  hovered_;
  Explainer            explain_;
};

// [SECTION] Model ------------------------------------------------------------------------------

HeatmapWidget::HeatmapWidget(const lesson::Heatmap& block, const ModelSpec& spec)
    : block_(block), spec_(spec), causal_(block.causal) {
  if (auto problem = run(block.sentence, block.causal)) error_ = *problem;
}

std::optional<std::string> HeatmapWidget::run(const std::string& sentence, bool causal) {
  std::vector<Token> tokens;
  try {
    tokens = tokenize(sentence);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  if (tokens.empty()) return std::string("Type a sentence first: the heatmap needs at least one word.");
  if (static_cast<int>(tokens.size()) > kMaxGridTokens)
    return "That sentence has " + std::to_string(tokens.size()) + " tokens; the heatmap shows at most " +
           std::to_string(kMaxGridTokens) + ". Try a shorter one.";
  TraceOptions options;
  options.mask = causal ? Mask::causal_mask() : Mask::none();
  try {
    Trace trace = run_block(spec_, tokens, options);
    trace_ = std::move(trace);
  } catch (const InputError& e) {
    return std::string("The engine could not run this sentence: ") + e.what();
  }
  sentence_ = sentence;
  causal_ = causal;
  head_ = std::clamp(head_, 0, trace_->heads - 1);
  const int t = static_cast<int>(trace_->tokens.size());
  if (selected_ && (selected_->row >= t || selected_->col >= t)) selected_.reset();
  refresh();
  error_.clear();
  return std::nullopt;
}

void HeatmapWidget::refresh() {
  const Step* softmax = find_step(*trace_, StepKind::softmax, head_);
  weights_ = softmax ? softmax->result.values : trace_->weights(head_);
  row_sums_ = weights_.rowwise().sum();  // shown beside each row: softmax makes it 1
}

// [SECTION] Explanations -----------------------------------------------------------------------

Explanation HeatmapWidget::explain_cell(Cell cell) const {
  const Trace& t = *trace_;
  const std::string q = quote_token(t.labels[static_cast<std::size_t>(cell.row)]);
  const std::string k = quote_token(t.labels[static_cast<std::size_t>(cell.col)]);
  Explanation e;
  e.title = q + " → " + k + ": " + format_percent(weights_(cell.row, cell.col));
  e.formula = "w = exp(q·k/√d_k − max) / Σ exp(q·k/√d_k − max)";
  if (const Step* score = find_step(t, StepKind::score, head_))
    if (const CellTerms* terms = find_terms(*score, cell))
      e.inputs.push_back({"q·k", products_text(*terms) + " = " + format_number(terms->value)});
  if (const Step* scale = find_step(t, StepKind::scale, head_))
    e.inputs.push_back({"× " + scale->scalar_name, format_number(scale->result.values(cell.row, cell.col))});
  if (const Step* mask = find_step(t, StepKind::mask, head_)) {
    e.inputs.push_back({"after the mask", format_number(mask->result.values(cell.row, cell.col))});
    if (t.mask.hides(cell.row, cell.col)) e.text = narrate(t, *mask, cell) + " ";
  }
  if (const Step* softmax = find_step(t, StepKind::softmax, head_)) {
    if (const CellTerms* terms = find_terms(*softmax, cell); terms && !terms->terms.empty()) {
      e.inputs.push_back({"exp(s − max)", format_number(terms->terms.front().a)});
      e.inputs.push_back({"1 / row sum of exp", format_number(terms->terms.front().b)});
    }
    e.text += narrate(t, *softmax, cell);
  }
  return e;
}

Explanation HeatmapWidget::explain_row_sum(int row) const {
  const Trace& t = *trace_;
  Explanation e;
  e.title = "Row of " + quote_token(t.labels[static_cast<std::size_t>(row)]) + " sums to " +
            format_percent(row_sums_[row]);
  e.formula = "Σ_j w_ij = 1 for every query i that can see a key";
  for (int j = 0; j < weights_.cols(); ++j)
    e.inputs.push_back({quote_token(t.labels[static_cast<std::size_t>(j)]), format_percent(weights_(row, j))});
  e.text = "Softmax divides each exponent by the row's total, so the weights are shares of one whole. "
           "Masked keys get exactly 0, so the visible keys share all of it.";
  return e;
}

// [SECTION] Drawing ----------------------------------------------------------------------------

void HeatmapWidget::draw(const UiContext& ui) {
  ImGui::PushID(this);
  kit::Card card(ui, "heatmap");
  const float width = card.inner_width();
  const Palette& c = ui.colors();
  if (!trace_) {
    kit::title(ui, "Heatmap");
    kit::wrapped(ui, "This heatmap cannot be shown: " + error_, c.bad);
  } else {
    if (block_.bert_switch) {
      const int picked = kit::segmented(ui, "mask", {"Causal (GPT)", "No mask (BERT)"}, causal_ ? 0 : 1, width);
      if (picked >= 0 && (picked == 0) != causal_) run(sentence_, picked == 0);
    }
    if (trace_->heads > 1) {
      std::vector<std::string> heads;
      for (int h = 0; h < trace_->heads; ++h) heads.push_back("Head " + std::to_string(h + 1));
      const int picked = kit::segmented(ui, "head", heads, head_, width);
      if (picked >= 0 && picked != head_) {
        head_ = picked;
        refresh();
      }
    }
    kit::wrapped(ui,
                 causal_ ? "Causal mask: each word sees itself and the words before it; the future is blocked (⊘)."
                         : "No mask (BERT): every word sees every word, before and after it.",
                 c.muted, kit::Face::small);
    kit::gap(ui, 4);

    GridSpec grid;
    grid.id = "weights";
    grid.rows = grid.cols = trace_->labels;
    grid.selected = selected_;
    grid.cell = [&](int r, int k) {
      GridCell cell;
      const float w = weights_(r, k);
      cell.blocked = trace_->mask.hides(r, k);
      cell.text = cell.blocked ? "⊘ " + format_percent(w) : format_percent(w);
      cell.fallback = cell.blocked ? "⊘" : "";
      cell.fill = heat_color(ui.theme, w);
      return cell;
    };
    grid.row_end_title = "row sum";
    for (int r = 0; r < row_sums_.size(); ++r) {
      grid.row_end.push_back(format_percent(row_sums_[r]));
      grid.row_end_color.push_back(c.good);
    }
    grid.explain_row_end = [this](int r) { return explain_row_sum(r); };
    const GridResult result = draw_grid(ui, grid, width, explain_);
    hovered_ = result.hovered;
    if (result.picked) selected_ = result.picked;

    kit::gap(ui, 6);
    if (const std::optional<Cell> shown = hovered_ ? hovered_ : selected_)
      draw_details(ui, *shown);
    else
      kit::wrapped(ui, "Hover or tap a cell to see how its weight was made.", c.muted, kit::Face::small);
  }
  const std::string caption = lesson::plain_text(block_.caption);
  if (!caption.empty()) {
    kit::gap(ui, 4);
    kit::wrapped(ui, caption, c.muted, kit::Face::small);
  }
  card.end();
  explain_.draw_popup(ui);
  ImGui::PopID();
}

void HeatmapWidget::draw_details(const UiContext& ui, Cell cell) {
  const Trace& t = *trace_;
  const Palette& c = ui.colors();
  const std::string q = quote_token(t.labels[static_cast<std::size_t>(cell.row)]);
  const std::string k = quote_token(t.labels[static_cast<std::size_t>(cell.col)]);
  kit::title(ui, q + " looks at " + k + (t.heads > 1 ? " (head " + std::to_string(head_ + 1) + ")" : ""));
  const Step* score = find_step(t, StepKind::score, head_);
  const Step* scale = find_step(t, StepKind::scale, head_);
  const Step* mask = find_step(t, StepKind::mask, head_);
  const Step* softmax = find_step(t, StepKind::softmax, head_);
  if (!score || !scale || !mask || !softmax) return;
  ImFont* body = kit::font(ui, kit::Face::body);
  ImFont* mono = kit::font(ui, kit::Face::mono);
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushID("details");
  // One line per stage of the formula; each number opens its own explanation.
  const auto line = [&](int id, const std::string& lead, const std::string& value, const Step& step,
                        const std::string& tail = "") {
    kit::Flow flow(width, ui.px(5), ui.px(2));
    flow.place(kit::text_size(body, lead));
    ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
    ImGui::TextUnformatted(lead.c_str());
    ImGui::PopStyleColor();
    flow.place(kit::text_size(mono, value));
    ImGui::PushID(id);
    NumberStyle style;
    style.mono = true;
    explain_.number(ui, "##v", value, [&t, &step, cell] {
      Explanation e;
      e.title = step.title;
      e.text = narrate(t, step, cell);
      if (const CellTerms* terms = find_terms(step, cell); terms && step.kind == StepKind::score)
        e.inputs.push_back({step.term_a + "×" + step.term_b, products_text(*terms, 8)});
      return e;
    }, style);
    ImGui::PopID();
    if (!tail.empty()) {
      flow.place(kit::text_size(body, tail));
      ImGui::PushStyleColor(ImGuiCol_Text, c.muted);
      ImGui::TextUnformatted(tail.c_str());
      ImGui::PopStyleColor();
    }
    flow.end();
  };
  line(1, "score q·k =", format_number(score->result.values(cell.row, cell.col)), *score);
  if (const CellTerms* products = find_terms(*score, cell))
    kit::wrapped(ui, "= " + products_text(*products), c.muted, kit::Face::small);
  line(2, "scaled × " + scale->scalar_name + " =", format_number(scale->result.values(cell.row, cell.col)), *scale);
  if (t.mask.hides(cell.row, cell.col)) {
    line(3, "masked:", format_number(mask->result.values(cell.row, cell.col)), *mask, "so exp(−∞) = 0");
  } else if (const CellTerms* terms = find_terms(*softmax, cell); terms && !terms->terms.empty()) {
    line(3, "exp(s − max) =", format_number(terms->terms.front().a), *softmax,
         "× (1 / Σ exp) " + format_number(terms->terms.front().b));
  }
  line(4, "weight =", format_percent(weights_(cell.row, cell.col)), *softmax);
  ImGui::PopID();
  kit::wrapped(ui, narrate(t, *softmax, cell), c.muted, kit::Face::small);
}

// [SECTION] State and commands -----------------------------------------------------------------

json HeatmapWidget::state() const {
  json s = {{"kind", "heatmap"}, {"causal", causal_}, {"mask", causal_ ? "causal" : "none"},
            {"bert_switch", block_.bert_switch}, {"explained", explain_.state()}};
  if (!error_.empty()) s["error"] = error_;
  if (!trace_) return s;
  s["sentence"] = sentence_;
  s["tokens"] = trace_->labels;
  s["head"] = head_;
  s["heads"] = trace_->heads;
  json rows = json::array(), masked = json::array();
  for (int i = 0; i < weights_.rows(); ++i) {
    rows.push_back(std::vector<float>(weights_.row(i).data(), weights_.row(i).data() + weights_.cols()));
    for (int j = 0; j < weights_.cols(); ++j)
      if (trace_->mask.hides(i, j)) masked.push_back({i, j});
  }
  s["weights"] = rows;
  s["masked"] = masked;
  s["row_sums"] = std::vector<float>(row_sums_.data(), row_sums_.data() + row_sums_.size());
  s["selected"] = selected_ ? json{{"row", selected_->row}, {"col", selected_->col}} : json(nullptr);
  return s;
}

constexpr std::string_view kCommands[] = {"setMask", "setSentence", "setHead", "selectCell", "explain"};

std::optional<std::string> HeatmapWidget::command(const json& message) {
  const std::string type = message.value("type", std::string());
  // Anything else gets the base reply ("this widget does not take ..."), so the App tries the
  // next widget.
  if (std::find(std::begin(kCommands), std::end(kCommands), type) == std::end(kCommands))
    return Widget::command(message);
  if (type == "setMask") {
    bool causal = causal_;
    if (message.contains("causal") && message["causal"].is_boolean()) causal = message["causal"].get<bool>();
    else if (message.contains("mask") && message["mask"] == "causal") causal = true;
    else if (message.contains("mask") && (message["mask"] == "none" || message["mask"] == "bert")) causal = false;
    else return std::string("setMask needs \"mask\": \"causal\" | \"none\" (or \"causal\": true/false)");
    if (!block_.bert_switch && causal != block_.causal) return std::string("this heatmap has no BERT switch");
    return run(trace_ ? sentence_ : block_.sentence, causal);
  }
  if (type == "setSentence") {
    if (!message.contains("text") || !message["text"].is_string()) return std::string("setSentence needs a string \"text\"");
    return run(message["text"].get<std::string>(), causal_);
  }
  if (!trace_) return "the heatmap has no sentence to work on: " + error_;
  const int t = static_cast<int>(trace_->tokens.size());
  if (type == "setHead") {
    const int head = int_field(message, "head").value_or(-1);
    if (head < 0 || head >= trace_->heads) return "\"head\" must be 0.." + std::to_string(trace_->heads - 1);
    head_ = head;
    refresh();
    return std::nullopt;
  }
  if (type == "selectCell" || type == "explain") {
    const int row = int_field(message, "row").value_or(-1), col = int_field(message, "col").value_or(-1);
    if (row < 0 || row >= t || col < 0 || col >= t)
      return "\"row\" and \"col\" must be token indices 0.." + std::to_string(t - 1);
    selected_ = Cell{row, col};
    if (type == "explain") explain_.open(explain_cell(*selected_));
    return std::nullopt;
  }
  return Widget::command(message);
}

}  // namespace

std::unique_ptr<Widget> make_heatmap_widget(const lesson::Heatmap& block, const ModelSpec& spec) {
  return std::make_unique<HeatmapWidget>(block, spec);
}

}  // namespace neuralpath::ui
