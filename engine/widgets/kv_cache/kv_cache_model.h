// kv_cache_model.h: the KV cache's model (no ImGui). For a shipped language model (loaded on
// demand, language_models.h) it shows what a cache costs and what it saves:
//   memory  the formula of engine/core/lm/decode/kv_memory.h on the model's shapes, for the
//           learner's T, key-value heads G (H: multi-head, 1 < G < H: grouped-query, 1:
//           multi-query) and bytes per number; beside it, the bytes the engine's own cache
//           (KvDecoder) holds after reading the prompt, which the formula must equal;
//   time    CacheRace (cache_race.h) on the prompt: every position written once with the cache
//           and once re-reading the whole text, each timed, a few milliseconds per frame.
//
//   commands   loadModel  setSentence{text}  setTokens{T}  setKvHeads{heads}  setBytes{bytes}  race  stop
//   state()    {kind, model{...}, prompt, tokens, kv_heads, bytes_per_number,
//               shape{layers, heads, head_dim, context, kv_head_choices[]}|null,
//               memory{per_head_per_token, per_layer_per_token, per_token, total, multi_head_total}|null,
//               cache{tokens, bytes, formula_bytes}|null,
//               race{running, finished, done, total, prompt_tokens, positions, cached_s, full_s,
//                    speedup, same_tokens, cached[], full[]}|null, input_error?, summary, table}
//   events     {"type": "lmModelWanted", "name"} when the model should be fetched;
//              {"type": "kvRace", positions, cached_s, full_s, speedup, same_tokens} when a race
//              ran to its end
//   snapshot   {"p": prompt, "t": tokens, "g": kv_heads, "b": bytes_per_number}
#pragma once
#include "engine/core/lm/decode/cache_race.h"
#include "engine/core/lm/decode/kv_memory.h"
#include "engine/widgets/kv_cache/kv_cache_settings.h"
#include "engine/widgets/language_models.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/widget_model.h"

#include <memory>
#include <optional>
#include <utility>

namespace neuralpath::widgets {

class KvCacheModel : public WidgetModelBase<KvCacheSettings> {
 public:
  static constexpr const char* kKind = "kv-cache";
  static constexpr std::size_t kMaxPromptBytes = 200;
  static constexpr double kFrameBudget = 0.012;  // seconds of racing per frame at most
  static constexpr long long kMaxTokens = 1000000;

  struct SetTokens {
    long long tokens = 0;
  };
  struct SetKvHeads {
    int heads = 0;
  };
  struct SetBytes {
    int bytes = 4;
  };
  struct Race {};
  using Command = std::variant<LoadModel, SetSentence, SetTokens, SetKvHeads, SetBytes, Race, Stop>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  KvCacheModel(const KvCacheSettings& settings, const lesson::Inline& caption);

  void update(float dt);  // the model's arrival, and the race's work
  bool wants_another_frame() const;

  TextTable table() const;

  // For the view.
  const ModelHandle& model_handle() const { return handle_; }
  bool ready() const { return model_ != nullptr; }
  bool waiting() const { return pending_; }
  const std::string& prompt() const { return prompt_; }
  long long tokens() const { return tokens_; }
  int kv_heads() const { return kv_heads_; }  // 0 until the model is here (then H by default)
  int bytes_per_number() const { return bytes_; }
  const lm::LmConfig* config() const { return model_ ? &model_->config : nullptr; }
  std::vector<int> kv_head_choices() const;    // the divisors of H, largest first
  std::optional<lm::KvMemory> memory() const;  // the formula now; nullopt until the model is here
  std::optional<lm::KvMemory> memory_with(int kv_heads) const;
  int cached_tokens() const { return cached_tokens_; }  // the prompt's tokens in the engine's cache
  std::int64_t cached_bytes() const { return cached_bytes_; }
  const lm::CacheRace* race() const { return race_.get(); }
  bool racing() const { return racing_; }

 private:
  CommandResult need_model(bool race_then);
  void arrived();                     // the model is here: shapes, the engine's cache on the prompt
  CommandResult read_prompt_cache();  // KvDecoder on the prompt: its bytes; refuses a prompt too long
  std::vector<int> prompt_ids(const std::string& prompt) const;

  ModelHandle handle_;
  std::shared_ptr<const lm::LmModel> model_;
  std::string prompt_;
  long long tokens_ = 64;
  int kv_heads_ = 0, bytes_ = 4;
  int cached_tokens_ = 0;
  std::int64_t cached_bytes_ = 0;
  std::unique_ptr<lm::CacheRace> race_;
  bool racing_ = false, pending_ = false, race_when_ready_ = false;
};

}  // namespace neuralpath::widgets
