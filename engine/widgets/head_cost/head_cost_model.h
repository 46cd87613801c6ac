// head_cost_model.h: the live cost readout's model (no ImGui). Three settings — d_model, the head
// count H and the sequence length T — and what one multi-head layer costs at them
// (engine/core/multi_head_cost.h), plus the same figures at every head count that divides
// d_model, so the view can show them staying flat while d_head shrinks. H always divides
// d_model: a refused setHeads says which counts would, and a new d_model that the old H does not
// divide moves H to the nearest count that does and says so (note()).
//
//   commands   setWidth{d_model: 1..65536}  setHeads{heads}  setLength{T: 1..1000000}
//              explain{figure: d_head|parameters|projections|scores|total|flops|grids}
//   state()    {kind, d_model, heads, d_head, T, head_counts, widths, weights, biases, parameters,
//               projection_mults, score_mults, mix_mults, total_mults, flops, grid_cells,
//               by_heads[{heads, d_head, parameters, total_mults, grid_cells}], note, summary, table}
//   snapshot   {"d": d_model, "h": heads, "T": T}
#pragma once
#include "engine/core/multi_head_cost.h"
#include "engine/widgets/widget_model.h"
#include "engine/widgets/head_cost/head_cost_settings.h"
#include "engine/widgets/readout.h"

#include <cstdint>

namespace neuralpath::widgets {

class HeadCostModel : public WidgetModelBase<HeadCostSettings> {
 public:
  static constexpr const char* kKind = "head-cost";
  static constexpr std::int64_t kMinT = 1, kMaxT = 100000;  // the slider's range (a command may go to 10⁶)

  // The figures a learner can tap, in the order the view shows them.
  enum class Figure { d_head, parameters, projections, scores, total, flops, grids };
  static const char* figure_name(Figure figure);  // "d_head", "parameters", ...

  struct SetWidth {
    std::int64_t d_model = 0;
  };
  struct SetHeads {
    std::int64_t heads = 0;
  };
  struct SetLength {
    std::int64_t t = 0;
  };
  struct Explain {
    Figure figure = Figure::parameters;
  };
  using Command = std::variant<SetWidth, SetHeads, SetLength, Explain>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  HeadCostModel(const HeadCostSettings& settings, const lesson::Inline& caption);

  TextTable table() const;

  // For the view.
  const MultiHeadCost& cost() const { return cost_; }
  const std::vector<MultiHeadCost>& by_heads() const { return by_heads_; }  // one per divisor of d_model
  int heads_index() const;                                                  // into by_heads()
  const std::vector<std::int64_t>& widths() const;   // the d_model slider's stops (real models' widths)
  int width_index() const;                           // the stop nearest d_model
  const std::string& note() const { return note_; }  // why H moved, or ""
  Explanation explain(Figure figure) const;

 private:
  void recount();

  MultiHeadCost cost_;
  std::vector<MultiHeadCost> by_heads_;
  std::string note_;
};

}  // namespace neuralpath::widgets
