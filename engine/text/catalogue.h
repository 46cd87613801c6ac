// catalogue.h: every learner-facing word, looked up by key, so a language is a file and not code.
//
//   tr("spotlight.cannot_show", {{"error", why}})    -> "This spotlight cannot be shown: ..."
//   tr_n("cost.heads", 4, {{"n", "4"}})              -> "4 heads" (key.one / key.other)
//
// The English words live in lessons/strings/en.strings and are compiled in (english_strings.cpp
// is generated from that file), so the engine always has a complete catalogue. Another language
// is the same kind of file, loaded at run time over English (use_language): a key it lacks
// falls back to English, so a partial translation still shows a whole page.
//
// File format (one entry a line; UTF-8):
//   # a comment                      blank lines and comments are skipped
//   [spotlight]                      a section: the keys below it are "spotlight.<key>"
//   cannot_show = This spotlight cannot be shown: {error}
//                                    {name} is filled in by the engine; {{ and }} are braces;
//                                    \n is a line break, \s a space; spaces around the text
//                                    are trimmed (write \s for one that must stay)
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace neuralpath {

// Placeholder values for one lookup: {{"token", "'cat'"}, {"value", "0.47"}}.
using TextArgs = std::vector<std::pair<std::string, std::string>>;

class Catalogue {
 public:
  struct Problem {
    int line = 0;  // 1-based line in the file
    std::string message;
  };

  // Reads a catalogue file. A bad line (no '=', an empty key, a key given twice) is reported
  // in `problems` and skipped; every good line is kept.
  static Catalogue parse(std::string_view text, std::vector<Problem>* problems = nullptr);

  const std::string* find(std::string_view key) const;  // the raw template, or nullptr
  bool has(std::string_view key) const { return find(key) != nullptr; }
  std::size_t size() const { return entries_.size(); }
  const std::map<std::string, std::string, std::less<>>& entries() const { return entries_; }

  // `key`'s template with every {name} replaced from `args`. A missing key gives the key
  // itself and a missing placeholder stays "{name}" (both recorded: missing_keys()).
  std::string text(std::string_view key, const TextArgs& args = {}) const;

  // Entries of `over` replace or join this catalogue's (a language over English).
  void overlay(const Catalogue& over);

 private:
  std::map<std::string, std::string, std::less<>> entries_;
};

// [SECTION] The catalogue the engine speaks with ---------------------------------------------------

const Catalogue& strings();          // English, with the chosen language over it
const Catalogue& english_strings();  // lessons/strings/en.strings as compiled in
std::string_view language();         // "en" unless use_language chose another

// Puts a language's catalogue file over English ("en" or an empty text: English alone).
// Returns the file's problems; the good lines are used either way.
std::vector<Catalogue::Problem> use_language(std::string_view code, std::string_view file_text);

// strings().text(key, args): the catalogue's words for `key` ("tr": translated).
std::string tr(std::string_view key, const TextArgs& args = {});
// A count's words: "<key>.one" when n == 1, else "<key>.other" (either falls back to `key`).
std::string tr_n(std::string_view key, long long n, const TextArgs& args = {});

// Keys (and "key {placeholder}" pairs) looked up without an entry since the last call; tests
// draw every view and then expect this to be empty.
std::vector<std::string> take_missing_keys();

}  // namespace neuralpath
