// adamw.cpp: see adamw.h for the update rule.
#include "adamw.h"

#include "error.h"

#include <cmath>

namespace neuralpath {

void AdamW::step(const std::vector<ParameterRef>& parameters) {
  prepare(parameters);
  update_slice(parameters, 0, 1);
  finish_step();
}

void AdamW::prepare(const std::vector<ParameterRef>& parameters) {
  if (m_.empty())
    for (const ParameterRef& p : parameters) {
      m_.push_back(Vector::Zero(p.size));
      v_.push_back(Vector::Zero(p.size));
    }
  if (m_.size() != parameters.size()) throw InputError("AdamW: the parameter list changed between steps");
}

void AdamW::update_slice(const std::vector<ParameterRef>& parameters, int part, int parts) {
  const float t = static_cast<float>(step_ + 1);  // this update's step number
  // Locals, not settings_'s fields: a store to m or v could otherwise alias them, and the
  // compiler would reload them every element instead of vectorising the loop.
  const float beta1 = settings_.beta1, beta2 = settings_.beta2, epsilon = settings_.epsilon;
  const float learning_rate = settings_.learning_rate;
  const float correction1 = 1.0f - std::pow(beta1, t);  // 1 − β1ᵗ
  const float correction2 = 1.0f - std::pow(beta2, t);  // 1 − β2ᵗ
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const ParameterRef& p = parameters[i];
    const auto [first, count] = slice_of(p.size, part, parts);
    float* __restrict value = p.value + first;
    const float* __restrict grad = p.grad + first;
    float* __restrict m = m_[i].data() + first;
    float* __restrict v = v_[i].data() + first;
    const float decay = p.decay ? settings_.weight_decay : 0.0f;  // λ, or 0 for gains and biases
    for (Index j = 0; j < count; ++j) {
      const float g = grad[j];
      m[j] = beta1 * m[j] + (1.0f - beta1) * g;      // m = β1·m + (1 − β1)·g
      v[j] = beta2 * v[j] + (1.0f - beta2) * g * g;  // v = β2·v + (1 − β2)·g²
      const float m_hat = m[j] / correction1;        // m̂
      const float v_hat = v[j] / correction2;        // v̂
      value[j] -= learning_rate * (m_hat / (std::sqrt(v_hat) + epsilon) + decay * value[j]);  // θ −= lr·(m̂/(√v̂+ε) + λθ)
    }
  }
}

}  // namespace neuralpath
