// fuzz_attend.cpp: libFuzzer target for `neuralpath-cli attend`'s JSON input, through the
// same run_attend() the CLI calls. Bad input must be an InputError (exit 2), never another
// exception (exit 3) or a crash; accepted input must print only finite numbers (no null).
#include "engine/cli/commands.h"
#include "engine/core/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string out;
  try {
    neuralpath::cli::run_attend(input, out);
  } catch (const neuralpath::InputError&) {
    return 0;
  }
  if (out.find("null") != std::string::npos) std::abort();  // a NaN or infinity was printed
  return 0;
}
