// lesson.cpp: names, queries and grading over the lesson model.
#include "engine/lesson/lesson.h"

#include <algorithm>
#include <cctype>

namespace neuralpath::lesson {

const char* level_name(Level level) {
  switch (level) {
    case Level::Beginner: return "Beginner";
    case Level::Medium: return "Medium";
    case Level::Advanced: return "Advanced";
    case Level::None: break;
  }
  return "";
}

std::optional<Level> parse_level(std::string_view name) {
  if (name == "Beginner") return Level::Beginner;
  if (name == "Medium") return Level::Medium;
  if (name == "Advanced") return Level::Advanced;
  return std::nullopt;
}

std::string_view widget_kind_name(const BlockContent& content) {
  if (const auto* w = std::get_if<WidgetBlock>(&content)) return w->kind;
  return {};
}

const Inline* widget_caption(const BlockContent& content) {
  if (const auto* w = std::get_if<WidgetBlock>(&content)) return &w->caption;
  return nullptr;
}

const std::vector<std::string>& playback_steps() {
  static const std::vector<std::string> steps = {
      "tokens",  "embedding", "positions", "context", "qkv",      "scores",     "scale",        "mask",
      "softmax", "blend",     "heads",     "output",  "residual", "layer-norm", "feed-forward", "next-token"};
  return steps;
}

bool is_playback_step(std::string_view name) {
  const auto& s = playback_steps();
  return std::find(s.begin(), s.end(), name) != s.end();
}

std::string plain_text(const Inline& text) {
  std::string out;
  for (const auto& s : text) {
    if (s.kind == Span::Kind::Math)
      out += s.math.plain();
    else if (s.kind == Span::Kind::Break)
      out += "\n";
    else
      out += s.text;
  }
  return out;
}

std::string slugify(std::string_view title) {
  std::string out;
  bool dash = false;
  for (char c : title) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      if (dash && !out.empty()) out += '-';
      out += static_cast<char>(std::tolower(u));
      dash = false;
    } else if (u < 0x80) {
      dash = true;  // spaces and punctuation separate words; non-ASCII is dropped
    }
  }
  return out;
}

void for_each_block(const Blocks& blocks, const std::function<void(const Block&)>& visit) {
  for (const auto& b : blocks) {
    visit(b);
    if (auto* l = std::get_if<ListBlock>(&b.content))
      for (const auto& item : l->items) for_each_block(item, visit);
    else if (auto* q = std::get_if<Quote>(&b.content))
      for_each_block(q->blocks, visit);
    else if (auto* c = std::get_if<Callout>(&b.content))
      for_each_block(c->blocks, visit);
    else if (auto* r = std::get_if<Reveal>(&b.content))
      for_each_block(r->blocks, visit);
  }
}

void for_each_block(const Lesson& lesson, const std::function<void(const Block&)>& visit) {
  for_each_block(lesson.intro, visit);
  for (const auto& s : lesson.sections) for_each_block(s.blocks, visit);
}

const Block* find_block(const Lesson& lesson, std::string_view id) {
  const Block* found = nullptr;
  for_each_block(lesson, [&](const Block& b) {
    if (!found && !id.empty() && b.id == id) found = &b;
  });
  return found;
}

const Check* find_check(const Lesson& lesson, std::string_view id) {
  const Block* b = find_block(lesson, id);
  return b ? std::get_if<Check>(&b->content) : nullptr;
}

std::vector<const Block*> check_blocks(const Lesson& lesson) {
  std::vector<const Block*> out;
  for_each_block(lesson, [&](const Block& b) {
    if (std::holds_alternative<Check>(b.content)) out.push_back(&b);
  });
  return out;
}

const Section* find_section(const Lesson& lesson, std::string_view anchor) {
  for (const auto& s : lesson.sections)
    if (s.anchor == anchor) return &s;
  return nullptr;
}

const MatrixData* LayerData::find(std::string_view name) const {
  for (const auto& m : matrices)
    if (m.name == name) return &m;
  return nullptr;
}

CheckGrade grade(const Check& check, const std::vector<int>& chosen) {
  CheckGrade g;
  const int n = static_cast<int>(check.options.size());
  auto picked = [&](int i) { return std::find(chosen.begin(), chosen.end(), i) != chosen.end(); };
  for (int i = 0; i < n; ++i) {
    const bool correct = check.options[static_cast<std::size_t>(i)].correct;
    if (picked(i) && !correct) g.wrong.push_back(i);
    if (!picked(i) && correct) g.missed.push_back(i);
  }
  // Out-of-range choices count as wrong (a stale answer from an older lesson version).
  for (int c : chosen)
    if (c < 0 || c >= n) g.wrong.push_back(c);
  g.correct = !chosen.empty() && g.wrong.empty() && g.missed.empty();
  return g;
}

}  // namespace neuralpath::lesson
