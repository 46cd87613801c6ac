// head_mistakes.h: the multi-head lesson's scaling mistake made for real: one head's scores
// divided by √d_model (the layer's width) instead of √d_head (the head's own), then masked and
// softmaxed exactly as attention.h does it, so the split-and-join step-through can show how
// much flatter the weights come out (the view draws these numbers; it computes none).
#pragma once

#include "attention.h"
#include "tensor.h"

namespace neuralpath {

struct ScaledByWidth {
  int width = 0;        // the width whose square root divides the scores (d_model here)
  float factor = 0.0f;  // 1/√width
  Matrix scaled;        // [T][T] scores · factor
  Matrix weights;       // [T][T] softmax of each masked row
};

// scores [T][T]: one head's raw Q_h·K_hᵀ (the trace's score step). Throws InputError when
// width < 1 or scores is not square.
ScaledByWidth scale_by_width(const Matrix& scores, int width, const Mask& mask);

}  // namespace neuralpath
