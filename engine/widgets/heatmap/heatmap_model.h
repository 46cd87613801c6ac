// heatmap_model.h: the causal heatmap's model (no ImGui). One engine run per sentence or mask
// change gives a Trace; the model keeps the shown head's softmax weights and their row sums,
// the selected cell, and says in words how each number was made (explain_*), what the whole
// grid shows (summary) and its numbers as a table (the text version reads both from state()).
//
//   commands   setSentence{text}  setMask{mask: causal|none | causal: bool}  setHead{head}
//              selectCell{row, col}  explain{row, col}
//   state()    {kind, sentence, tokens, causal, mask, bert_switch, head, heads, weights[[..]],
//               masked[[i, j]], row_sums, selected{row, col}|null, summary, table, error?}
//   snapshot   {"s": sentence, "c": causal, "h": head, "sel": [row, col]}  (restore() reads it)
#pragma once
#include "engine/lesson/limits.h"
#include "engine/widgets/heatmap/heatmap_settings.h"
#include "engine/widgets/trace_model.h"

namespace neuralpath::widgets {

class HeatmapModel : public TraceModel<HeatmapSettings> {
 public:
  static constexpr const char* kKind = "heatmap";
  static constexpr int kMaxTokens = kGridMaxTokens;

  struct SetMask {
    bool causal = true;
  };
  struct Explain {
    Cell cell;
  };
  using Command = std::variant<SetSentence, SetMask, SetHead, SelectCell, Explain>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  HeatmapModel(const HeatmapSettings& settings, const lesson::Inline& caption, const ModelSpec& spec);

  TextTable table() const;  // the text version's table of the numbers

  // For the view (valid when has_trace()).
  const Matrix& weights() const { return weights_; }
  const Vector& row_sums() const { return row_sums_; }
  bool causal() const { return causal_; }
  bool bert_switch() const { return settings_.bert_switch; }
  int head() const { return head_; }
  std::optional<Cell> selected() const { return selected_; }

  Explanation explain_cell(Cell cell) const;
  Explanation explain_row_sum(int row) const;
  Explanation explain_step(const Step& step, Cell cell) const;  // one line of the details

 private:
  std::optional<std::string> run(const std::string& sentence, bool causal);
  void refresh();

  std::string sentence_;
  bool causal_ = true;
  int head_ = 0;
  Matrix weights_;   // the softmax step's result for head_
  Vector row_sums_;  // Σ_j weights_(i, j): 1 for every row that sees a key
  std::optional<Cell> selected_;
};

}  // namespace neuralpath::widgets
