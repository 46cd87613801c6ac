// trainer.h: training the language model one step at a time (what the CLI loops over and the
// page calls once per frame or so).
//
// One step: a batch of config.batch sequences (corpus.h) drawn from a seeded generator; the
// batch is cut into `threads` contiguous parts, each thread runs the forward and backward of its
// part into its own gradient buffer, and the parts are added in thread order (so a given seed
// and thread count give the same weights bit for bit, whatever the timing); the gradient's
// global L2 norm is clipped to config.grad_clip; the learning rate follows a linear warm-up then
// a cosine decay to final_lr_fraction of the peak at config.steps; one AdamW update with
// decoupled weight decay on the matrices only (adamw.h).
//
// No clock and no I/O inside: the caller times steps (tokens per second) if it wants to.
#pragma once

#include "engine/core/adamw.h"
#include "engine/core/lm/corpus.h"
#include "engine/core/lm/heads.h"
#include "engine/core/lm/model.h"
#include "engine/core/lm/step_threads.h"

#include <memory>
#include <vector>

namespace neuralpath::lm {

struct TrainerOptions {
  std::uint64_t seed = 1;  // the initial weights and the order of batches
  int threads = 1;
  int steps = 0;  // the schedule's length (0 = config.steps)
};

class LmTrainer {
 public:
  // data: the token streams (training and validation) under model.tokenizer. Throws InputError
  // when the training stream is shorter than one sequence, or threads is outside 1..64.
  LmTrainer(LmModel model, TokenStreams data, TrainerOptions options);
  ~LmTrainer();

  float step();  // one update; returns the batch's mean loss
  int steps_done() const { return adamw_.steps(); }
  int total_steps() const { return total_steps_; }
  float learning_rate_at(int step) const;  // the schedule (step counted from 0)
  float last_gradient_norm() const { return last_norm_; }

  // Mean loss on config.val_batches·batch windows of the validation stream, evenly spaced
  // (the same windows every time), no repeats: comparable across steps.
  float validation_loss() const;
  HeadReport head_scores() const { return score_heads(model_); }

  const LmModel& model() const { return model_; }
  const TokenStreams& data() const { return data_; }
  int tokens_per_step() const { return model_.config.batch * model_.config.context; }

  struct Snapshot {  // everything that changes while training
    std::vector<float> weights;
    AdamW::State adamw;
    std::uint64_t rng_state = 0;
    float last_norm = 0.0f;
  };
  Snapshot snapshot() const;
  void restore(const Snapshot& snapshot);

 private:
  struct Part;  // one thread's activations and gradients
  LmModel model_;
  TokenStreams data_;
  TrainerOptions options_;
  ParameterLayout layout_;
  AdamW adamw_;
  SplitMix64 rng_;
  int total_steps_ = 0;
  float last_norm_ = 0.0f;
  std::vector<int> inputs_, targets_;
  std::vector<std::unique_ptr<Part>> parts_;
  std::unique_ptr<StepThreads> threads_;  // part k's thread, kept from step to step
  mutable std::unique_ptr<Activations> eval_acts_;
};

}  // namespace neuralpath::lm
