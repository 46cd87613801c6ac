// Lesson -> JSON for the DOM mirror. See document_export.h for the shape.
//
// [SECTION] Inline runs
// [SECTION] Blocks
// [SECTION] Widgets
// [SECTION] The document
#include "document_export.h"

#include "engine/text/catalogue.h"
#include "engine/ui/widgets/registry.h"

#include <type_traits>

namespace neuralpath::ui {

using nlohmann::json;
namespace ls = neuralpath::lesson;

namespace {

// [SECTION] Inline runs -------------------------------------------------------------------------

// The text a span reads as: maths in its linear form ("QKᵀ / √d_k"), a break as a newline.
std::string span_text(const ls::Span& span) {
  switch (span.kind) {
    case ls::Span::Kind::Math: return span.math.empty() ? span.text : span.math.plain();
    case ls::Span::Kind::Break: return "\n";
    case ls::Span::Kind::Text:
    case ls::Span::Kind::Code: break;
  }
  return span.text;
}

json run_style(const ls::Span& span) {
  json run = json::object();
  if (span.bold) run["bold"] = true;
  if (span.italic) run["italic"] = true;
  if (span.strike) run["strike"] = true;
  if (span.kind == ls::Span::Kind::Code) run["code"] = true;
  if (span.kind == ls::Span::Kind::Math) run["math"] = true;
  if (span.kind == ls::Span::Kind::Break) run["break"] = true;
  if (!span.link.empty()) run["link"] = span.link;
  return run;
}

json blocks_json(const ls::Blocks& blocks, int& widget_index) {
  json out = json::array();
  for (const ls::Block& block : blocks) out.push_back(block_json(block, widget_index));
  return out;
}

// A container's readable text: its children's, one paragraph per line.
std::string blocks_text(const json& blocks) {
  std::string text;
  for (const json& block : blocks) {
    const std::string part = block.value("text", std::string());
    if (part.empty()) continue;
    if (!text.empty()) text += '\n';
    text += part;
  }
  return text;
}

json cell_json(const ls::Inline& text) { return json{{"text", runs_plain_text(text)}, {"runs", inline_runs(text)}}; }

const char* align_name(ls::Table::Align align) {
  switch (align) {
    case ls::Table::Align::Left: return "left";
    case ls::Table::Align::Center: return "center";
    case ls::Table::Align::Right: return "right";
    case ls::Table::Align::Default: break;
  }
  return "";
}

const char* callout_name(ls::Callout::Kind kind) {
  switch (kind) {
    case ls::Callout::Kind::Mistake: return "mistake";
    case ls::Callout::Kind::Note: return "note";
    case ls::Callout::Kind::Tip: break;
  }
  return "tip";
}

// [SECTION] Blocks ------------------------------------------------------------------------------
// One overload per block kind; each returns the kind-specific fields (block_json adds the rest).

struct BlockFields {
  int& widget_index;

  json operator()(const ls::Paragraph& p) const {
    return {{"kind", "paragraph"}, {"text", runs_plain_text(p.text)}, {"runs", inline_runs(p.text)}};
  }
  json operator()(const ls::Heading& h) const {
    // Section titles are the mirror's h2, so a heading inside a section is h3 at the least.
    const int level = h.level < 3 ? 3 : (h.level > 6 ? 6 : h.level);
    return {{"kind", "heading"}, {"level", level}, {"text", runs_plain_text(h.text)}, {"runs", inline_runs(h.text)}};
  }
  json operator()(const ls::ListBlock& list) const {
    json items = json::array();
    std::string text;
    for (const ls::Blocks& item : list.items) {
      json blocks = blocks_json(item, widget_index);
      if (!text.empty()) text += '\n';
      text += blocks_text(blocks);
      items.push_back(std::move(blocks));
    }
    return {{"kind", "list"},
            {"ordered", list.ordered},
            {"start", list.start},
            {"items", std::move(items)},
            {"text", text}};
  }
  json operator()(const ls::Quote& quote) const {
    json blocks = blocks_json(quote.blocks, widget_index);
    const std::string text = blocks_text(blocks);
    return {{"kind", "quote"}, {"blocks", std::move(blocks)}, {"text", text}};
  }
  json operator()(const ls::Rule&) const { return {{"kind", "rule"}, {"text", ""}}; }
  json operator()(const ls::Table& table) const {
    json header = json::array(), rows = json::array(), align = json::array();
    for (const ls::Inline& cell : table.header) header.push_back(cell_json(cell));
    for (const auto& row : table.rows) {
      json cells = json::array();
      for (const ls::Inline& cell : row) cells.push_back(cell_json(cell));
      rows.push_back(std::move(cells));
    }
    for (ls::Table::Align a : table.align) align.push_back(align_name(a));
    return {{"kind", "table"},
            {"header", std::move(header)},
            {"rows", std::move(rows)},
            {"align", std::move(align)},
            {"text", ""}};
  }
  json operator()(const ls::Check& check) const {
    json options = json::array();
    for (const ls::CheckOption& option : check.options)
      options.push_back(cell_json(option.text));  // text only: correctness stays in the engine
    return {{"kind", "check"},
            {"question", runs_plain_text(check.question)},
            {"text", runs_plain_text(check.question)},
            {"runs", inline_runs(check.question)},
            {"multiple", check.multiple},
            // a prediction's answer, explanation and measured value come in state() once committed
            {"predict", check.predict},
            {"options", std::move(options)},
            {"hint", runs_plain_text(check.hint)},
            {"hint_runs", inline_runs(check.hint)}};
  }
  json operator()(const ls::Reveal& reveal) const {
    return {{"kind", "reveal"},
            {"label", runs_plain_text(reveal.label)},
            {"text", runs_plain_text(reveal.label)},
            {"runs", inline_runs(reveal.label)},
            {"blocks", blocks_json(reveal.blocks, widget_index)}};
  }
  json operator()(const ls::Callout& callout) const {
    return {{"kind", "callout"},
            {"callout", callout_name(callout.kind)},
            {"title", runs_plain_text(callout.title)},
            {"text", runs_plain_text(callout.title)},
            {"title_runs", inline_runs(callout.title)},
            {"blocks", blocks_json(callout.blocks, widget_index)}};
  }
  json operator()(const ls::EquationBlock& eq) const {
    return {{"kind", "equation"},
            {"text", eq.root.empty() ? eq.latex : eq.root.plain()},
            {"latex", eq.latex},
            {"caption", runs_plain_text(eq.caption)},
            {"caption_runs", inline_runs(eq.caption)}};
  }
  json operator()(const ls::CodeBlock& code) const {
    json lines = json::array();
    std::string text;
    for (const ls::CodeLine& line : code.lines) {
      lines.push_back(line.text);
      if (!text.empty()) text += '\n';
      text += line.text;
    }
    return {{"kind", "code"},    {"language", code.language},
            {"file", code.file}, {"lines", std::move(lines)},
            {"text", text},      {"caption", runs_plain_text(code.caption)}};
  }

