// progress.cpp: learner progress, its JSON string and its checks against a lesson.
//
// [SECTION] Writing   a compact JSON object
// [SECTION] Reading   a strict little JSON reader with limits (depth, size, types)
// [SECTION] Actions   answer, reveal, go to; reconcile; summary
#include "engine/lesson/progress.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <variant>

namespace neuralpath::lesson {

namespace {

// [SECTION] Writing -----------------------------------------------------------------------------

void write_string(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

template <class Range>
void write_string_array(std::string& out, const Range& items) {
    out += '[';
    bool first = true;
    for (const auto& s : items) {
        if (!first) out += ',';
        first = false;
        write_string(out, s);
    }
    out += ']';
}

// [SECTION] Reading -----------------------------------------------------------------------------

struct Json;
using JsonObject = std::vector<std::pair<std::string, Json>>;
using JsonArray = std::vector<Json>;
struct Json {
    std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<JsonArray>,
                 std::shared_ptr<JsonObject>>
        value;
};

struct JsonError {
    std::string message;
};

class JsonReader {
public:
    explicit JsonReader(std::string_view s) : s_(s) {}

    Json document() {
        Json v = value(0);
        skip();
        if (i_ != s_.size()) fail("unexpected text after the end");
        return v;
    }

private:
    std::string_view s_;
    std::size_t      i_ = 0;
    static constexpr int kMaxDepth = 8;   // progress is three levels deep; more is not ours

    [[noreturn]] void fail(const std::string& what) {
        throw JsonError{what + " at byte " + std::to_string(i_)};
    }
    void skip() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
    }
    bool literal(std::string_view word) {
        if (s_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }

    Json value(int depth) {
        if (depth > kMaxDepth) fail("nested too deeply");
        skip();
        if (i_ >= s_.size()) fail("unexpected end");
        const char c = s_[i_];
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return Json{string()};
        if (literal("true")) return Json{true};
        if (literal("false")) return Json{false};
        if (literal("null")) return Json{nullptr};
        if (c == '-' || (c >= '0' && c <= '9')) return Json{number()};
        fail("unexpected character");
    }

    double number() {
        const std::size_t b = i_;
        if (s_[i_] == '-') ++i_;
        while (i_ < s_.size() && ((s_[i_] >= '0' && s_[i_] <= '9') || s_[i_] == '.' || s_[i_] == 'e' ||
                                  s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
            ++i_;
        const std::string text(s_.substr(b, i_ - b));
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size()) fail("bad number");
        return v;
    }

    static void utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) out += static_cast<char>(cp);
        else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string string() {
        ++i_;  // opening quote
        std::string out;
        while (i_ < s_.size()) {
            const char c = s_[i_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= s_.size()) break;
            const char e = s_[i_++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                if (i_ + 4 > s_.size()) fail("short \\u escape");
                unsigned cp = 0;
                for (int k = 0; k < 4; ++k) {
                    const char h = s_[i_++];
                    cp <<= 4;
                    if (h >= '0' && h <= '9') cp |= static_cast<unsigned>(h - '0');
                    else if (h >= 'a' && h <= 'f') cp |= static_cast<unsigned>(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F') cp |= static_cast<unsigned>(h - 'A' + 10);
                    else fail("bad \\u escape");
                }
                if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;  // lone surrogates: replaced
                utf8(out, cp);
                break;
            }
            default: fail("bad escape");
            }
        }
        fail("unterminated string");
    }

    Json array(int depth) {
        ++i_;
        auto arr = std::make_shared<JsonArray>();
        skip();
        if (i_ < s_.size() && s_[i_] == ']') {
            ++i_;
            return Json{arr};
        }
        for (;;) {
            arr->push_back(value(depth + 1));
            skip();
            if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
            if (i_ < s_.size() && s_[i_] == ']') { ++i_; return Json{arr}; }
            fail("expected ',' or ']'");
        }
    }

    Json object(int depth) {
        ++i_;
        auto obj = std::make_shared<JsonObject>();
        skip();
        if (i_ < s_.size() && s_[i_] == '}') {
            ++i_;
            return Json{obj};
        }
        for (;;) {
            skip();
            if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key");
            std::string key = string();
            skip();
            if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':'");
            ++i_;
            obj->emplace_back(std::move(key), value(depth + 1));
            skip();
            if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
            if (i_ < s_.size() && s_[i_] == '}') { ++i_; return Json{obj}; }
            fail("expected ',' or '}'");
        }
    }
};

const std::string* as_string(const Json& j) { return std::get_if<std::string>(&j.value); }
const JsonArray* as_array(const Json& j) {
    auto p = std::get_if<std::shared_ptr<JsonArray>>(&j.value);
    return p ? p->get() : nullptr;
}
const JsonObject* as_object(const Json& j) {
    auto p = std::get_if<std::shared_ptr<JsonObject>>(&j.value);
    return p ? p->get() : nullptr;
}
std::optional<int> as_small_int(const Json& j) {
    auto d = std::get_if<double>(&j.value);
    if (!d || *d != static_cast<double>(static_cast<long long>(*d)) || *d < 0 || *d > 1e6)
        return std::nullopt;
    return static_cast<int>(*d);
}

std::set<std::string> string_set(const Json& j, const char* field) {
    const JsonArray* a = as_array(j);
    if (!a) throw JsonError{std::string("'") + field + "' is not a list"};
    std::set<std::string> out;
    for (const auto& item : *a) {
        const std::string* s = as_string(item);
        if (!s) throw JsonError{std::string("'") + field + "' holds something that is not a text"};
        out.insert(*s);
    }
    return out;
}

}  // namespace

std::string serialize_progress(const Progress& p) {
    std::string out = "{\"v\":" + std::to_string(kProgressVersion) + ",\"lesson\":";
    write_string(out, p.lesson);
    out += ",\"section\":";
    write_string(out, p.section);
    out += ",\"visited\":";
    write_string_array(out, p.visited);
    out += ",\"answers\":{";
    bool first = true;
    for (const auto& [id, chosen] : p.answers) {
        if (!first) out += ',';
        first = false;
        write_string(out, id);
        out += ":[";
        for (std::size_t k = 0; k < chosen.size(); ++k) {
            if (k) out += ',';
            out += std::to_string(chosen[k]);
        }
        out += ']';
    }
    out += "},\"reveals\":";
    write_string_array(out, p.reveals);
    out += ",\"step\":" + std::to_string(p.step) + "}";
    return out;
}

ProgressParse parse_progress(std::string_view stored) {
    ProgressParse result;
    if (stored.size() > kMaxProgressBytes) {
        result.error = "stored progress is too large (" + std::to_string(stored.size()) + " bytes)";
        return result;
    }
    try {
        const Json doc = JsonReader(stored).document();
        const JsonObject* obj = as_object(doc);
        if (!obj) throw JsonError{"stored progress is not a JSON object"};
        Progress p;
        bool has_version = false;
        for (const auto& [key, value] : *obj) {
            if (key == "v") {
                auto v = as_small_int(value);
                if (!v) throw JsonError{"'v' is not a version number"};
                if (*v != kProgressVersion)
                    throw JsonError{"progress version " + std::to_string(*v) + " is not supported (expected " +
                                    std::to_string(kProgressVersion) + ")"};
                has_version = true;
            } else if (key == "lesson" || key == "section") {
                const std::string* s = as_string(value);
                if (!s) throw JsonError{"'" + key + "' is not a text"};
                (key == "lesson" ? p.lesson : p.section) = *s;
            } else if (key == "visited") {
                p.visited = string_set(value, "visited");
            } else if (key == "reveals") {
                p.reveals = string_set(value, "reveals");
            } else if (key == "answers") {
                const JsonObject* answers = as_object(value);
                if (!answers) throw JsonError{"'answers' is not an object"};
                for (const auto& [id, chosen] : *answers) {
                    const JsonArray* a = as_array(chosen);
                    if (!a) throw JsonError{"the answer to '" + id + "' is not a list"};
                    std::vector<int> options;
                    for (const auto& o : *a) {
                        auto n = as_small_int(o);
                        if (!n) throw JsonError{"the answer to '" + id + "' holds a bad option number"};
                        options.push_back(*n);
                    }
                    std::sort(options.begin(), options.end());
                    options.erase(std::unique(options.begin(), options.end()), options.end());
                    p.answers[id] = std::move(options);
                }
            } else if (key == "step") {
                auto n = as_small_int(value);
                if (!n) throw JsonError{"'step' is not a step number"};
                p.step = *n;
            }
            // Other keys: written by a newer minor version or by a host; ignored on purpose.
        }
        if (!has_version) throw JsonError{"stored progress has no version ('v')"};
        if (p.lesson.empty()) throw JsonError{"stored progress names no lesson"};
        result.progress = std::move(p);
    } catch (const JsonError& e) {
        result.error = e.message;
    }
    return result;
}

// [SECTION] Actions -----------------------------------------------------------------------------

bool go_to_section(Progress& p, const Lesson& lesson, std::string_view anchor) {
    if (!find_section(lesson, anchor)) return false;
    p.section = std::string(anchor);
    p.visited.insert(p.section);
    return true;
}

std::optional<CheckGrade> answer_check(Progress& p, const Lesson& lesson, std::string_view id,
                                       std::vector<int> chosen) {
    const Check* check = find_check(lesson, id);
    if (!check || chosen.empty()) return std::nullopt;
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    const int n = static_cast<int>(check->options.size());
    if (chosen.front() < 0 || chosen.back() >= n) return std::nullopt;
    if (!check->multiple && chosen.size() > 1) return std::nullopt;
    p.answers[std::string(id)] = chosen;
    return grade(*check, chosen);
}

bool open_reveal(Progress& p, const Lesson& lesson, std::string_view id) {
    const Block* b = find_block(lesson, id);
    if (!b || !std::holds_alternative<Reveal>(b->content)) return false;
    p.reveals.insert(std::string(id));
    return true;
}

Progress reconcile(const Lesson& lesson, Progress p) {
    Progress out;
    out.lesson = lesson.id;
    if (p.lesson != lesson.id) return out;   // someone else's progress: start fresh
    out.step = p.step;
    if (find_section(lesson, p.section)) out.section = p.section;
    for (const auto& v : p.visited)
        if (find_section(lesson, v)) out.visited.insert(v);
    for (const auto& [id, chosen] : p.answers) {
        Progress probe;
        if (answer_check(probe, lesson, id, chosen)) out.answers[id] = probe.answers[id];
    }
    for (const auto& r : p.reveals) open_reveal(out, lesson, r);
    return out;
}

ProgressSummary summarize(const Lesson& lesson, const Progress& p) {
    ProgressSummary s;
    for (const Block* b : check_blocks(lesson)) {
        ++s.checks;
        auto it = p.answers.find(b->id);
        if (it == p.answers.end()) continue;
        ++s.answered;
        if (grade(std::get<Check>(b->content), it->second).correct) ++s.correct;
    }
    s.sections = static_cast<int>(lesson.sections.size());
    for (const auto& sec : lesson.sections) s.visited += p.visited.count(sec.anchor) ? 1 : 0;
    s.score = s.checks ? static_cast<double>(s.correct) / s.checks : 1.0;
    s.completed = s.answered == s.checks && s.visited == s.sections;
    s.success = s.completed && s.correct == s.checks;
    return s;
}

}  // namespace neuralpath::lesson
