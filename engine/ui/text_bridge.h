// text_bridge.h: the string catalogue and the number formats, for the JS glue. The text version
// (web/shell/np-mirror.js) prints through these, so it never keeps its own copy of a word or of
// a number format (web/main.cpp exports them as np_text, np_format and np_use_language).
//
//   text_for_js("mirror.step", R"({"n": "2", "total": "9"})")   -> "Step 2 of 9"
//   use_language_for_js("es", file_text)                        -> {"language": "es", "problems": [...]}
#pragma once

#include <string>
#include <string_view>

namespace neuralpath::ui {

// The active catalogue's words for `key`; `args_json` is an object of placeholder values
// (strings as they are, numbers printed with format_number). Bad JSON counts as no values.
std::string text_for_js(std::string_view key, std::string_view args_json);

// Loads a language's catalogue file over English (engine/text/catalogue.h); the reply lists the
// file's problems as {"line", "message"} so the page can log them.
std::string use_language_for_js(std::string_view code, std::string_view file_text);

}  // namespace neuralpath::ui
