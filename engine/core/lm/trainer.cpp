// trainer.cpp: one step of data-parallel training, the schedule, validation, snapshots (trainer.h).
#include "engine/core/lm/trainer.h"

#include "engine/core/error.h"

#include <algorithm>
#include <cmath>
#include <system_error>
#include <thread>

// WebAssembly without -pthread has no threads: the parts of a step run one after the other,
// with the same sums in the same order (so the same weights as threads would give).
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define NP_LM_THREADS 0
#else
#define NP_LM_THREADS 1
#endif

namespace neuralpath::lm {

struct LmTrainer::Part {
  int first = 0, count = 0;  // sequences [first, first + count) of the batch
  Activations acts;
  Buffer grads;
  float loss_sum = 0.0f;  // Σ of this part's per-token losses
};

LmTrainer::LmTrainer(LmModel model, TokenStreams data, TrainerOptions options)
    : model_(std::move(model)),
      data_(std::move(data)),
      options_(options),
      layout_(parameter_layout(model_.config)),
      rng_{options.seed ^ 0x5eed5eed5eed5eedull} {
  const LmConfig& c = model_.config;
  validate_config(c);
  if (options_.threads < 1 || options_.threads > 64) throw InputError("threads must be 1 to 64");
  if (data_.train.size() < static_cast<std::size_t>(c.context) + 1)
    throw InputError("the training text has " + std::to_string(data_.train.size()) + " tokens; config " + c.name +
                     " needs at least " + std::to_string(c.context + 1));
  if (model_.weights.size() != layout_.total) throw InputError("the model's weights do not match its config");
  total_steps_ = options_.steps > 0 ? options_.steps : c.steps;
  AdamWSettings s;
  s.learning_rate = c.learning_rate;
  s.beta1 = 0.9f;
  s.beta2 = 0.95f;  // GPT-2/3's: a shorter memory of g² suits a short, noisy run
  s.epsilon = 1e-8f;
  s.weight_decay = c.weight_decay;
  adamw_ = AdamW(s);
  const int parts = std::min(options_.threads, c.batch);
  for (int k = 0; k < parts; ++k) {  // contiguous, fixed cut
    auto part = std::make_unique<Part>();
    part->first = c.batch * k / parts;
    part->count = c.batch * (k + 1) / parts - part->first;
    part->acts.resize(c, part->count, c.context);
    part->grads.assign(layout_.total, 0.0f);
    parts_.push_back(std::move(part));
  }
  inputs_.resize(static_cast<std::size_t>(c.batch) * static_cast<std::size_t>(c.context));
  targets_.resize(inputs_.size());
}

LmTrainer::~LmTrainer() = default;

float LmTrainer::learning_rate_at(int step) const {
  const LmConfig& c = model_.config;
  const float peak = c.learning_rate;
  if (step < c.warmup_steps)
    return peak * static_cast<float>(step + 1) / static_cast<float>(c.warmup_steps);  // linear warm-up
  const float span = static_cast<float>(std::max(1, total_steps_ - c.warmup_steps));
  const float progress = std::min(1.0f, static_cast<float>(step - c.warmup_steps) / span);
  const float cosine = 0.5f * (1.0f + std::cos(3.14159265f * progress));  // 1 -> 0
  return peak * (c.final_lr_fraction + (1.0f - c.final_lr_fraction) * cosine);
}

float LmTrainer::step() {
  const LmConfig& c = model_.config;
  const int T = c.context;
  sample_batch(data_.train, c.batch, T, c.repeat_fraction, rng_, inputs_.data(), targets_.data());
  const float dloss = 1.0f / static_cast<float>(c.batch * T);  // L = mean over the whole batch
  auto run = [&](Part& part) {
    std::fill(part.grads.begin(), part.grads.end(), 0.0f);
    const int* in = inputs_.data() + static_cast<std::ptrdiff_t>(part.first) * T;
    const int* tg = targets_.data() + static_cast<std::ptrdiff_t>(part.first) * T;
    const float mean = model_forward(c, layout_, model_.weights.data(), part.acts, in, tg, part.count, T);
    part.loss_sum = mean * static_cast<float>(part.count * T);
    model_backward(c, layout_, model_.weights.data(), part.grads.data(), part.acts, in, tg, dloss);
  };
#if NP_LM_THREADS
  std::vector<std::thread> helpers;
  std::size_t started = 1;
  for (; started < parts_.size(); ++started) {
    try {
      helpers.emplace_back(run, std::ref(*parts_[started]));
    } catch (const std::system_error&) {
      break;  // no thread to be had: the rest run here, with the same sums
    }
  }
  run(*parts_[0]);
  for (std::size_t k = started; k < parts_.size(); ++k) run(*parts_[k]);
  for (std::thread& t : helpers) t.join();
#else
  for (auto& part : parts_) run(*part);
#endif
  // Add the parts in thread order (fixed), into part 0's buffer.
  Buffer& grads = parts_[0]->grads;
  float loss_sum = parts_[0]->loss_sum;
  for (std::size_t k = 1; k < parts_.size(); ++k) {
    const Buffer& g = parts_[k]->grads;
    for (std::size_t i = 0; i < grads.size(); ++i) grads[i] += g[i];
    loss_sum += parts_[k]->loss_sum;
  }
  // Clip the global norm: g = g · min(1, clip / ‖g‖)
  double sq = 0.0;
  for (float g : grads) sq += static_cast<double>(g) * g;
  last_norm_ = static_cast<float>(std::sqrt(sq));
  if (!std::isfinite(last_norm_))
    throw InputError("training diverged (the gradient is not finite); try a lower learning rate");
  if (c.grad_clip > 0.0f && last_norm_ > c.grad_clip) {
    const float scale = c.grad_clip / last_norm_;
    for (float& g : grads) g *= scale;
  }
  adamw_.set_learning_rate(learning_rate_at(adamw_.steps()));
  std::vector<ParameterRef> refs;
  for (const TensorInfo& t : layout_.tensors)
    refs.push_back({model_.weights.data() + t.offset, grads.data() + t.offset, static_cast<Index>(t.size()), t.decay});
  adamw_.step(refs);
  model_.steps = adamw_.steps();
  return loss_sum / static_cast<float>(c.batch * T);
}

float LmTrainer::validation_loss() const {
  const LmConfig& c = model_.config;
  const std::vector<int>& val = data_.validation;
  if (val.size() < 2) return 0.0f;
  const int T = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(c.context), val.size() - 1));
  const std::size_t windows = static_cast<std::size_t>(c.val_batches) * static_cast<std::size_t>(c.batch);
  const std::size_t room = val.size() - static_cast<std::size_t>(T);  // starts 0 .. room − 1
  if (!eval_acts_) eval_acts_ = std::make_unique<Activations>();
  std::vector<int> in, tg;
  double sum = 0.0;
  std::size_t rows = 0;
  for (std::size_t w0 = 0; w0 < windows; w0 += static_cast<std::size_t>(c.batch)) {
    const int B = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(c.batch), windows - w0));
    in.clear();
    tg.clear();
    for (int b = 0; b < B; ++b) {
      const std::size_t start = (w0 + static_cast<std::size_t>(b)) * room / windows;  // evenly spaced
      for (int t = 0; t < T; ++t) {
        in.push_back(val[start + static_cast<std::size_t>(t)]);
        tg.push_back(val[start + static_cast<std::size_t>(t) + 1]);
      }
    }
    sum +=
        static_cast<double>(model_forward(c, layout_, model_.weights.data(), *eval_acts_, in.data(), tg.data(), B, T)) *
        B * T;
    rows += static_cast<std::size_t>(B) * static_cast<std::size_t>(T);
  }
  return static_cast<float>(sum / static_cast<double>(rows));
}

LmTrainer::Snapshot LmTrainer::snapshot() const { return {model_.weights, adamw_.state(), rng_.state, last_norm_}; }

void LmTrainer::restore(const Snapshot& s) {
  if (s.weights.size() != model_.weights.size()) throw InputError("the snapshot is of another model");
  model_.weights = s.weights;
  adamw_.restore(s.adamw);
  rng_.state = s.rng_state;
  last_norm_ = s.last_norm;
  model_.steps = adamw_.steps();
}

}  // namespace neuralpath::lm
