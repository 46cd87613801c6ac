// config.cpp: the named configs and the parameter layout (config.h).
#include "engine/core/lm/config.h"

#include "engine/core/error.h"

#include <array>

namespace neuralpath::lm {

// [SECTION] Configs ------------------------------------------------------------------------------

namespace {

// tiny   for tests and quick checks: two attention-only layers (as in the induction-head
//        literature), trained on text where every sequence repeats a span: an induction head
//        forms within about 1,000 steps, a few seconds on one core.
// page   what a learner trains in the page (WebAssembly, one thread): two layers with MLPs,
//        on text where half the sequences repeat a span. A previous-token head forms first,
//        then an induction head crosses 0.5 near step 1,500 (docs/language-model.md has the
//        curves and the wasm timings).
// small  the shipped Spanish model, trained at site build time on text as written (no repeated
//        spans: the shipped models' heads are measured, not taught). A 4,096-token vocabulary,
//        batch 48 x 400 steps: 600 steps gave 36% below the bigram, 400 give 33.5%, and the
//        saved minute keeps both models in the build's 4-minute budget. Batch 48 reached the
//        validation loss of batch 24 at the same tokens (4.267 against 4.258 nats per token on
//        English after 1.5 M tokens; batch 12: 4.361) in fewer, larger steps, which run faster per
//        token and split better over threads; lr 1e-2 did worse than 6e-3.
// small-8k  the shipped English model: small with an 8,192-token vocabulary and 600 steps. On the English
//        corpus, 600 steps each (one thread, seed 1), bits per byte of validation text went
//        2.330 (V 2,048) -> 2.243 (4,096) -> 2.187 (8,192): longer tokens carry more text per
//        step and per position of the context, for 1.5x the time of V 2,048. Repeated spans cost
//        0.04 nats (4.143 without, 4.183 with); a 128-token context or a wider two-layer model
//        did worse at the same steps (docs/language-model.md has the table).
//
// One config's settings a row, as a table reads (clang-format would put each on its own line).
// clang-format off
LmConfig make(std::string name) {
  LmConfig c;
  c.name = std::move(name);
  if (c.name == "tiny") {
    c.vocab_size = 320; c.context = 32; c.d_model = 32; c.heads = 2; c.layers = 2; c.mlp_hidden = 0;
    c.batch = 32; c.steps = 1500; c.learning_rate = 3e-3f; c.warmup_steps = 50; c.repeat_fraction = 1.0f;
    c.log_every = 100; c.val_batches = 4;
  } else if (c.name == "page") {
    c.vocab_size = 320; c.context = 32; c.d_model = 64; c.heads = 4; c.layers = 2; c.mlp_hidden = 128;
    c.batch = 16; c.steps = 3000; c.learning_rate = 3e-3f; c.warmup_steps = 50; c.repeat_fraction = 0.5f;
    c.log_every = 100; c.val_batches = 4;
  } else if (c.name == "small" || c.name == "small-8k") {
    const bool wide = c.name == "small-8k";
    c.vocab_size = wide ? 8192 : 4096; c.steps = wide ? 600 : 400;
    c.context = 64; c.d_model = 128; c.heads = 4; c.layers = 3; c.mlp_hidden = 512;
    c.batch = 48; c.learning_rate = 6e-3f; c.warmup_steps = 50; c.repeat_fraction = 0.0f;
    c.log_every = 100; c.val_batches = 8;
  }
  return c;
}
// clang-format on

const std::array<LmConfig, 4>& all_configs() {
  static const std::array<LmConfig, 4> configs{make("tiny"), make("page"), make("small"), make("small-8k")};
  return configs;
}

}  // namespace

const LmConfig* find_config(std::string_view name) {
  for (const LmConfig& c : all_configs())
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<std::string> config_names() {
  std::vector<std::string> names;
  for (const LmConfig& c : all_configs()) names.push_back(c.name);
  return names;
}

void validate_config(const LmConfig& c) {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("model config: " + what);
  };
  need(c.vocab_size >= 257 && c.vocab_size <= 65536, "vocab_size must be 257 to 65536");
  need(c.context >= 4 && c.context <= 1024, "context must be 4 to 1024 tokens");
  need(c.d_model >= 4 && c.d_model <= 1024, "d_model must be 4 to 1024");
  need(c.heads >= 1 && c.heads <= 64 && c.d_model % c.heads == 0 && (c.d_model / c.heads) % 2 == 0,
       "heads must divide d_model into an even number of features each (rotary pairs; at most 64 heads)");
  need(c.layers >= 1 && c.layers <= 16, "layers must be 1 to 16");
  need(c.mlp_hidden >= 0 && c.mlp_hidden <= 8192, "mlp_hidden must be 0 to 8192");
  need(c.batch >= 1 && c.batch <= 1024, "batch must be 1 to 1024");
}

// [SECTION] Parameter layout ---------------------------------------------------------------------

ParameterLayout parameter_layout(const LmConfig& c) {
  ParameterLayout p;
  auto add = [&](std::string name, int rows, int cols, bool decay) {
    TensorInfo t{std::move(name), rows, cols, p.total, decay};
    p.total += t.size();
    p.tensors.push_back(std::move(t));
    return p.tensors.back().offset;
  };
  const int d = c.d_model, h = c.mlp_hidden;
  p.wte = add("wte", c.vocab_size, d, true);
  for (int l = 0; l < c.layers; ++l) {
    std::string n = "h";  // (built in steps: GCC 12 warns falsely on "h" + to_string(l) + ".")
    n += std::to_string(l);
    n += '.';
    ParameterLayout::Layer L{};
    L.ln1_g = add(n + "ln1_g", 1, d, false);
    L.ln1_b = add(n + "ln1_b", 1, d, false);
    L.w_qkv = add(n + "w_qkv", d, 3 * d, true);
    L.b_qkv = add(n + "b_qkv", 1, 3 * d, false);
    L.w_o = add(n + "w_o", d, d, true);
    L.b_o = add(n + "b_o", 1, d, false);
    if (h > 0) {
      L.ln2_g = add(n + "ln2_g", 1, d, false);
      L.ln2_b = add(n + "ln2_b", 1, d, false);
      L.w_fc = add(n + "w_fc", d, h, true);
      L.b_fc = add(n + "b_fc", 1, h, false);
      L.w_proj = add(n + "w_proj", h, d, true);
      L.b_proj = add(n + "b_proj", 1, d, false);
    }
    p.layers.push_back(L);
  }
  p.lnf_g = add("lnf_g", 1, d, false);
  p.lnf_b = add("lnf_b", 1, d, false);
  return p;
}

}  // namespace neuralpath::lm
