// fuzz_lesson.cpp: libFuzzer target for the whole lesson load path (front matter, md4c walk,
// blocks, settings, equations, model data, engine checks), the entry point the CLI's `check`
// and the page share. Properties: no crash, no hang, no exception escapes, and a lesson that
// loads has no diagnostics (and one that does not load has at least one).
#include "engine/lesson/load.h"
#include "engine/widgets/widget_kinds.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const neuralpath::lesson::LoadResult r =
      neuralpath::lesson::load_lesson_text(text, "fuzz.md", neuralpath::widgets::with_widgets());
  if (r.ok() != r.diagnostics.empty()) std::abort();
  for (const auto& d : r.diagnostics)
    if (d.to_string().find('\n') != std::string::npos) std::abort();  // one line each
  return 0;
}
