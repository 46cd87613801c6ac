// fuzz_settings.cpp: libFuzzer target for the "key: value" block settings parser (maps, lists,
// inline lists, quotes, literal blocks). Properties: no crash or hang, and every node and
// error points inside the text it came from.
#include "engine/lesson/settings.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace {

void check_node(const neuralpath::lesson::SettingsNode& n, std::size_t size) {
  if (n.origin > size) std::abort();
  for (const auto& item : n.items) check_node(item, size);
  for (const auto& e : n.entries) {
    if (e.key_origin > size) std::abort();
    check_node(e.value, size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace neuralpath::lesson;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<SettingsError> errors;
  const SettingsNode node = parse_settings(SourceText::verbatim(text, 0), errors);
  check_node(node, size);
  for (const auto& e : errors)
    if (e.origin > size) std::abort();
  return 0;
}
