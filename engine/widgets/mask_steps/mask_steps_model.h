// mask_steps_model.h: the mask steps' model (no ImGui). One engine run per sentence gives the
// Trace whose score, scale, mask and softmax steps are the four stages; the three common
// mistakes come from engine/core/mistakes.h, run once per sentence or head (the "no √d_k"
// demo once per d_k, 2 .. 1024). The model says in words how each number was made
// (explain_*), what the current stage shows (summary) and its numbers as a table.
//
//   commands   setSentence{text}  stage{stage: raw|scaled|masked|softmax|index}  setHead{head}
//              selectCell{row, col}  mistake{mistake: mask-after-softmax|no-scale|wrong-transpose, d?: 2..1024}
//   state()    {kind, stages, stage, stage_index, causal, sentence, tokens, head, heads, matrix
//               (−∞ as null), masked, row_sums (softmax stage), mistake, mistakes{...}, summary,
//               table, error?}
//   snapshot   {"s": sentence, "st": stage index, "h": head, "m": mistake, "d": d_k}
#pragma once
#include "engine/lesson/limits.h"
#include "engine/core/mistakes.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"
#include "engine/widgets/step_through.h"

namespace neuralpath::widgets {

enum class Mistake { after_softmax, no_scale, transpose };
inline constexpr EnumNames<Mistake, 3> kMistakes{{{{Mistake::after_softmax, "mask-after-softmax"},
                                                   {Mistake::no_scale, "no-scale"},
                                                   {Mistake::transpose, "wrong-transpose"}}}};

class MaskStepsModel : public StepThroughModel<MaskStepsSettings> {
 public:
  static constexpr const char* kKind = "mask-steps";
  static constexpr int kMaxTokens =
      16;  // four stages of a T×T grid side by side; the checker's figure too (read() hands it over)
  static constexpr int kMinLogD = 1, kMaxLogD = 10;  // the "no √d_k" slider: d_k = 2 .. 1024

  struct SetMistake {
    Mistake mistake = Mistake::after_softmax;
    std::optional<int> log_d;
  };
  struct SetLogD {
    int log_d = 6;
  };
  using SetStage = widgets::SetStage<MaskStage>;
  using Command = std::variant<SetSentence, SetStage, SetHead, SelectCell, SetMistake, SetLogD>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  MaskStepsModel(const MaskStepsSettings& settings, const lesson::Inline& caption, const ModelSpec& spec);

  TextTable table(const Step& step) const;

  // For the view (valid when has_trace()).
  const std::vector<MaskStage>& stages() const { return stages_; }
  MaskStage stage() const { return stages_[static_cast<std::size_t>(stage_)]; }
  const Step* stage_step() const;
  std::pair<float, float> stage_range() const;  // finite min and max of the stage (colours)
  Mistake mistake() const { return mistake_; }
  const MaskAfterSoftmax& after_softmax() const { return after_softmax_; }
  int log_d() const { return log_d_; }
  const ScaleDemo& scale_demo_now() const;  // at the slider's d_k
  const WrongTranspose& transpose() const { return transpose_; }
  bool row_sum_whole(Index row) const;  // prints as 1.00

  std::string stage_formula() const;  // the current stage's rule
  Explanation explain_stage_cell(Cell cell) const;
  Explanation explain_stage_row_sum(int row) const;  // softmax stage
  Explanation explain_after_softmax_row(int row) const;
  Explanation explain_bar(int key, float weight, bool scaled) const;
  Explanation explain_largest(bool scaled) const;
  Explanation explain_transpose_difference() const;

 private:
  std::optional<std::string> run(const std::string& sentence);
  void compute_mistakes();

  std::vector<MaskStage> stages_;  // stage_ is an index into these

  Mistake mistake_ = Mistake::after_softmax;
  MaskAfterSoftmax after_softmax_;      // softmax first, mask second
  Vector correct_sums_;                 // the trace's softmax rows, for comparison
  int log_d_ = 6;                       // d_k = 64
  std::vector<ScaleDemo> scale_curve_;  // one per slider position
  WrongTranspose transpose_{{}, 0.0f};
};

}  // namespace neuralpath::widgets
