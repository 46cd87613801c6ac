// head_weights.h: every attention layer of a Trace as layer × head, and one weight explained —
// shared by the model view (every layer) and the head view (the shown layer), so the two say
// the same thing about the same number. No ImGui.
//
//   layer 0 .. C−1   the context layers, in the order they ran (trace.context)
//   layer C          the shown layer (trace.attention), the one the other widgets draw
#pragma once
#include "engine/trace/trace.h"
#include "engine/widgets/explanation.h"

#include <string>

namespace neuralpath::widgets {

int layer_count(const Trace& trace);                                 // C + 1
const MultiHeadResult& layer_result(const Trace& trace, int layer);  // REQUIRES 0 <= layer < layer_count
int heads_in(const Trace& trace, int layer);

// "Head 3" when the model has one layer, "Layer 1, head 3" when it has several.
std::string head_label(const Trace& trace, int layer, int head);

// How the weight of cell (row, col) in `head` of `layer` was made: the score's products, the
// scale, exp(s − max) and 1/Σ, in the engine's numbers (engine/core/head_stats.h weight_parts),
// and in words: the narrator's sentence for the shown layer, the catalogue's for a context one.
Explanation explain_weight(const Trace& trace, int layer, int head, Cell cell);

// The text version's cell for one query row of a head's weights `w` [T][T]: the key it weighs
// most other than itself, "cat 41.2%", or "" when the row has no other key.
std::string heaviest_other_cell(const Trace& trace, const Matrix& w, int row);

}  // namespace neuralpath::widgets
