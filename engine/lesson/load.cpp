// load.cpp: file -> text -> parse_lesson -> check_with_engine.
//
// [SECTION] Reading   a regular file, at most kMaxLessonBytes, never blocking
// [SECTION] Loading   the one entry point the CLI and the page share; nothing escapes it
#include "engine/lesson/load.h"

#include "engine/core/error.h"
#include "engine/lesson/limits.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/parser.h"
#include "engine/lesson/task_set.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <new>

namespace neuralpath::lesson {

namespace {

const std::string kTooLarge = "the file is larger than 4 MB; is it a lesson?";

LoadResult failed(std::string file, SourcePos pos, std::string message) {
  LoadResult r;
  r.diagnostics.push_back({std::move(file), pos, std::move(message)});
  return r;
}

// [SECTION] Reading -----------------------------------------------------------------------------

// Closes the descriptor on every path out.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// The whole file, or an error message. A FIFO or device (`--lesson /dev/zero`) would never end
// or block forever, so only regular files are read: O_NONBLOCK keeps open() itself from
// waiting for a FIFO's writer, and fstat() on the open descriptor checks what was opened (not
// what the name pointed to a moment earlier). At most kMaxLessonBytes + 1 bytes are read.
std::optional<std::string> read_text_file(const std::string& path, std::string& error) {
  const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    error = std::string("cannot open the file (") + std::strerror(errno) + ")";
    return std::nullopt;
  }
  struct stat info {};
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    error = S_ISDIR(info.st_mode) ? "this is a folder, not a lesson file"
                                  : "not a regular file (a pipe or device); give a lesson file";
    return std::nullopt;
  }
  if (static_cast<unsigned long long>(info.st_size) > kMaxLessonBytes) {
    error = kTooLarge;
    return std::nullopt;
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::string("cannot read the file (") + std::strerror(errno) + ")";
      return std::nullopt;
    }
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxLessonBytes) {  // it grew while we read it
      error = kTooLarge;
      return std::nullopt;
    }
  }
  return text;
}

}  // namespace

// [SECTION] Loading -----------------------------------------------------------------------------

LoadResult load_lesson_text(std::string_view text, std::string file, LoadOptions options) {
  if (text.size() > kMaxLessonBytes) return failed(std::move(file), {1, 1}, kTooLarge);
  // Parse errors are diagnostics, and nesting limits keep every recursion shallow; what can
  // still be thrown (std::bad_alloc on a machine out of memory, a bug) becomes a diagnostic
  // here, so neither the CLI nor the page ever sees an exception from loading a lesson.
  try {
    LoadResult result;
    ParseResult parsed = parse_lesson(text, file, options.widgets);
    result.diagnostics = std::move(parsed.diagnostics);
    // Engine checks need a well-formed model; on format errors they would mostly repeat them.
    if (result.diagnostics.empty() && options.engine_checks) {
      result.diagnostics = check_with_engine(parsed.lesson, parsed.sentences);
      if (result.diagnostics.size() > kMaxDiagnostics) {
        result.diagnostics.resize(kMaxDiagnostics);
        result.diagnostics.push_back(
            {file, result.diagnostics.back().pos,
             "more than " + std::to_string(kMaxDiagnostics) + " problems; the rest are not listed (fix these first)"});
      }
    }
    if (result.diagnostics.empty() && options.engine_checks)
      result.diagnostics = check_tasks(parsed.lesson);  // task_set.h
    // A task marked `lesson-weights: trained`: its shipped weights, or it trains here when
    // that is allowed (check_tasks has bounded the work), else the lesson is refused.
    const TaskData* trained = lesson_weights_task(parsed.lesson);
    if (result.diagnostics.empty() && options.lesson_weights && trained && !options.train_lesson_weights &&
        !shipped_weights_match(parsed.lesson, *trained))
      result.diagnostics.push_back(
          {file, trained->lesson_weights_pos,
           "this copy of the lesson lacks the weights task '" + trained->id +
               "' trains (or they were trained for other data), and they are not trained while the lesson "
               "opens; the site's build adds them (neuralpath-cli train --lesson FILE --ship OUT)"});
    if (result.diagnostics.empty() && options.lesson_weights) {
      try {
        apply_trained_weights(parsed.lesson);
      } catch (const neuralpath::InputError& e) {
        result.diagnostics.push_back({file, trained ? trained->lesson_weights_pos : SourcePos{1, 1},
                                      std::string("training the lesson's weights failed: ") + e.what()});
      }
    }
    if (result.diagnostics.empty()) result.lesson = std::move(parsed.lesson);
    return result;
  } catch (const std::bad_alloc&) {
    return failed(std::move(file), {1, 1}, "the lesson needs more memory than there is to load it");
  } catch (const std::exception& e) {
    return failed(std::move(file), {1, 1}, std::string("internal error while loading the lesson: ") + e.what());
  } catch (...) {
    return failed(std::move(file), {1, 1}, "internal error while loading the lesson");
  }
}

LoadResult load_lesson_file(const std::string& path, LoadOptions options) {
  std::string error;
  try {
    std::optional<std::string> text = read_text_file(path, error);
    if (!text) return failed(path, {}, error);
    return load_lesson_text(*text, path, options);
  } catch (const std::bad_alloc&) {
    return failed(path, {}, "not enough memory to read the file");
  }
}

std::vector<Diagnostic> check_lesson_file(const std::string& path, WidgetBlockParsers widgets) {
  return load_lesson_file(path, {.widgets = widgets, .lesson_weights = false, .train_lesson_weights = false})
      .diagnostics;
}

}  // namespace neuralpath::lesson
