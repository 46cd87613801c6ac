// fuzz_tokenize.cpp: libFuzzer target for what `neuralpath-cli tokenize` runs: the byte-level
// BPE (engine/core/lm/bpe.h) of a model loaded from its file. For any bytes (UTF-8 or not, NULs
// included):
//   - encode gives ids in the vocabulary, never the document token, whose bytes (token_bytes,
//     what tokenize prints) join back into the input, and decode(encode(x)) == x;
//   - a tokenizer trained on the input itself (short inputs) round-trips it too, is the same
//     when rebuilt from its merges (what a model file keeps), and has no token longer than
//     kMaxTokenBytes.
// The model is written once, at start, to a temporary file and read back: a tokenizer trained on
// a few lines of English and Spanish, on the smallest shapes a model can have.
#include "engine/core/error.h"
#include "engine/core/lm/bpe.h"
#include "engine/core/lm/model.h"
#include "engine/core/lm/model_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace neuralpath::lm;

const char* kSample =
    "The cat sat on the mat. The cat ate the rat; the mat was flat.\n"
    "El niño comió piña y ñoquis en la mañana, ¿verdad? ¡Sí!\n"
    "1999 and 2024 -- numbers... and \"quotes\", tabs\tand    spaces.\n%\n";

// The tokenizer of a model written to a file and loaded back, as `tokenize --model FILE` has it.
const BpeTokenizer& loaded_tokenizer() {
  static const BpeTokenizer tokenizer = [] {
    LmConfig c{.name = "fuzz", .vocab_size = 320, .context = 8, .d_model = 4, .heads = 1, .layers = 1, .mlp_hidden = 0};
    std::string sample;
    for (int i = 0; i < 4; ++i) sample += kSample;
    BpeTokenizer trained = BpeTokenizer::train(sample, c.vocab_size);
    c.vocab_size = trained.vocab_size();
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("fuzz_tokenize-" + std::to_string(getpid()) + ".nplm");
    save_model(initial_model(c, trained, 1), path.string());
    const LmModel loaded = load_model(path.string());
    std::filesystem::remove(path);
    if (loaded.tokenizer.merges() != trained.merges()) std::abort();
    return loaded.tokenizer;
  }();
  return tokenizer;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);

  // The model's tokenizer.
  const BpeTokenizer& tokenizer = loaded_tokenizer();
  const std::vector<int> ids = tokenizer.encode(input);
  std::string joined;
  for (int id : ids) {
    if (id < 0 || id >= tokenizer.vocab_size() || id == kDocumentToken) std::abort();
    joined += tokenizer.token_bytes(id);
  }
  if (joined != input || tokenizer.decode(ids) != input) std::abort();

  // A tokenizer learned from the input.
  if (size <= 4096) {
    const BpeTokenizer own = BpeTokenizer::train(input, kFirstMerge + 48);
    const std::vector<int> own_ids = own.encode(input);
    if (own.decode(own_ids) != input) std::abort();
    if (BpeTokenizer::from_merges(own.merges()).encode(input) != own_ids) std::abort();
    for (int id = 0; id < own.vocab_size(); ++id)
      if (own.token_bytes(id).size() > kMaxTokenBytes) std::abort();
  }
  return 0;
}
