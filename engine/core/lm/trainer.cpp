// trainer.cpp: one step of data-parallel training, the schedule, validation, snapshots (trainer.h).
#include "engine/core/lm/trainer.h"

#include "engine/core/error.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::lm {

struct LmTrainer::Part {
  int index = 0;             // k: its share of the batch, and the k-th slice of every tensor
  int first = 0, count = 0;  // sequences [first, first + count) of the batch
  Activations acts;
  Buffer grads;
  float loss_sum = 0.0f;  // Σ of this part's per-token losses
  double squares = 0.0;   // Σ g² over its slices of the batch's gradient
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
    part->index = k;
    part->first = c.batch * k / parts;
    part->count = c.batch * (k + 1) / parts - part->first;
    part->acts.resize(c, part->count, c.context);
    part->grads.assign(layout_.total, 0.0f);
    parts_.push_back(std::move(part));
  }
  inputs_.resize(static_cast<std::size_t>(c.batch) * static_cast<std::size_t>(c.context));
  targets_.resize(inputs_.size());
  threads_ = std::make_unique<StepThreads>(parts - 1);
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

// One step in three phases, each run by every part on its own thread (or one after the other
// without threads), with every part waiting for the others between phases:
//   1. the forward and backward of its sequences, into its own gradient buffer;
//   2. its slice of every tensor (slice_of): the parts' gradients added in part order, into
//      part 0's buffer, and Σ g² over the slice;
//   3. the global norm from every part's Σ g² (in part order, so every part computes the same
//      number), the clip, and AdamW on its slice.
// Phases 2 and 3 were one thread's work after the others had finished: a fifth of a step of the
// page's small config. The sums are the same whatever thread runs them: one thread gives the
// weights it gave before, and a given thread count gives the same weights run after run.
float LmTrainer::step() {
  const LmConfig& c = model_.config;
  const int T = c.context;
  sample_batch(data_.train, c.batch, T, c.repeat_fraction, rng_, inputs_.data(), targets_.data());
  const float dloss = 1.0f / static_cast<float>(c.batch * T);  // L = mean over the whole batch
  adamw_.set_learning_rate(learning_rate_at(adamw_.steps()));
  std::vector<ParameterRef> refs;
  Buffer& grads = parts_[0]->grads;  // the batch's gradient, once phase 2 has added the parts
  for (const TensorInfo& t : layout_.tensors)
    refs.push_back({model_.weights.data() + t.offset, grads.data() + t.offset, static_cast<Index>(t.size()), t.decay});
  adamw_.prepare(refs);
  const int parts = static_cast<int>(parts_.size());

  auto forward_backward = [&](Part& part) {
    std::fill(part.grads.begin(), part.grads.end(), 0.0f);
    const int* in = inputs_.data() + static_cast<std::ptrdiff_t>(part.first) * T;
    const int* tg = targets_.data() + static_cast<std::ptrdiff_t>(part.first) * T;
    const float mean = model_forward(c, layout_, model_.weights.data(), part.acts, in, tg, part.count, T);
    part.loss_sum = mean * static_cast<float>(part.count * T);
    model_backward(c, layout_, model_.weights.data(), part.grads.data(), part.acts, in, tg, dloss);
  };
  auto add_parts = [&](Part& part) {
    double squares = 0.0;
    for (const TensorInfo& t : layout_.tensors) {
      const auto [first, count] = slice_of(static_cast<Index>(t.size()), part.index, parts);
      float* g = grads.data() + t.offset + first;
      for (int k = 1; k < parts; ++k) {
        const float* other = parts_[static_cast<std::size_t>(k)]->grads.data() + t.offset + first;
        for (Index i = 0; i < count; ++i) g[i] += other[i];  // g = Σ_k g_k
      }
      for (Index i = 0; i < count; ++i) squares += static_cast<double>(g[i]) * g[i];
    }
    part.squares = squares;
  };
  auto global_norm = [&] {
    double squares = 0.0;
    for (const auto& part : parts_) squares += part->squares;
    return static_cast<float>(std::sqrt(squares));  // ‖g‖
  };
  auto clip_and_update = [&](Part& part) {
    const float norm = global_norm();
    if (!std::isfinite(norm)) return;  // the step is refused below, with nothing changed
    if (c.grad_clip > 0.0f && norm > c.grad_clip) {
      const float scale = c.grad_clip / norm;  // g = g · min(1, clip / ‖g‖)
      for (const TensorInfo& t : layout_.tensors) {
        const auto [first, count] = slice_of(static_cast<Index>(t.size()), part.index, parts);
        float* g = grads.data() + t.offset + first;
        for (Index i = 0; i < count; ++i) g[i] *= scale;
      }
    }
    adamw_.update_slice(refs, part.index, parts);
  };
  // One thread's share: its parts through the three phases, every thread waiting for the
  // others between them.
  auto run = [&](const std::vector<Part*>& mine) {
    for (Part* part : mine) forward_backward(*part);
    threads_->phase();
    for (Part* part : mine) add_parts(*part);
    threads_->phase();
    for (Part* part : mine) clip_and_update(*part);
  };

  // Thread i > 0 runs part i; thread 0 (this one) part 0 and any part no thread was had for.
  const int threads = threads_->size();
  threads_->run([&](int i) {
    std::vector<Part*> mine{parts_[static_cast<std::size_t>(i)].get()};
    if (i == 0)
      for (int k = threads; k < parts; ++k) mine.push_back(parts_[static_cast<std::size_t>(k)].get());
    run(mine);
  });
  last_norm_ = global_norm();
  if (!std::isfinite(last_norm_))
    throw InputError("training diverged (the gradient is not finite); try a lower learning rate");
  adamw_.finish_step();
  model_.steps = adamw_.steps();
  float loss_sum = 0.0f;
  for (const auto& part : parts_) loss_sum += part->loss_sum;  // in part order
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
