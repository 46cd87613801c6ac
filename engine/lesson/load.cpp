// load.cpp: file -> text -> parse_lesson -> check_with_engine.
#include "engine/lesson/load.h"

#include "engine/lesson/model_spec.h"
#include "engine/lesson/parser.h"

#include <fstream>
#include <sstream>

namespace neuralpath::lesson {

namespace {

constexpr std::size_t kMaxLessonBytes = 4 * 1024 * 1024;   // a lesson is text, not a data dump

}  // namespace

LoadResult load_lesson_text(std::string_view text, std::string file) {
    LoadResult result;
    ParseResult parsed = parse_lesson(text, std::move(file));
    result.diagnostics = std::move(parsed.diagnostics);
    // Engine checks need a well-formed model; on format errors they would mostly repeat them.
    if (result.diagnostics.empty()) result.diagnostics = check_with_engine(parsed.lesson, parsed.sentences);
    if (result.diagnostics.empty()) result.lesson = std::move(parsed.lesson);
    return result;
}

LoadResult load_lesson_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        LoadResult r;
        r.diagnostics.push_back({path, {}, "cannot open the file"});
        return r;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    if (text.size() > kMaxLessonBytes) {
        LoadResult r;
        r.diagnostics.push_back({path, {}, "the file is larger than 4 MB; is it a lesson?"});
        return r;
    }
    return load_lesson_text(text, path);
}

std::vector<Diagnostic> check_lesson_file(const std::string& path) {
    return load_lesson_file(path).diagnostics;
}

}  // namespace neuralpath::lesson
