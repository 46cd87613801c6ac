// writer.h: the generation loop one token at a time, for a page that shows each step and for
// `lm generate`, which runs the same loop to the end.
//
//   1. the prompt is encoded after a document token (as every training document began)
//   2. the model gives the next token's probabilities: with the cache, one step per new token
//      (kv_cache.h); without, the full forward over the tokens so far
//   3. temperature, top-k and top-p reshape them (sampling_stages.h)
//   4. u, uniform in [0, 1) from the seeded generator, picks a token by the inverse CDF
//   5. the token is appended and the loop goes on, until `tokens` tokens or the document token
//
// Once the text is longer than the model's context, the model reads the last `context` tokens,
// as `lm generate` always did: the window moves, every position in it changes, so the cache is
// rebuilt from the window (a prefill) at each step. A prompt ending in one space is healed as
// sampling.h says: the space is not encoded and the first token must start with one.
//
// With top_p = 1 and no cache the writer draws exactly what generate() (sampling.h) draws, bit
// for bit; with the cache the probabilities agree to float rounding (tests/lm_decode).
#pragma once

#include "engine/core/lm/corpus.h"
#include "engine/core/lm/decode/kv_cache.h"
#include "engine/core/lm/decode/sampling_stages.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lm {

struct WriterOptions {
  SamplingSettings sampling;
  int tokens = 60;  // at most this many tokens are written (0..4096)
  std::uint64_t seed = 1;
  bool use_cache = true;
};

// One step of the loop: what the model said, each filter's result, the draw.
struct WriterStep {
  int position = 0;  // the new token's position in the text (tokens so far)
  SamplingStages stages;
  double u = 0.0;          // the uniform number the draw used
  int token = 0;           // the id drawn (kDocumentToken: the model ended the text)
  bool healed = false;     // the first step of a healed prompt: only tokens starting with a space
  bool prefilled = false;  // the model read the whole window (first step, or beyond the context)
};

class TextWriter {
 public:
  // Throws InputError for options out of range (as generate()) or a prompt longer than 65,536 bytes.
  TextWriter(const LmModel& model, std::string_view prompt, const WriterOptions& options);

  // The next step as it stands: the model's probabilities for the next token (computed once
  // per position) and each filter's result, before anything is drawn. Call only while !finished().
  const WriterStep& upcoming();
  // Sampling settings from now on: the upcoming step's stages are recomputed from the same
  // probabilities (no model run, nothing drawn). Throws InputError for settings out of range.
  void set_sampling(const SamplingSettings& settings);
  // Writes one token (draws u and picks from upcoming()); returns false (and does nothing) once finished().
  bool step();
  bool finished() const { return ended_ || written_ >= options_.tokens; }

  const std::string& text() const { return text_; }  // the prompt followed by what was written
  const std::vector<int>& written() const { return written_ids_; }
  const std::vector<int>& ids() const { return ids_; }  // document token, prompt, written
  int prompt_tokens() const { return prompt_tokens_; }  // the prompt's ids (after the document token)
  bool ended() const { return ended_; }                 // the model wrote the document token
  const WriterStep* last_step() const { return has_step_ ? &last_ : nullptr; }
  const WriterOptions& options() const { return options_; }
  const LmModel& model() const { return model_; }
  const KvDecoder* decoder() const { return decoder_.get(); }

 private:
  std::vector<float> next_probabilities(bool& prefilled);
  void restage();  // pending_'s stages from probabilities_ and options_.sampling

  const LmModel& model_;
  WriterOptions options_;
  std::unique_ptr<KvDecoder> decoder_;
  std::vector<int> ids_;
  std::vector<int> written_ids_;
  std::string text_;
  SplitMix64 rng_;
  int prompt_tokens_ = 0;
  int written_ = 0;
  bool heal_ = false, ended_ = false, has_step_ = false, has_pending_ = false;
  WriterStep last_, pending_;         // pending_: upcoming(), valid while has_pending_
  std::vector<float> probabilities_;  // the model's, for pending_'s position (healed)
};

}  // namespace neuralpath::lm
