// narration.h: plain sentences built from a step's real numbers, printed with format.h so the
// narrator says exactly what the cells show. Example (score then scale step for head 1):
//   "'cat' scores 'The' at 1.90; divided by √16 that is 0.47."
#pragma once

#include "engine/trace/trace.h"

#include <string>

namespace neuralpath {

// The sentence about one cell of a step (a view calls this for the cell under the pointer;
// Step::narration is narrate(trace, step, step.focus)). Cell {-1,-1} = the step as a whole.
std::string narrate(const Trace& trace, const Step& step, Cell cell);

}  // namespace neuralpath
