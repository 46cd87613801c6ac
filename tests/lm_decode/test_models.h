// test_models.h: models for the decoding tests. A small seeded model whose weights are scaled up
// so its logits spread over several nats (a freshly initialised model's are all near 0, which
// would hide a wrong cache), and the shipped English model when the build has trained it.
#pragma once

#include "engine/core/lm/corpus.h"
#include "engine/core/lm/model.h"
#include "engine/core/lm/model_file.h"

#include <filesystem>
#include "../lm/sentences_corpus.h"
#include <string>

namespace neuralpath::lm::test {

using neuralpath::testdata::sentences_corpus;  // 40 documents of 6 sentences (sentences_corpus.h)

// The `page` config's shapes (an MLP, 4 heads, 2 layers) with a 24-token context, seeded
// weights times `scale`.
inline LmModel scaled_model(float scale = 12.0f, std::uint64_t seed = 7) {
  const Corpus corpus = split_corpus(sentences_corpus());
  LmConfig c = *find_config("page");
  c.context = 24;
  BpeTokenizer t = BpeTokenizer::train(corpus.training_text(), 300);
  c.vocab_size = t.vocab_size();
  LmModel m = initial_model(c, std::move(t), seed);
  const ParameterLayout layout = parameter_layout(c);
  for (const TensorInfo& info : layout.tensors)
    if (info.decay)
      for (std::size_t i = 0; i < info.size(); ++i) m.weights[info.offset + i] *= scale;
  return m;
}

inline std::string shipped_path(const char* name) {
  return std::string(NEURALPATH_LM_MODELS_DIR) + "/lm-" + name + ".nplm";
}
inline bool shipped_built(const char* name) { return std::filesystem::exists(shipped_path(name)); }

}  // namespace neuralpath::lm::test
