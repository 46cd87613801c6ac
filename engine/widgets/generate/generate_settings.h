// generate_settings.h: what a ```generate block sets up (no ImGui): the generation loop on a
// shipped language model, one token at a time, with its sampling filters.
//
//   ```generate
//   model: en                  a shipped model (`neuralpath-cli lm models`)          required
//   prompt: "The "             where the model starts (the learner may type their own) required
//   tokens: 40                 how many tokens Write writes, 1 .. 200 (default 40)
//   temperature: 0.8           0 .. 2 (default 0.8)
//   top-k: 40                  0 (off) .. 2048 (default 40)
//   top-p: 1                   0.05 .. 1 (default 1: off)
//   seed: 1                    the draws' seed, 0 .. 1000000 (default 1)
//   controls: [temperature, top-k, top-p, seed]   the settings the learner can change here
//                              (default: none; the filters still apply)
//   candidates: 8              tokens listed per stage, 3 .. 20 (default 8)
//   caption: ...
//   ```
#pragma once

#include "engine/lesson/parser.h"

#include <cstdint>
#include <string>

namespace neuralpath::widgets {

struct GenerateSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // generate_settings.cpp
  std::string model, prompt;
  int tokens = 40;
  float temperature = 0.8f;
  int top_k = 40;
  float top_p = 1.0f;
  std::uint64_t seed = 1;
  bool temperature_control = false, top_k_control = false, top_p_control = false, seed_control = false;
  int candidates = 8;
};

}  // namespace neuralpath::widgets
