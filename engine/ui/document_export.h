// document_export.h: a lesson as plain data for the accessible DOM mirror (web/shell/np-mirror.js).
//
// The canvas is one image to a screen reader; the mirror rebuilds the lesson as HTML text from
// this JSON. It carries what a reader needs and nothing the engine must keep to itself (which
// options are correct, per-option feedback: those reach the page only through state() once
// the learner has answered).
//
//   {"lesson": ID, "title", "level", "summary",
//    "intro":    [block...],                          blocks before the first section
//    "sections": [{"anchor", "title", "level", "blocks": [block...]}]}
//
//   every block       {"kind", "text", "id"?}         text = its readable plain text
//   paragraph         + "runs"                        inline runs, see below
//   heading           + "level" (3..6), "runs"
//   list              + "ordered", "start", "items": [[block...]]
//   quote             + "blocks"
//   rule
//   table             + "header": [cell], "rows": [[cell]], "align": ["left"|"center"|...]
//   check             + "question", "runs", "multiple", "options": [{"text","runs"}],
//                       "hint", "hint_runs"           (no answer key)
//   reveal            + "label", "runs", "blocks"
//   callout           + "callout": "tip"|"mistake"|"note", "title", "blocks"
//   equation          + "latex", "caption"            text = EqNode::plain()
//   code              + "language", "file", "lines": [string], "caption"
//   widget            + "widget": its kind's name (widgets/registry.h), "title" (the kind's name
//                       for readers), "widget_index" (reading order among widgets), "caption",
//                       "summary": "" (the mirror fills it live from state().widgets), what the
//                       widget is set up with (sentence, query, alternatives, causal, stages, ...)
//                       and, from the kind's entry:
//                         "takes_sentence": true      offer "Try your own sentence"
//                         "transport": true           offer play / pause / step (playback)
//                         "choices": {"label", "items": [{"label", "command", "when"}]}
//                                                      buttons for the canvas's choices; a button
//                                                      is pressed while every "when" key equals
//                                                      the widget's state()
//
//   a run             {"text"} + any of "bold", "italic", "strike", "code", "math", "break"
//                     (true) and "link" (the target); math text is the equation's plain form
#pragma once

#include "engine/lesson/lesson.h"

#include <nlohmann/json.hpp>

namespace neuralpath::ui {

nlohmann::json document_json(const lesson::Lesson& lesson);

// The pieces, for callers that mirror one thing (and for tests).
nlohmann::json inline_runs(const lesson::Inline& text);   // [run...], adjacent equal styles merged
std::string runs_plain_text(const lesson::Inline& text);  // what the runs read as, joined
nlohmann::json block_json(const lesson::Block& block, int& widget_index);

}  // namespace neuralpath::ui
