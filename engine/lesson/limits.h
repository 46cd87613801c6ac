// limits.h: how big and how deep a lesson may be.
//
// Every parser and visitor over lesson content recurses once per nesting level, and the page
// runs it on a WebAssembly stack far smaller than a native one. So each kind of nesting has a
// limit well above what any real lesson needs; going past it is a `file:line:col` error like
// any other authoring mistake, never a crash. The same limits hold for `neuralpath-cli check`
// and for the page, because both load through load_lesson_text().
#pragma once

#include <cstddef>

namespace neuralpath::lesson {

// A lesson is text, not a data dump (the launch lessons are ~20 KB).
inline constexpr std::size_t kMaxLessonBytes = 4 * 1024 * 1024;

// Lists, quotes, callouts and reveals inside one another (a list level counts once).
inline constexpr int kMaxBlockNesting = 16;

// Groups, fractions, roots, scripts, styles and \left…\right inside one another in one
// equation; every atom nested in another counts one level ({x} is two: the group and x).
inline constexpr int kMaxEquationNesting = 64;

// Inline lists ([[1, 2], [3, 4]] is two levels) and indented maps or lists in block settings.
inline constexpr int kMaxSettingsNesting = 16;

// After this many problems in one file the checker stops listing them (like a compiler's
// error limit): a broken 4 MB file would otherwise print millions of lines.
inline constexpr std::size_t kMaxDiagnostics = 200;

}  // namespace neuralpath::lesson
