// model_view_model.h: the model view's model (no ImGui), as BertViz's model view has it: one
// engine run of the block's sentence (or the learner's), every layer × head of the model as a
// small heatmap, one of them open at full size, one cell of it selected. Layers are numbered as
// head_weights.h does (context layers first, the shown layer last); heads and layers from 0.
//
//   commands   setSentence{text}  open{layer, head}  close{}  step{by: ±1} (the next or previous
//              head in reading order; opens the first or last when none is open)
//              selectCell{row, col} (in the open head)  explain{layer, head, row, col}
//   state()    {kind, sentence, mask, tokens, layers, heads[per layer], weights[[[[..]]]] (layer,
//               head, row, col), open{layer, head, label}|null, selected{row, col, weight}|null,
//               summary, table, error?, input_error?}
//   snapshot   {"s": sentence, "o": [layer, head] | null, "sel": [row, col] | null}
#pragma once
#include "engine/lesson/limits.h"
#include "engine/widgets/trace_model.h"
#include "engine/widgets/model_view/model_view_settings.h"

namespace neuralpath::widgets {

class ModelViewModel : public TraceModel<ModelViewSettings> {
 public:
  static constexpr const char* kKind = "model-view";
  static constexpr int kMaxTokens = kGridMaxTokens;

  struct Head {
    int layer = 0, head = 0;
    bool operator==(const Head&) const = default;
  };

  struct Open {
    Head head;
  };
  struct Close {};
  struct StepHead {
    int by = 1;
  };
  struct Explain {
    Head head;
    Cell cell;
  };
  using Command = std::variant<SetSentence, Open, Close, StepHead, SelectCell, Explain>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  ModelViewModel(const ModelViewSettings& settings, const lesson::Inline& caption, const ModelSpec& spec);

  TextTable table() const;

  // For the view (valid when has_trace()).
  const std::string& sentence() const { return sentence_; }
  int layers() const { return static_cast<int>(weights_.size()); }
  int heads(int layer) const { return static_cast<int>(weights_[static_cast<std::size_t>(layer)].size()); }
  // The softmax weights [T][T] of one head, as the engine's trace holds them.
  const Matrix& weights(Head h) const {
    return weights_[static_cast<std::size_t>(h.layer)][static_cast<std::size_t>(h.head)];
  }
  std::optional<Head> open() const { return open_; }
  std::optional<Cell> selected() const { return selected_; }
  std::string label(Head h) const;  // "Head 3", or "Layer 1, head 3" with several layers

  Explanation explain_cell(Head head, Cell cell) const;

 private:
  std::optional<std::string> run(const std::string& sentence);
  CommandResult check_head(Head h) const;  // "" when the head exists
  std::vector<Head> reading_order() const;

  std::string sentence_;
  std::vector<std::vector<Matrix>> weights_;  // [layer][head] [T][T]
  std::optional<Head> open_;
  std::optional<Cell> selected_;
};

}  // namespace neuralpath::widgets
