// finite_difference.h: the number every backward pass is checked against, for the core suite
// (grad_test) and the language model's (tests/lm/grad_test).
#pragma once

#include <functional>

namespace neuralpath::test {

// d loss / d x by central differences, (loss(x + eps) − loss(x − eps)) / 2·eps, with x put back
// as it was. `x` is one entry of a buffer that `loss` reads.
inline float central_difference(const std::function<double()>& loss, float& x, float eps) {
  const float saved = x;
  x = saved + eps;
  const double up = loss();
  x = saved - eps;
  const double down = loss();
  x = saved;
  return static_cast<float>((up - down) / (2.0 * eps));
}

}  // namespace neuralpath::test
