// fuzz_progress.cpp: libFuzzer target for the saved-progress reader, which reads whatever a
// browser's storage or a course site hands back. Properties: no crash or hang, and a record it
// accepts writes out and reads back as the same progress.
#include "engine/lesson/progress.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neuralpath::lesson;
  const std::string_view stored(reinterpret_cast<const char*>(data), size);
  const ProgressParse parsed = parse_progress(stored);
  if (!parsed.progress) return 0;
  const ProgressParse again = parse_progress(serialize_progress(*parsed.progress));
  if (!again.progress || !(*again.progress == *parsed.progress)) std::abort();
  return 0;
}
