// catalogue.cpp: reading catalogue files and filling their {placeholders} (catalogue.h).
#include "engine/text/catalogue.h"

#include <set>

namespace neuralpath {

extern const char* const kEnglishStrings;  // english_strings.cpp, generated from en.strings

namespace {

std::set<std::string>& missing() {
  static std::set<std::string> keys;
  return keys;
}

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// "\n" in a value is a line break and "\s" a space (values are trimmed, so a leading or
// trailing space needs it); any other backslash stays as written.
std::string unescape(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size() && (value[i + 1] == 'n' || value[i + 1] == 's')) {
      out += value[i + 1] == 'n' ? '\n' : ' ';
      ++i;
    } else {
      out += value[i];
    }
  }
  return out;
}

bool key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

struct Active {
  std::string language = "en";
  Catalogue catalogue = english_strings();
};

Active& active() {
  static Active a;
  return a;
}

}  // namespace

Catalogue Catalogue::parse(std::string_view text, std::vector<Problem>* problems) {
  Catalogue out;
  std::string section;
  int line_no = 0;
  const auto problem = [&](std::string message) {
    if (problems) problems->push_back({line_no, std::move(message)});
  };
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    // A NUL byte once cut the whole catalogue short (a C string ends there): only its line goes.
    if (line.find('\0') != std::string_view::npos) {
      problem("the line holds a NUL byte");
      continue;
    }
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3) {
        problem("a section is written [name]");
        continue;
      }
      section = std::string(trim(line.substr(1, line.size() - 2)));
      continue;
    }
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      problem("an entry is written 'key = text'");
      continue;
    }
    const std::string_view name = trim(line.substr(0, eq));
    bool valid = !name.empty();
    for (char c : name) valid = valid && key_char(c);
    if (!valid) {
      problem("a key is letters, digits, '_', '-' and '.'");
      continue;
    }
    std::string key = section.empty() ? std::string(name) : section + "." + std::string(name);
    if (out.entries_.count(key)) {
      problem("'" + key + "' is given twice");
      continue;
    }
    out.entries_.emplace(std::move(key), unescape(trim(line.substr(eq + 1))));
  }
  return out;
}

const std::string* Catalogue::find(std::string_view key) const {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

std::string Catalogue::text(std::string_view key, const TextArgs& args) const {
  const std::string* pattern = find(key);
  if (!pattern) {
    missing().insert(std::string(key));
    return std::string(key);
  }
  std::string out;
  out.reserve(pattern->size() + 16);
  const std::string& p = *pattern;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if ((c == '{' || c == '}') && i + 1 < p.size() && p[i + 1] == c) {  // {{ and }}: a brace
      out += c;
      ++i;
      continue;
    }
    const std::size_t close = c == '{' ? p.find('}', i + 1) : std::string::npos;
    if (close == std::string::npos) {
      out += c;
      continue;
    }
    const std::string_view name(p.data() + i + 1, close - i - 1);
    bool found = false;
    for (const auto& [arg, value] : args)
      if (arg == name) {
        out += value;
        found = true;
        break;
      }
    if (!found) {
      missing().insert(std::string(key) + " {" + std::string(name) + "}");
      out.append(p, i, close - i + 1);
    }
    i = close;
  }
  return out;
}

void Catalogue::overlay(const Catalogue& over) {
  for (const auto& [key, value] : over.entries_) entries_[key] = value;
}

const Catalogue& english_strings() {
  static const Catalogue english = Catalogue::parse(kEnglishStrings);
  return english;
}

const Catalogue& strings() { return active().catalogue; }

std::string_view language() { return active().language; }

std::vector<Catalogue::Problem> use_language(std::string_view code, std::string_view file_text) {
  std::vector<Catalogue::Problem> problems;
  Active& a = active();
  a.catalogue = english_strings();
  a.language = "en";
  if (code.empty() || code == "en") return problems;
  a.catalogue.overlay(Catalogue::parse(file_text, &problems));
  a.language = std::string(code);
  return problems;
}

std::string tr(std::string_view key, const TextArgs& args) { return strings().text(key, args); }

std::string tr_n(std::string_view key, long long n, const TextArgs& args) {
  const std::string form = std::string(key) + (n == 1 ? ".one" : ".other");
  return strings().text(strings().has(form) ? std::string_view(form) : key, args);
}

std::vector<std::string> take_missing_keys() {
  std::vector<std::string> out(missing().begin(), missing().end());
  missing().clear();
  return out;
}

}  // namespace neuralpath
