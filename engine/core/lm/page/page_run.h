// page_run.h: a training run the learner watches (the page's language model, config "page").
//
// An LmTrainer (trainer.h) on the page's packed tokens (page_data.h) plus everything the lesson
// shows about it, measured as it trains, with no clock and no I/O (a worker or the CLI loops
// over step()):
//
//   curve        per measured step: the mean batch loss since the last point, and every
//                validate_every steps the validation loss (trainer.h's fixed windows)
//   bigram_loss  the add-one bigram (heads.h), trained on the same training tokens, on the
//                same validation positions as the validation loss: the line to beat
//   heads        every head's previous-token and induction scores (heads.h's repeated random
//                sequences), at step 0 and every measure_every steps, kept as a history
//   milestones   the first measured step where some head's previous-token score, and where
//                some head's induction score, reaches kHeadFormed (0.5): the second is the
//                phase change the lesson marks on the loss curve (`lm train` marks the same
//                crossing, on its own logging steps, as "induction_crossed")
//   samples      text the model writes from the prompt at step 0 and every sample_every steps,
//                always with the same sampling seed, so two samples differ only by training
//   attention    every head's weights on any text (the learner's) or on the first repeated
//                random sequence, with the current weights
//
// Deterministic: the same data, config and seed give the same numbers, bit for bit on one
// build; measuring never draws from the trainer's random numbers, so a run that is measured
// more or less often trains to the same weights. A reloaded page replays the steps.
#pragma once

#include "engine/core/lm/heads.h"
#include "engine/core/lm/page/page_data.h"
#include "engine/core/lm/trainer.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::lm {

inline constexpr float kHeadFormed = 0.5f;

struct PageRunOptions {
  std::uint64_t seed = 1;  // initial weights and batch order
  int steps = 0;           // the schedule's length (0: the config's)
  int measure_every = 25;
  int validate_every = 100;
  int validation_batches = 16;  // of config.batch windows: 8,192 tokens for "page", whose
                                // own 4 batches left the curve ±0.1 nats of noise
  int sample_every = 250;
  std::string prompt = "The ";  // what samples start from
  int sample_tokens = 48;
  float sample_temperature = 0.8f;
  std::uint64_t sample_seed = 7;
};

struct LossPoint {
  int step = 0;
  float loss = NAN;      // mean batch loss over the steps since the last point (NaN at 0)
  float val_loss = NAN;  // NaN where not measured
};

struct HeadsPoint {
  int step = 0;
  std::vector<HeadScore> heads;  // layer by layer, head by head
  float first_copy_loss = 0.0f, second_copy_loss = 0.0f;
};

struct Milestone {  // the first measured step where a head's score reached kHeadFormed
  int step = 0, layer = 0, head = 0;
  float score = 0.0f;
};

struct Sample {
  int step = 0;
  std::string text;  // the prompt and what the model wrote
};

struct AttentionOn {
  std::vector<std::string> tokens;  // each token's text (the document token: "")
  std::vector<int> ids;
  std::vector<std::vector<float>> weights;  // [layer·H + head] -> [T][T], row = query
  bool cut = false;                         // the text held more tokens than the model sees
};

class PageRun {
 public:
  // Throws InputError when the config's vocabulary is not the data's, or the data is too short.
  PageRun(const LmConfig& config, PageData data, PageRunOptions options);
  ~PageRun();
  PageRun(PageRun&&) noexcept;

  // One training step, then whatever measurement falls on it. Returns the batch loss.
  float step();
  bool finished() const { return steps_done() >= total_steps(); }
  int steps_done() const;
  int total_steps() const;

  const LmConfig& config() const;
  const PageData& data() const { return data_; }
  const PageRunOptions& options() const { return options_; }
  double bigram_loss() const { return bigram_loss_; }
  const std::vector<LossPoint>& curve() const { return curve_; }
  const std::vector<HeadsPoint>& heads() const { return heads_; }  // never empty (step 0)
  const std::vector<Sample>& samples() const { return samples_; }  // never empty (step 0)
  const std::optional<Milestone>& previous_token_formed() const { return previous_formed_; }
  const std::optional<Milestone>& induction_formed() const { return induction_formed_; }
  float last_loss() const { return last_loss_; }  // the last step's batch loss
  float last_val_loss() const;                    // the latest measured

  AttentionOn attention_on_text(const std::string& text) const;  // ≤ context tokens after <doc>
  AttentionOn attention_on_probe() const;                        // the first probe sequence
  const LmModel& model() const;

 private:
  void measure_heads();
  void measure_at_step();

  PageData data_;
  PageRunOptions options_;
  std::unique_ptr<LmTrainer> trainer_;
  double bigram_loss_ = 0.0;
  std::vector<LossPoint> curve_;
  std::vector<HeadsPoint> heads_;
  std::vector<Sample> samples_;
  std::optional<Milestone> previous_formed_, induction_formed_;
  double loss_sum_ = 0.0;  // batch losses since the last curve point
  int loss_count_ = 0;
  float last_loss_ = NAN;
};

// The bigram's mean loss on the positions LmTrainer::validation_loss() scores (its evenly
// spaced windows of the validation stream), so the two numbers compare like with like.
double bigram_loss_on_validation_windows(const BigramModel& bigram, const std::vector<int>& validation,
                                         const LmConfig& config);

}  // namespace neuralpath::lm
