// tokenizer.cpp: see tokenizer.h for the rules a learner can predict.
#include "tokenizer.h"

#include "error.h"

#include <cstdint>

namespace neuralpath {

namespace {

// Decode one UTF-8 code point at `pos`; returns its byte length, or 0 for invalid UTF-8
// (overlong forms, surrogates, values past U+10FFFF and truncated sequences included).
std::size_t decode_utf8(std::string_view s, std::size_t pos, char32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[pos]);
  std::size_t len = 0;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
  } else
    return 0;
  if (pos + len > s.size()) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(s[pos + i]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  static constexpr char32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

enum class CharClass { space, word, joiner, punctuation };

CharClass classify(char32_t cp) {
  if (cp < 0x80) {
    if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp < 0x20 || cp == 0x7F) return CharClass::space;
    if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') || cp == '_')
      return CharClass::word;
    if (cp == '\'' || cp == '-') return CharClass::joiner;
    return CharClass::punctuation;
  }
  if (cp == 0x2019) return CharClass::joiner;  // ’ as in didn’t
  if (cp == 0x00A0 || (cp >= 0x2000 && cp <= 0x200B) || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF ||
      cp == 0x0085)
    return CharClass::space;  // Unicode spaces
  if ((cp >= 0x00A1 && cp <= 0x00BF && cp != 0x00AA && cp != 0x00B5 && cp != 0x00BA) || cp == 0x00D7 || cp == 0x00F7 ||
      (cp >= 0x2010 && cp <= 0x206F) || (cp >= 0x3001 && cp <= 0x303F) || (cp >= 0xFF01 && cp <= 0xFF0F))
    return CharClass::punctuation;  // « » ¿ — … “ ” 、。
  return CharClass::word;           // letters, CJK, emoji
}

struct Char {
  std::size_t begin, end;
  char32_t cp;
  CharClass cls;
};

std::string make_key(std::string_view text) {
  std::string key;
  key.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (text.compare(i, 3, "\xE2\x80\x99") == 0) {
      key += '\'';
      i += 2;
      continue;
    }  // ’ -> '
    key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

}  // namespace

std::vector<Token> tokenize(std::string_view sentence) {
  // pass 1: decode into classified characters (rejecting invalid UTF-8 with its byte offset)
  std::vector<Char> chars;
  for (std::size_t pos = 0; pos < sentence.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8(sentence, pos, cp);
    if (len == 0) throw InputError("the sentence is not valid UTF-8 (byte " + std::to_string(pos) + ")");
    chars.push_back({pos, pos + len, cp, classify(cp)});
    pos += len;
  }
  // pass 2: group word characters (joiners only between two word characters) into tokens
  std::vector<Token> tokens;
  auto emit = [&](std::size_t begin, std::size_t end, bool punctuation) {
    const std::string_view text = sentence.substr(begin, end - begin);
    tokens.push_back({std::string(text), make_key(text), begin, end, punctuation});
  };
  for (std::size_t i = 0; i < chars.size();) {
    const CharClass cls = chars[i].cls;
    if (cls == CharClass::space) {
      ++i;
      continue;
    }
    if (cls != CharClass::word) {  // a lone joiner is punctuation
      emit(chars[i].begin, chars[i].end, true);
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < chars.size()) {
      if (chars[j].cls == CharClass::word) {
        ++j;
        continue;
      }
      if (chars[j].cls == CharClass::joiner && j + 1 < chars.size() && chars[j + 1].cls == CharClass::word) {
        j += 2;
        continue;
      }
      break;
    }
    emit(chars[i].begin, chars[j - 1].end, false);
    i = j;
  }
  if (static_cast<int>(tokens.size()) > kMaxTokens)
    throw InputError("the sentence has " + std::to_string(tokens.size()) + " tokens; the limit is " +
                     std::to_string(kMaxTokens));
  return tokens;
}

}  // namespace neuralpath
