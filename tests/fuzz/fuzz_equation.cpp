// fuzz_equation.cpp: libFuzzer target for the LaTeX-subset equation parser and the tree's
// plain-text form (what narration and the DOM mirror read). Properties: no crash or hang; a
// parse either gives a tree or exactly one error, at an offset inside the source.
#include "engine/lesson/equation.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view latex(reinterpret_cast<const char*>(data), size);
  const neuralpath::lesson::EquationParse parsed = neuralpath::lesson::parse_equation(latex);
  if (parsed.root.has_value() == !parsed.errors.empty()) std::abort();
  for (const auto& e : parsed.errors)
    if (e.offset > size) std::abort();
  if (parsed.root) (void)parsed.root->plain();
  return 0;
}
