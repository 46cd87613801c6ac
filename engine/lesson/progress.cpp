// progress.cpp: learner progress, its JSON string and its checks against a lesson.
//
// [SECTION] Writing   the record as compact JSON, keys in a fixed order
// [SECTION] Reading   field by field, keeping every part that can be read
// [SECTION] Actions   answer, reveal, go to; reconcile; summary
#include "engine/lesson/progress.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace neuralpath::lesson {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// Our record is three levels deep; anything much deeper is not ours, and refusing it keeps a
// hostile record from building a deep tree (whose copies and dumps recurse).
constexpr int kMaxDepth = 16;
// Within one field, the reasons given for dropped items stop after a few (a record of 10k bad
// entries says so once per field, not 10k times).
constexpr int kMaxReasonsPerField = 5;

// Strings in the record come from lesson anchors and ids, normally valid UTF-8; a stray byte is
// replaced rather than making the whole record unwritable.
std::string dump(const ordered_json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string shown(std::string_view s) { return dump(ordered_json(std::string(s.substr(0, 60)))); }

// A small non-negative integer (option index, step, version), also when written as 3.0.
std::optional<int> small_int(const json& j) {
  if (j.is_number_unsigned() || j.is_number_integer()) {
    const auto v = j.get<long long>();
    if (v >= 0 && v <= 1'000'000) return static_cast<int>(v);
  } else if (j.is_number_float()) {
    const double v = j.get<double>();
    if (v >= 0 && v <= 1e6 && std::floor(v) == v) return static_cast<int>(v);
  }
  return std::nullopt;
}

// Collects what a read left out; a field's reasons stop after kMaxReasonsPerField.
struct Dropped {
  std::vector<std::string>& out;
  std::map<std::string, int> per_field;
  void add(const std::string& field, std::string reason) {
    const int n = ++per_field[field];
    if (n <= kMaxReasonsPerField)
      out.push_back(std::move(reason));
    else if (n == kMaxReasonsPerField + 1)
      out.push_back("more entries of '" + field + "' were left out");
  }
};

// A list of texts (visited, reveals): bad items are left out one by one.
std::set<std::string> read_texts(const json& value, const std::string& field, Dropped& dropped) {
  std::set<std::string> out;
  if (!value.is_array()) {
    dropped.add(field, "'" + field + "' is not a list, so it was left out");
    return out;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i].is_string())
      out.insert(value[i].get<std::string>());
    else
      dropped.add(field, "'" + field + "' item " + std::to_string(i + 1) + " is not a text");
  }
  return out;
}

// check id -> chosen options: an answer with any bad option number is left out whole (half an
// answer would be graded as something the learner never chose).
std::map<std::string, std::vector<int>> read_answers(const json& value, Dropped& dropped) {
  std::map<std::string, std::vector<int>> out;
  if (!value.is_object()) {
    dropped.add("answers", "'answers' is not an object, so no answer could be read");
    return out;
  }
  for (const auto& [id, chosen] : value.items()) {
    std::vector<int> options;
    bool readable = chosen.is_array() && !chosen.empty();
    if (readable) {
      for (const json& o : chosen) {
        const auto n = small_int(o);
        if (!n) {
          readable = false;
          break;
        }
        options.push_back(*n);
      }
    }
    if (!readable) {
      dropped.add("answers", "the answer to " + shown(id) + " is not a list of option numbers");
      continue;
    }
    std::sort(options.begin(), options.end());
    options.erase(std::unique(options.begin(), options.end()), options.end());
    out[id] = std::move(options);
  }
  return out;
}

}  // namespace

// [SECTION] Writing -----------------------------------------------------------------------------

std::string serialize_progress(const Progress& p) {
  ordered_json out;
  out["v"] = kProgressVersion;
  out["lesson"] = p.lesson;
  out["section"] = p.section;
  out["visited"] = p.visited;
  out["answers"] = ordered_json::object();
  for (const auto& [id, chosen] : p.answers) out["answers"][id] = chosen;
  out["reveals"] = p.reveals;
  out["step"] = p.step;
  if (p.order != 0) out["order"] = p.order;
  // Unknown keys go back as they came (a newer version's or a host's: not ours to drop).
  for (const auto& [key, text] : p.extra) {
    if (out.contains(key)) continue;
    ordered_json value = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!value.is_discarded()) out[key] = std::move(value);
  }
  return dump(out);
}

// [SECTION] Reading -----------------------------------------------------------------------------

