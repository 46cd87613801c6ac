// model.h: the decoder-only transformer (config.h) as a whole: its weights, and its forward and
// backward over a batch, built from layers.h in the order llm.c's gpt2_forward/backward use.
//
//   x = wte[token]
//   per block l:  x = x + W_o·Attention(RoPE(LN1(x)·W_qkv + b_qkv)) + b_o
//                 x = x + W_proj·GELU(LN2(x)·W_fc + b_fc) + b_proj      (not when attention-only)
//   logits = LNf(x)·wteᵀ,  loss = mean over positions of −log softmax(logits)[next token]
#pragma once

#include "engine/core/lm/bpe.h"
#include "engine/core/lm/config.h"

#include <cstdint>
#include <new>
#include <string>
#include <vector>

namespace neuralpath::lm {

// [SECTION] The model ----------------------------------------------------------------------------

struct LmModel {
  LmConfig config;
  BpeTokenizer tokenizer;
  std::vector<float> weights;  // parameter_layout(config).total floats
  // Where it came from (kept in the model file)
  std::string lang;         // "en", "es", or "" when unknown
  std::string corpus_hash;  // FNV-1a 64 of the corpus file it was trained on (corpus.h)
  std::uint64_t seed = 0;
  int steps = 0;
  int threads = 1;
};

// GPT-2's initialisation from a seed: matrices ~ N(0, 0.02²) (the two projections into the
// residual stream, W_o and W_proj, scaled by 1/√(2L) so the stream's variance does not grow with
// depth), LayerNorm gains 1, biases 0. The tokenizer's size must equal config.vocab_size.
LmModel initial_model(const LmConfig& config, BpeTokenizer tokenizer, std::uint64_t seed);

// [SECTION] Forward and backward over a batch ----------------------------------------------------

// Floats on a 64-byte boundary. Why it matters for determinism: Eigen's vector loops start with
// scalar steps until the destination is aligned, and the scalar tanh and exp round differently
// from the vector ones; with every buffer on the same boundary, two runs (or two copies of a
// trainer) take the same path for the same element, so they agree bit for bit.
template <typename T>
struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <typename U>
  Aligned64(const Aligned64<U>&) {}
  T* allocate(std::size_t n) {
    void* p = ::operator new (n * sizeof(T), std::align_val_t{64});
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
  template <typename U>
  bool operator==(const Aligned64<U>&) const {
    return true;
  }
};
using Buffer = std::vector<float, Aligned64<float>>;

// Every intermediate result of one forward pass over B sequences of T tokens (T <= context),
// kept for the backward (N = B·T rows), and the buffers the backward needs.
struct Activations {
  int B = 0, T = 0;
  Buffer encoded;  // [N][d] x after the embeddings
  struct Layer {
    Buffer ln1, ln1_mean, ln1_rstd;  // [N][d], [N], [N]
    Buffer qkv, atty;                // [N][3d] (Q, K rotated), [N][d] (heads concatenated)
    Buffer residual2;                // [N][d] x + attention
    Buffer ln2, ln2_mean, ln2_rstd;  // MLP only
    Buffer fch, fch_gelu;            // [N][h]
    Buffer residual3;                // [N][d] the block's output
  };
  std::vector<Layer> layers;
  Buffer lnf, lnf_mean, lnf_rstd;  // [N][d], [N], [N]
  Buffer probs;                    // [N][V] (logits, then probabilities; the backward
                                   //  turns them into the logits' gradient)
  Buffer losses;                   // [N]
  // backward scratch
  Buffer dresidual, dln, dqkv, datty, dfch, dfch_gelu, scratch;

  void resize(const LmConfig& config, int B, int T);
};

// Runs the model on inputs [B·T] token ids. With targets [B·T], fills acts.losses and returns
// their mean; without (nullptr), stops at the probabilities and returns 0.
float model_forward(const LmConfig& config, const ParameterLayout& layout, const float* params, Activations& acts,
                    const int* inputs, const int* targets, int B, int T);

// Adds ∂L/∂params into grads (zeroed by the caller) for L = dloss·Σ_n losses[n]: dloss = 1/N for
// this batch's mean, or 1/(all rows of the step) when threads each run part of one step. Reads
// the activations of the model_forward just before it (with targets), and turns acts.probs into
// the logits' gradient.
void model_backward(const LmConfig& config, const ParameterLayout& layout, const float* params, float* grads,
                    Activations& acts, const int* inputs, const int* targets, float dloss);

// [SECTION] Inference -------------------------------------------------------------------------------

// The next-token probabilities after `ids` (its last context tokens if longer) [V].
std::vector<float> next_token_probabilities(const LmModel& model, const std::vector<int>& ids);

// One sequence's forward on the naive attention kernel, keeping what the views and the head
// scores read: every head's weights and every position's next-token probabilities.
struct Inspection {
  int T = 0;
  std::vector<std::vector<float>> weights;  // [layer·H + head] -> [T][T]
  std::vector<float> probs;                 // [T][V]
};
Inspection inspect(const LmModel& model, const std::vector<int>& ids);  // ids: 1..context tokens

}  // namespace neuralpath::lm
