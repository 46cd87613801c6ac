// drawable.h: the characters the page can draw — the fonts' glyph ranges (glyph_ranges.inc) —
// read without ImGui, so a widget's model can refuse a sentence it could only show as "?" or
// "�" (#15: emoji given through setSentence or a shared link were drawn as "�").
//
//   undrawable("the cat 🙂 sat 🙂")   -> "🙂"      each such character once, in order
//   refuse_undrawable("hi 🙂")        -> "Emoji and some other symbols cannot be drawn here..."
//   refuse_undrawable("the cat")      -> std::nullopt
//
// U+FFFD counts as undrawable: it is what a character the keyboard could not pass became.
// Control characters (tab, line breaks) count as drawable: the tokenizer drops them as spaces.
// Invalid UTF-8 is left to the tokenizer, which names its byte offset.
// refuse_undrawable also refuses a sentence longer than a sentence field holds
// (engine/lesson/limits.h's kMaxSentenceBytes): every widget's sentence path calls it first.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace neuralpath::widgets {

bool drawable(char32_t c);
std::string undrawable(std::string_view utf8);
std::optional<std::string> refuse_undrawable(std::string_view utf8);  // "widgets.cannot_draw", ".sentence_too_long"
// A language-model kind's prompt (generate, kv-cache): longer than `max_bytes` is refused in the
// kind's words (`too_long_key`, {n}: the limit), anything else as refuse_undrawable.
std::optional<std::string> refuse_prompt(std::string_view prompt, std::size_t max_bytes,
                                         const std::string& too_long_key);
// What a sentence field shows of `text`: at most kMaxSentenceBytes, cut at a character's start
// (a refused sentence stays in its box, so the learner can mend it).
std::string field_prefix(std::string_view text);

}  // namespace neuralpath::widgets
