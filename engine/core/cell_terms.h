// cell_terms.h: one cell of a matrix product taken apart into the products summed into it, as
// the trace records them for every step (engine/trace/trace.h) and head_stats.h for one weight.
#pragma once

#include <vector>

namespace neuralpath {

struct Cell {
  int row = -1;
  int col = -1;
};

// One product a·b summed (with the others of its cell) into a result cell; `index` is the
// position summed over (feature k for a dot product, key j for a blend). Steps that are not
// sums (scale, softmax, layer_norm) use a single or few terms whose meaning term_a/term_b name.
struct Term {
  int index;
  float a;
  float b;
};
struct CellTerms {
  Cell cell;
  std::vector<Term> terms;
  float value;
};

}  // namespace neuralpath
