// model_file.h: the language model on disk (".nplm"), compact enough for a phone.
//
//   "NPLM1\n"                          magic and format version
//   "key value\n" lines, then "end\n"  a readable header (`head -20 model.nplm`): name, lang,
//                                      config, vocab_size, context, d_model, heads, layers,
//                                      mlp_hidden, seed, steps, threads, corpus_hash, weights
//   merges     (vocab_size − 257) × 2 × uint16 LE: the tokenizer (bpe.h)
//   weights    every parameter in layout order (config.h) as IEEE fp16, uint16 LE
//   checksum   uint64 LE: FNV-1a 64 of every byte before it
//
// fp16 halves the file against float32 (a shipped `small` model: 1.7 MB instead of 3.4 MB;
// brotli takes only about 12% more off fp16 weights); rounding a weight to fp16 (11 significant
// bits) costs far less than training noise. A loaded model computes in float32. Reading refuses anything that is not
// exactly this (bad magic, unknown keys, sizes out of range, a short or long file, a checksum that does not match,
// non-finite weights).
#pragma once

#include "engine/core/lm/model.h"

#include <cstdint>
#include <string>

namespace neuralpath::lm {

inline constexpr std::size_t kMaxModelFileBytes = 256u << 20;

std::string model_file_bytes(const LmModel& model);
LmModel model_from_bytes(const std::string& bytes);  // InputError on anything malformed
void save_model(const LmModel& model, const std::string& path);
LmModel load_model(const std::string& path);  // a regular file, size-limited

std::uint16_t float_to_half(float value);  // round to nearest even; overflow -> ±inf
float half_to_float(std::uint16_t half);

}  // namespace neuralpath::lm
