// enum_names.h: an enum's names as one table, read both ways: the word a lesson or a command
// uses ("softmax") to the value, and the value to the word that state() and the catalogue keys
// show. The table's order is the order the learner meets the values in.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace neuralpath::widgets {

template <class Enum, std::size_t N>
struct EnumNames {
  std::array<std::pair<Enum, const char*>, N> entries;

  constexpr std::size_t size() const { return N; }
  constexpr Enum at(std::size_t i) const { return entries[i].first; }
  constexpr const char* name(Enum value) const {
    for (const auto& [each, word] : entries)
      if (each == value) return word;
    return "";
  }
  constexpr std::optional<Enum> parse(std::string_view word) const {
    for (const auto& [each, name] : entries)
      if (word == name) return each;
    return std::nullopt;
  }
  std::vector<Enum> all() const {
    std::vector<Enum> values;
    for (const auto& entry : entries) values.push_back(entry.first);
    return values;
  }
};

}  // namespace neuralpath::widgets
