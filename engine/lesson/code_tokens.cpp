// code_tokens.cpp: just enough lexing to colour code blocks (keywords, strings, numbers,
// comments). Not a compiler: a wrong colour is harmless, so the rules stay short.
#include "engine/lesson/parse_context.h"

#include <cctype>
#include <set>

namespace neuralpath::lesson::detail {

namespace {

struct Language {
  std::set<std::string_view> keywords, builtins;
  std::string_view line_comment;  // "#" or "//"
};

const Language& language(std::string_view name) {
  static const Language python{
      {"and",   "as",      "assert", "break",  "class", "continue", "def",   "del",  "elif",   "else", "except",
       "False", "finally", "for",    "from",   "if",    "import",   "in",    "is",   "lambda", "None", "not",
       "or",    "pass",    "raise",  "return", "True",  "try",      "while", "with", "yield"},
      {"print", "range", "len", "super", "float", "int", "self", "torch", "math", "F", "nn"},
      "#"};
  static const Language cpp{
      {"auto",   "bool",   "break",    "case", "class", "const", "constexpr", "continue", "double", "else",
       "enum",   "false",  "float",    "for",  "if",    "int",   "namespace", "nullptr",  "return", "static",
       "struct", "switch", "template", "true", "using", "void",  "while",     "include"},
      {"std", "Eigen", "size_t"},
      "//"};
  static const Language js{{"async", "await", "break", "const", "continue", "else", "false", "for", "function", "if",
                            "let", "new", "null", "return", "this", "true", "var", "while"},
                           {"console", "Math", "window", "document"},
                           "//"};
  static const Language plain{{}, {}, ""};
  if (name == "python" || name == "py") return python;
  if (name == "cpp" || name == "c++" || name == "c") return cpp;
  if (name == "js" || name == "javascript") return js;
  return plain;
}

std::vector<CodeToken> tokens(const Language& lang, std::string_view line) {
  std::vector<CodeToken> out;
  auto add = [&](std::size_t b, std::size_t e, CodeToken::Kind k) {
    if (!out.empty() && out.back().kind == k && out.back().end == static_cast<int>(b)) {
      out.back().end = static_cast<int>(e);
      return;
    }
    out.push_back({static_cast<int>(b), static_cast<int>(e), k});
  };
  std::size_t i = 0;
  const std::size_t n = line.size();
  if (lang.keywords.empty()) {
    if (n) add(0, n, CodeToken::Kind::Plain);
    return out;
  }
  while (i < n) {
    const char c = line[i];
    const auto u = static_cast<unsigned char>(c);
    if (!lang.line_comment.empty() && line.substr(i, lang.line_comment.size()) == lang.line_comment) {
      add(i, n, CodeToken::Kind::Comment);
      break;
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < n && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      add(i, j, CodeToken::Kind::String);
      i = j;
      continue;
    }
    if (std::isdigit(u)) {
      std::size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.')) ++j;
      add(i, j, CodeToken::Kind::Number);
      i = j;
      continue;
    }
    if (std::isalpha(u) || c == '_') {
      std::size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_')) ++j;
      const std::string_view word = line.substr(i, j - i);
      const bool attribute = i > 0 && line[i - 1] == '.';
      add(i, j,
          !attribute && lang.keywords.count(word)   ? CodeToken::Kind::Keyword
          : !attribute && lang.builtins.count(word) ? CodeToken::Kind::Builtin
                                                    : CodeToken::Kind::Plain);
      i = j;
      continue;
    }
    if (std::ispunct(u) && c != '_') {
      add(i, i + 1, CodeToken::Kind::Operator);
      ++i;
      continue;
    }
    add(i, i + 1, CodeToken::Kind::Plain);
    ++i;
  }
  return out;
}

}  // namespace

std::vector<CodeLine> tokenize_code(std::string_view lang_name, std::string_view code) {
  const Language& lang = language(lang_name);
  std::vector<CodeLine> lines;
  if (code.empty()) return lines;
  std::size_t pos = 0;
  for (;;) {
    std::size_t nl = code.find('\n', pos);
    const std::string_view text = code.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    lines.push_back({std::string(text), tokens(lang, text)});
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return lines;
}

}  // namespace neuralpath::lesson::detail
