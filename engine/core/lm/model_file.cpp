// model_file.cpp: writing and reading ".nplm" files (model_file.h).
#include "engine/core/lm/model_file.h"

#include "engine/core/error.h"
#include "engine/core/lm/corpus.h"
#include "engine/core/lm/file_header.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace neuralpath::lm {

namespace {

constexpr const char* kMagic = "NPLM1\n";

[[noreturn]] void bad(const std::string& what) { throw InputError("not a valid model file: " + what); }

}  // namespace

std::uint16_t float_to_half(float value) {
  std::uint32_t f;
  std::memcpy(&f, &value, 4);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));  // inf, nan
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);                // rounds past 65504: inf
  if (abs < 0x38800000u) {                                                                  // fp16 subnormal or zero
    if (abs < 0x33000000u) return static_cast<std::uint16_t>(sign);                         // below half the smallest
    const std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const int shift = 126 - static_cast<int>(abs >> 23);  // mant·2^(e−150) in units of 2^-24
    std::uint32_t h = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1u))) ++h;  // round to nearest even
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((abs - 0x38000000u) >> 13);  // rebias 127 -> 15
  const std::uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

float half_to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  const std::uint32_t exp = (half >> 10) & 0x1fu, mant = half & 0x3ffu;
  std::uint32_t f;
  if (exp == 0) {
    if (mant == 0) {
      f = sign;
    } else {  // subnormal: value = mant·2^-24
      float v = static_cast<float>(mant) * 0x1.0p-24f;
      std::memcpy(&f, &v, 4);
      f |= sign;
    }
  } else if (exp == 31) {
    f = sign | 0x7f800000u | (mant << 13);
  } else {
    f = sign | ((exp + 112u) << 23) | (mant << 13);  // rebias 15 -> 127
  }
  float out;
  std::memcpy(&out, &f, 4);
  return out;
}

std::string model_file_bytes(const LmModel& m) {
  const LmConfig& c = m.config;
  std::ostringstream h;
  h << kMagic << "name " << (c.name.empty() ? "custom" : c.name) << "\n"
    << "lang " << (m.lang.empty() ? "-" : m.lang) << "\n"
    << "vocab_size " << c.vocab_size << "\ncontext " << c.context << "\nd_model " << c.d_model << "\nheads " << c.heads
    << "\nlayers " << c.layers << "\nmlp_hidden " << c.mlp_hidden << "\nseed " << m.seed << "\nsteps " << m.steps
    << "\nthreads " << m.threads << "\ncorpus_hash " << (m.corpus_hash.empty() ? "-" : m.corpus_hash)
    << "\nweights fp16\nend\n";
  std::string out = h.str();
  for (const auto& [a, b] : m.tokenizer.merges()) {
    put_u16(out, a);
    put_u16(out, b);
  }
  for (float w : m.weights) put_u16(out, float_to_half(w));
  append_checksum(out);
  return out;
}

LmModel model_from_bytes(const std::string& in) {
  const FileHeader header(in, kMagic,
                          {"name", "lang", "vocab_size", "context", "d_model", "heads", "layers", "mlp_hidden", "seed",
                           "steps", "threads", "corpus_hash", "weights"},
                          200, "model file");
  if (header.text("weights") != "fp16") bad("weights '" + header.text("weights") + "' (expected fp16)");
  LmModel m;
  const LmConfig* named = find_config(header.text("name"));
  m.config = named ? *named : LmConfig{};
  m.config.name = header.text("name");
  m.config.vocab_size = static_cast<int>(header.number("vocab_size", 257, 65536));
  m.config.context = static_cast<int>(header.number("context", 4, 1024));
  m.config.d_model = static_cast<int>(header.number("d_model", 4, 1024));
  m.config.heads = static_cast<int>(header.number("heads", 1, 64));
  m.config.layers = static_cast<int>(header.number("layers", 1, 16));
  m.config.mlp_hidden = static_cast<int>(header.number("mlp_hidden", 0, 8192));
  m.seed = static_cast<std::uint64_t>(header.number("seed", 0, 1LL << 53));
  m.steps = static_cast<int>(header.number("steps", 0, 100000000));
  m.threads = static_cast<int>(header.number("threads", 1, 64));
  m.lang = header.named("lang");
  m.corpus_hash = header.named("corpus_hash");
  try {
    validate_config(m.config);
  } catch (const InputError& e) {
    bad(e.what());
  }
  std::size_t at = header.data_at();
  const std::size_t merges = static_cast<std::size_t>(m.config.vocab_size - kFirstMerge);
  const std::size_t params = parameter_layout(m.config).total;
  m.tokenizer = header.tokenizer(in, merges, params, at);
  m.weights.resize(params);
  for (std::size_t i = 0; i < params; ++i, at += 2) {
    m.weights[i] = half_to_float(static_cast<std::uint16_t>(get_u16(in, at)));
    if (!std::isfinite(m.weights[i])) bad("weight " + std::to_string(i) + " is not finite");
  }
  return m;
}

void save_model(const LmModel& m, const std::string& path) {
  const std::string bytes = model_file_bytes(m);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw InputError("cannot write the model to '" + path + "'");
}

LmModel load_model(const std::string& path) {
  try {
    return model_from_bytes(read_file_limited(path, kMaxModelFileBytes, "model"));
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("not a valid model file", 0) == 0) throw InputError(path + ": " + what);
    throw;
  }
}

}  // namespace neuralpath::lm