ProgressParse parse_progress(std::string_view stored) {
  ProgressParse result;
  if (stored.size() > kMaxProgressBytes) {
    result.error = "stored progress is too large (" + std::to_string(stored.size()) + " bytes; at most " +
                   std::to_string(kMaxProgressBytes) + ")";
    return result;
  }
  bool too_deep = false;
  const auto limit_depth = [&](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth > kMaxDepth) {
      too_deep = true;
      return false;  // discarded: the tree never grows deeper than the limit
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(stored.begin(), stored.end(), limit_depth);
  } catch (const json::exception& e) {  // not JSON, bad UTF-8, a number out of range
    result.error = "stored progress is not JSON (" + std::string(e.what()) + ")";
    return result;
  }
  if (too_deep) {
    result.error = "stored progress is nested more than " + std::to_string(kMaxDepth) + " levels deep";
    return result;
  }
  if (!doc.is_object()) {
    result.error = "stored progress is not a JSON object";
    return result;
  }
  if (!doc.contains("lesson") || !doc["lesson"].is_string() || doc["lesson"].get<std::string>().empty()) {
    result.error = "stored progress names no lesson";
    return result;
  }

  Dropped dropped{result.dropped, {}};
  if (!doc.contains("v")) {
    dropped.add("v", "the record has no version ('v'); it was read as version " + std::to_string(kProgressVersion));
  } else if (const auto v = small_int(doc["v"]); !v) {
    dropped.add(
        "v", "the record's version ('v') is not a number; it was read as version " + std::to_string(kProgressVersion));
  } else {
    result.version = *v;
    if (*v > kProgressVersion)
      dropped.add("v", "the record was saved by a newer version (" + std::to_string(*v) +
                           "); only the parts this version knows were read");
  }

  Progress p;
  for (const auto& [key, value] : doc.items()) {
    if (key == "v") continue;
    if (key == "lesson") {
      p.lesson = value.get<std::string>();
    } else if (key == "section") {
      if (value.is_string())
        p.section = value.get<std::string>();
      else
        dropped.add(key, "'section' is not a text, so the position was left out");
    } else if (key == "visited" || key == "reveals") {
      (key == "visited" ? p.visited : p.reveals) = read_texts(value, key, dropped);
    } else if (key == "answers") {
      p.answers = read_answers(value, dropped);
    } else if (key == "step") {
      if (const auto n = small_int(value))
        p.step = *n;
      else
        dropped.add(key, "'step' is not a step number, so the playback position was left out");
    } else if (key == "order") {
      if (value.is_number_unsigned() && value.get<std::uint64_t>() <= 0xFFFFFFFFull)
        p.order = static_cast<std::uint32_t>(value.get<std::uint64_t>());
      else
        dropped.add(key, "'order' is not a seed (a whole number below 2^32), so the options' order was made anew");
    } else {
      p.extra[key] = value.dump(-1, ' ', false, json::error_handler_t::replace);
    }
  }
  result.progress = std::move(p);
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
  // A prediction is committed once: its answer was shown the moment it was made.
  if (const auto made = p.answers.find(std::string(id));
      check->predict && made != p.answers.end() && made->second != chosen)
    return std::nullopt;
  p.answers[std::string(id)] = chosen;
  return grade(*check, chosen);
}

bool open_reveal(Progress& p, const Lesson& lesson, std::string_view id) {
  const Block* b = find_block(lesson, id);
  if (!b || !std::holds_alternative<Reveal>(b->content)) return false;
  p.reveals.insert(std::string(id));
  return true;
}

Progress reconcile(const Lesson& lesson, Progress p, std::vector<std::string>* dropped) {
  std::vector<std::string> ignored;
  Dropped note{dropped ? *dropped : ignored, {}};
  Progress out;
  out.lesson = lesson.id;
  if (p.lesson != lesson.id) {  // someone else's progress: start fresh
    note.add("lesson", "the record belongs to the lesson " + shown(p.lesson) + ", so none of it was used");
    return out;
  }
  out.step = p.step;
  out.order = p.order;
  out.extra = std::move(p.extra);
  if (find_section(lesson, p.section))
    out.section = p.section;
  else if (!p.section.empty())
    note.add("section", "the section " + shown(p.section) + " is no longer in the lesson");
  for (const auto& v : p.visited) {
    if (find_section(lesson, v))
      out.visited.insert(v);
    else
      note.add("visited", "the visited section " + shown(v) + " is no longer in the lesson");
  }
  for (const auto& [id, chosen] : p.answers) {
    Progress probe;
    if (answer_check(probe, lesson, id, chosen))
      out.answers[id] = probe.answers[id];
    else
      note.add("answers", "the answer to " + shown(id) + " does not fit a check of this lesson");
  }
  for (const auto& r : p.reveals)
    if (!open_reveal(out, lesson, r)) note.add("reveals", "the reveal " + shown(r) + " is no longer in the lesson");
  return out;
}

ProgressSummary summarize(const Lesson& lesson, const Progress& p) {
  ProgressSummary s;
  for (const Block* b : check_blocks(lesson)) {
    ++s.checks;
    auto it = p.answers.find(b->id);
    if (it == p.answers.end()) continue;
    ++s.answered;
    // A prediction is a guess made before the answer is shown, once: making it is what the
    // block asks, so a committed one counts as done whichever option it was (its own
    // answered statement still says whether the guess was right).
    const Check& check = std::get<Check>(b->content);
    if (check.predict || grade(check, it->second).correct) ++s.correct;
  }
  s.sections = static_cast<int>(lesson.sections.size());
  for (const auto& sec : lesson.sections) s.visited += p.visited.count(sec.anchor) ? 1 : 0;
  s.score = s.checks ? static_cast<double>(s.correct) / s.checks : 1.0;
  s.completed = s.answered == s.checks && s.visited == s.sections;
  s.success = s.completed && s.correct == s.checks;
  // One unit per section to visit and per check to answer; rounded down so that 100 means done.
  const int units = s.sections + s.checks;
  s.percent = units ? (100 * (s.visited + s.answered)) / units : 100;
  return s;
}

std::vector<int> option_order(std::uint32_t order, std::string_view check_id, int options) {
  std::vector<int> shown(static_cast<std::size_t>(std::max(options, 0)));
  for (int i = 0; i < options; ++i) shown[static_cast<std::size_t>(i)] = i;
  if (order == 0) return shown;
  // splitmix64 over (seed, FNV-1a of the check's id): no library generator, whose sequence
  // may differ between standard libraries (the page and the CLI must agree, and so must a
  // learner's phone and laptop).
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : check_id) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::uint64_t state = h ^ (static_cast<std::uint64_t>(order) << 32 | order);
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  // Fisher-Yates: position i takes one of the options not yet placed, each equally likely.
  for (int i = options - 1; i > 0; --i)
    std::swap(shown[static_cast<std::size_t>(i)],
              shown[static_cast<std::size_t>(next() % static_cast<std::uint64_t>(i + 1))]);
  return shown;
}

}  // namespace neuralpath::lesson