  // [SECTION] Widgets ---------------------------------------------------------------------------
  // Every widget kind the same way (widget_json below, through the registry); the page's
  // numbers come from the engine at run time (state().widgets).
  json operator()(const ls::WidgetBlock&) const {
    return json::object();  // block_json fills it in
  }
};

}  // namespace

json inline_runs(const ls::Inline& text) {
  json runs = json::array();
  for (const ls::Span& span : text) {
    std::string piece = span_text(span);
    if (piece.empty()) continue;
    json style = run_style(span);
    // Adjacent spans that look the same read as one run (md4c splits text at entities, etc.).
    if (!runs.empty() && span.kind != ls::Span::Kind::Break) {
      json& last = runs.back();
      json last_style = last;
      last_style.erase("text");
      if (last_style == style) {
        last["text"] = last["text"].get<std::string>() + piece;
        continue;
      }
    }
    style["text"] = std::move(piece);
    runs.push_back(std::move(style));
  }
  return runs;
}

std::string runs_plain_text(const ls::Inline& text) {
  std::string out;
  for (const ls::Span& span : text) out += span_text(span);
  return out;
}

// A widget block: its kind's title and what its author set up (the kind's registry entry says
// which settings), so the text version can label it before the first frame.
json widget_json(const ls::Block& block, const WidgetKind& kind, int& widget_index) {
  const ls::Inline* caption = ls::widget_caption(block.content);
  const std::string caption_text = caption ? runs_plain_text(*caption) : std::string();
  json out = {{"kind", "widget"},
              {"widget", kind.name()},
              {"widget_index", widget_index++},
              {"title", tr("widgets." + std::string(kind.name()) + ".title")},
              {"caption", caption_text},
              {"text", caption_text},
              {"summary", ""}};
  kind.describe(block, out);
  return out;
}

json block_json(const ls::Block& block, int& widget_index) {
  const WidgetKind* kind = find_widget_kind(ls::widget_kind_name(block.content));
  json out = kind ? widget_json(block, *kind, widget_index) : std::visit(BlockFields{widget_index}, block.content);
  if (!block.id.empty()) out["id"] = block.id;
  return out;
}

// [SECTION] The document ------------------------------------------------------------------------

json document_json(const ls::Lesson& lesson) {
  int widget_index = 0;  // counts across sections, in reading order
  json sections = json::array();
  json intro = blocks_json(lesson.intro, widget_index);
  for (const ls::Section& section : lesson.sections) {
    sections.push_back({{"anchor", section.anchor},
                        {"title", section.title},
                        {"level", ls::level_name(section.level)},
                        {"blocks", blocks_json(section.blocks, widget_index)}});
  }
  return {{"lesson", lesson.id},       {"title", lesson.title},     {"level", ls::level_name(lesson.level)},
          {"summary", lesson.summary}, {"intro", std::move(intro)}, {"sections", std::move(sections)}};
}

}  // namespace neuralpath::ui
