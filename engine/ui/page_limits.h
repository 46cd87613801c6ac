// page_limits.h: what the page takes from JavaScript, and the one place the page's scripts read
// every limit from (web/main.cpp exports page_limits_json() as np_limits), so no script keeps a
// copy of a number the engine already knows.
//
//   page_limits_json()  -> {"lesson_bytes": 4194304, "command_bytes": 2097152,
//                           "record_bytes": 1048576, "sentence_bytes": 511, "json_depth": 32,
//                           "shared_state_chars": 6144, "shared_state_bytes": 131072}
#pragma once

#include <cstddef>
#include <string>

namespace neuralpath::ui {

// A command as JSON text (a sentence, a stored record, a shared view) at most this long...
inline constexpr std::size_t kMaxCommandBytes = 2u << 20;
// ...and nested at most this deep: a progress record or a shared view is 4-5 levels, and a
// 13 KB link that inflated to 5M nested arrays froze the tab for a minute (#35). Checked while
// parsing, before anything is built or written out again.
inline constexpr int kMaxCommandNesting = 32;

// A shared view in a link (`?s=`, web/shell/np-share.js): at most this many characters. Link
// sizes past 8 KB are refused by common web servers (ours answered 431 from about 16 KB), so
// share() never makes a longer one and a longer one is refused with a message, not fetched.
inline constexpr std::size_t kMaxSharedStateChars = 6144;
// ...and its JSON once unpacked: every widget's snapshot (a sentence field's bytes and a few
// numbers each) of a lesson with kMaxWidgets of them fits.
inline constexpr std::size_t kMaxSharedStateBytes = 128u << 10;

std::string page_limits_json();

}  // namespace neuralpath::ui
