// adamw.cpp: see adamw.h for the update rule.
#include "adamw.h"

#include "error.h"

#include <cmath>

namespace neuralpath {

void AdamW::step(const std::vector<ParameterRef>& parameters) {
  if (m_.empty())
    for (const ParameterRef& p : parameters) {
      m_.push_back(Vector::Zero(p.size));
      v_.push_back(Vector::Zero(p.size));
    }
  if (m_.size() != parameters.size()) throw InputError("AdamW: the parameter list changed between steps");
  ++step_;
  const AdamWSettings& s = settings_;
  const float correction1 = 1.0f - std::pow(s.beta1, static_cast<float>(step_));  // 1 − β1ᵗ
  const float correction2 = 1.0f - std::pow(s.beta2, static_cast<float>(step_));  // 1 − β2ᵗ
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const ParameterRef& p = parameters[i];
    float* m = m_[i].data();
    float* v = v_[i].data();
    const float decay = p.decay ? s.weight_decay : 0.0f;  // λ, or 0 for gains and biases
    for (Index j = 0; j < p.size; ++j) {
      const float g = p.grad[j];
      m[j] = s.beta1 * m[j] + (1.0f - s.beta1) * g;      // m = β1·m + (1 − β1)·g
      v[j] = s.beta2 * v[j] + (1.0f - s.beta2) * g * g;  // v = β2·v + (1 − β2)·g²
      const float m_hat = m[j] / correction1;            // m̂
      const float v_hat = v[j] / correction2;            // v̂
      p.value[j] -=
          s.learning_rate * (m_hat / (std::sqrt(v_hat) + s.epsilon) + decay * p.value[j]);  // θ −= lr·(m̂/(√v̂+ε) + λθ)
    }
  }
}

}  // namespace neuralpath
