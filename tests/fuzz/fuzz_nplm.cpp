// fuzz_nplm.cpp: libFuzzer target for the language model's file (.nplm), through the
// model_from_bytes() that `--model FILE` and the page's loader use. A damaged or hostile file
// must be refused with an InputError (the CLI's exit 2 and one clear line), never crash, hang or
// ask for unbounded memory; a file that is accepted must be usable.
//
// Every input is read twice: as it is (mostly refused at the checksum, which is the point of
// the checksum), and with its correct FNV-1a 64 checksum appended, so that mutations reach the
// header, the merges and the weights behind it. An accepted model must write out and read back
// to the same tokenizer and weights, and run a forward pass to finite-or-not probabilities of
// the right size (fp16 weights can overflow float maths; that is a number, not a crash).
#include "engine/core/error.h"
#include "engine/core/lm/model.h"
#include "engine/core/lm/model_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::uint64_t fnv1a64(const std::string& s) {  // as model_file.cpp checks it
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

void read_one(const std::string& bytes) {
  using namespace neuralpath::lm;
  LmModel m;
  try {
    m = model_from_bytes(bytes);
  } catch (const neuralpath::InputError&) {
    return;  // refused, with a message: what must happen to bad files
  }
  const LmModel back = model_from_bytes(model_file_bytes(m));
  if (back.tokenizer.merges() != m.tokenizer.merges() || back.weights != m.weights) std::abort();
  // A forward pass over a few tokens (small shapes only: the fuzzer's files are small anyway).
  if (static_cast<long long>(m.config.d_model) * m.config.context * m.config.layers > (1 << 16)) return;
  std::vector<int> ids;
  for (int i = 0; i < 3; ++i) ids.push_back((97 + 31 * i) % m.config.vocab_size);
  if (next_token_probabilities(m, ids).size() != static_cast<std::size_t>(m.config.vocab_size)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  read_one(input);
  std::string sealed = input;
  const std::uint64_t sum = fnv1a64(input);
  for (int i = 0; i < 8; ++i) sealed += static_cast<char>((sum >> (8 * i)) & 0xff);
  read_one(sealed);
  return 0;
}
