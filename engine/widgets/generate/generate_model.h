// generate_model.h: the generation loop's model (no ImGui). A shipped language model (loaded on
// demand, language_models.h) writes after the learner's prompt one token at a time
// (engine/core/lm/decode/writer.h, with the KV cache); before each token the model shows the
// next token's candidates at every stage: what the model says, after temperature, after top-k,
// after top-p, and then which one the seeded draw picked. The same settings and seed write the
// same text as `neuralpath-cli lm generate`.
//
//   commands   loadModel  setSentence{text}  step  write  stop  restart
//              setTemperature{value}  setTopK{k}  setTopP{p}  setSeed{seed}
//   state()    {kind, model{name, status, received, total, error?}, prompt, text, written[{text, id}],
//               tokens, finished, ended, writing, temperature, top_k, top_p, seed,
//               next{position, healed, stages[{stage, kept, top[{text, id, p}]}]}|null,
//               last{text, id, u, p}|null, input_error?, summary, table}
//   events     {"type": "lmModelWanted", "name"} when the model should be fetched; {"type": "generated", tokens,
//              temperature, top_k, top_p} when Write has written to the end
//   snapshot   {"p": prompt, "t": temperature, "k": top_k, "q": top_p, "s": seed, "n": tokens written}
#pragma once
#include "engine/core/lm/decode/writer.h"
#include "engine/widgets/generate/generate_settings.h"
#include "engine/widgets/language_models.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/widget_model.h"

#include <array>
#include <memory>
#include <utility>

namespace neuralpath::widgets {

class GenerateModel : public WidgetModelBase<GenerateSettings> {
 public:
  static constexpr const char* kKind = "generate";
  static constexpr std::size_t kMaxPromptBytes = 400;
  static constexpr float kTokensPerSecond = 25;  // Write's pace: the learner sees each token land
  static constexpr double kFrameBudget = 0.012;  // seconds of model work per frame at most

  struct Step {};
  struct Write {};
  struct SetTemperature {
    float value = 0;
  };
  struct SetTopK {
    int k = 0;
  };
  struct SetTopP {
    float p = 1;
  };
  struct SetSeed {
    std::uint64_t seed = 1;
  };
  using Command =
      std::variant<LoadModel, SetSentence, Step, Write, Stop, Restart, SetTemperature, SetTopK, SetTopP, SetSeed>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  GenerateModel(const GenerateSettings& settings, const lesson::Inline& caption);

  void update(float dt);  // the model's arrival, and Write's tokens
  bool wants_another_frame() const;

  TextTable table() const;

  // For the view.
  struct Candidate {
    std::string label;  // token_label(): a piece of a character shows as <C3>
    int id = 0;
    float p = 0;
  };
  struct Stage {
    const char* name;  // "model", "temperature", "top_k", "top_p"
    int kept = 0;      // tokens with p > 0
    std::vector<Candidate> top;
  };
  const ModelHandle& model_handle() const { return handle_; }
  bool ready() const { return writer_ != nullptr; }
  const std::string& prompt() const { return prompt_; }
  std::string text() const;  // the prompt and what was written, whole UTF-8
  const std::vector<Candidate>& written() const { return written_; }
  const std::vector<Stage>& stages() const { return stages_; }  // the next token's; empty when finished
  const Candidate* last() const { return has_last_ ? &last_ : nullptr; }
  double last_u() const { return last_u_; }
  bool finished() const { return !writer_ || writer_->finished(); }
  bool ended() const { return writer_ && writer_->ended(); }
  bool writing() const { return writing_; }
  bool waiting() const { return pending_ != Pending::none; }  // an action waits for the model
  const lm::SamplingSettings& sampling() const { return sampling_; }
  std::uint64_t seed() const { return seed_; }

 private:
  enum class Pending { none, start, step, write };
  CommandResult need_model(Pending then);  // asks for the model; the action runs once it is here
  void start();                            // a fresh writer on the prompt (the model is here)
  void advance();                          // one token, then the next token's stages
  void read_stages();
  lm::WriterOptions options() const;

  ModelHandle handle_;
  std::shared_ptr<const lm::LmModel> model_;
  std::unique_ptr<lm::TextWriter> writer_;
  std::string prompt_;
  lm::SamplingSettings sampling_;
  std::uint64_t seed_ = 1;
  std::vector<Candidate> written_;
  std::vector<Stage> stages_;
  std::vector<std::pair<Candidate, std::array<float, 4>>> across_;  // the model's top tokens at each stage
  Candidate last_;
  double last_u_ = 0;
  bool has_last_ = false, writing_ = false;
  float write_clock_ = 0;
  int replay_ = 0;  // tokens a restored snapshot writes again once the model is here
  Pending pending_ = Pending::none;
};

}  // namespace neuralpath::widgets
