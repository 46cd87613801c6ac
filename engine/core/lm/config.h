// config.h: the language model's shapes and training settings, by name, and where each of its
// tensors sits in the one flat buffer of parameters (llm.c's layout: one allocation, views into it).
//
// The model (docs/language-model.md): token embedding wte [V][d]; L pre-LN blocks of causal
// multi-head attention with rotary positions (RoPE, on each head's queries and keys) and
// (unless mlp_hidden is 0, attention-only) an MLP with GELU, each with its residual; a final
// LayerNorm; logits = x·wteᵀ (the output layer tied to the token embedding).
//
// [SECTION] Configs
// [SECTION] Parameter layout
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lm {

// [SECTION] Configs ------------------------------------------------------------------------------

struct LmConfig {
  std::string name;
  // shapes
  int vocab_size = 512;  // 256 bytes + the document token + vocab_size − 257 BPE merges
  int context = 64;      // T: tokens the model sees at once
  int d_model = 64;      // d
  int heads = 4;         // H, each of d/H features
  int layers = 2;        // L
  int mlp_hidden = 256;  // the MLP's hidden width (0 = attention-only blocks)
  // training
  int batch = 16;                  // sequences per step (each of context + 1 tokens)
  int steps = 1000;                // default --steps
  float learning_rate = 3e-3f;     // peak, after warm-up
  int warmup_steps = 50;           // linear warm-up from 0
  float final_lr_fraction = 0.1f;  // cosine decay to this share of the peak at the last step
  float weight_decay = 0.01f;      // AdamW's λ, on matrices only
  float grad_clip = 1.0f;          // the gradient's global L2 norm is clipped to this
  float repeat_fraction = 0.0f;    // share of training sequences whose second part repeats their
                                   // first (see corpus.h): text with some spans repeated
  int log_every = 50;              // `lm train` logs every this many steps (and the last)
  int val_batches = 8;             // validation batches per logged val_loss

  int head_dim() const { return d_model / heads; }
};

// The named configs (config.cpp says what each is for): "tiny", "page", "small".
const LmConfig* find_config(std::string_view name);  // nullptr if unknown
std::vector<std::string> config_names();

// Throws InputError when the shapes cannot make a model (d not divisible by heads, vocab below
// 257 or above 65,536, a context or size beyond the limits the CLI holds to).
void validate_config(const LmConfig& config);

// [SECTION] Parameter layout ---------------------------------------------------------------------

struct TensorInfo {
  std::string name;        // "wte", "h0.w_qkv", ...
  int rows = 0, cols = 0;  // a vector has rows = 1
  std::size_t offset = 0;  // floats from the start of the buffer
  bool decay = false;      // matrices decay, gains and biases do not

  std::size_t size() const { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }
};

// Offsets of every tensor, in this order: wte, then per layer l
// ln1_g, ln1_b, w_qkv [d][3d], b_qkv, w_o [d][d], b_o, and with an MLP ln2_g, ln2_b,
// w_fc [d][h], b_fc, w_proj [h][d], b_proj; then lnf_g, lnf_b. Matrices are [in][out]: y = x·W + b.
struct ParameterLayout {
  std::vector<TensorInfo> tensors;
  std::size_t total = 0;  // floats

  struct Layer {
    std::size_t ln1_g, ln1_b, w_qkv, b_qkv, w_o, b_o;
    std::size_t ln2_g, ln2_b, w_fc, b_fc, w_proj, b_proj;  // unused when attention-only
  };
  std::size_t wte = 0, lnf_g = 0, lnf_b = 0;
  std::vector<Layer> layers;
};

ParameterLayout parameter_layout(const LmConfig& config);

}  // namespace neuralpath::lm
