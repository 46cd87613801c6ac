// kv_cache_settings.h: what a ```kv-cache block sets up (no ImGui): the KV cache of a shipped
// language model, its memory as a formula with live numbers, and a race that times writing
// with and without the cache on the engine's own kernels.
//
//   ```kv-cache
//   model: en              a shipped model (`neuralpath-cli lm models`)               required
//   prompt: "The "         where the timed text starts (the learner may type their own) required
//   tokens: 64             T, the tokens whose cache the memory numbers count, 1 .. 1,000,000 (default 64)
//   rounds: 3              how often the race times each position (the fastest is kept), 1 .. 20 (default 3)
//   part: all              memory (the formula and its controls), race (the timing), or all (default)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <string>

namespace neuralpath::widgets {

struct KvCacheSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // kv_cache_settings.cpp
  std::string model, prompt;
  long long tokens = 64;
  int rounds = 3;
  bool show_memory = true, show_race = true;  // part:
};

}  // namespace neuralpath::widgets
