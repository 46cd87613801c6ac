// bench_support.h: what the benchmarks' command lines and timers share (header-only, so each
// bench stays one source file in both the native and the web preset).
#pragma once

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

namespace bench {

// The items of a comma-separated option ("1,2" or "page,small"); empty items are skipped.
inline std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) parts.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

// A clock_gettime clock (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID) in seconds.
inline double clock_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace bench
