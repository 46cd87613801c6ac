// adamw.h: the AdamW optimiser (Loshchilov & Hutter), over a list of parameter buffers.
//
// For each parameter θ with gradient g, at step t = 1, 2, ...:
//   m = β1·m + (1 − β1)·g                 running mean of the gradient
//   v = β2·v + (1 − β2)·g²                running mean of its square
//   m̂ = m / (1 − β1ᵗ),  v̂ = v / (1 − β2ᵗ)  bias correction (both start at 0)
//   θ = θ − lr·(m̂ / (sqrt(v̂) + ε) + λ·θ)  decoupled weight decay λ (only where decay is on)
// The decay is decoupled (Loshchilov & Hutter): it shrinks θ itself, apart from the gradient,
// so Adam's per-parameter scaling does not weaken it where gradients are large (L2 added to the
// loss would be divided by sqrt(v̂) like the rest of g). It is meant for matrices; gains and
// biases are named with decay = false (their scale is what they learn). The lessons' small
// trainers use λ = 0, which is plain Adam; the language model (engine/core/lm) uses λ > 0.
// Plain loops in a fixed order, no threads and no random numbers: the same gradients give the
// same parameters bit for bit on one build.
#pragma once

#include "tensor.h"

#include <vector>

namespace neuralpath {

struct AdamWSettings {
  float learning_rate = 0.01f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
  float weight_decay = 0.0f;
};

// The k-th of `parts` contiguous cuts of [0, size): [first, first + count).
struct Slice {
  Index first = 0, count = 0;
};
inline Slice slice_of(Index size, int part, int parts) {
  const Index first = size * part / parts;
  return {first, size * (part + 1) / parts - first};
}

// One parameter buffer and its gradient, both of `size` floats (an Eigen matrix's data()).
struct ParameterRef {
  float* value;
  const float* grad;
  Index size;
  bool decay = true;  // false: weight decay never touches this buffer (gains, biases)
};

class AdamW {
 public:
  explicit AdamW(AdamWSettings settings = {}) : settings_(settings) {}

  // One update of every parameter. The list must name the same buffers, in the same order,
  // at every call (the moments are kept per position in the list).
  void step(const std::vector<ParameterRef>& parameters);

  // The same update cut into slices, for threads (the language model's trainer):
  //   prepare(list);  update_slice(list, k, parts) for every k in [0, parts);  finish_step();
  // Each slice is the k-th of `parts` cuts of every buffer (slice_of), so slices never overlap
  // and may run on different threads at once; the parameters come out as step() leaves them,
  // bit for bit. Skipping the slices and finish_step() after prepare() leaves the step undone.
  void prepare(const std::vector<ParameterRef>& parameters);  // the moments, at the first step
  void update_slice(const std::vector<ParameterRef>& parameters, int part, int parts);  // as update steps() + 1
  void finish_step() { ++step_; }

  int steps() const { return step_; }
  const AdamWSettings& settings() const { return settings_; }
  void set_learning_rate(float lr) { settings_.learning_rate = lr; }

  // Everything that changes, for snapshot/restore.
  struct State {
    int step = 0;
    std::vector<Vector> m, v;
  };
  State state() const { return {step_, m_, v_}; }
  void restore(const State& s) {
    step_ = s.step;
    m_ = s.m;
    v_ = s.v;
  }

 private:
  AdamWSettings settings_;
  int step_ = 0;
  std::vector<Vector> m_, v_;
};

}  // namespace neuralpath
