// trace_command.cpp: `neuralpath-cli trace`, the whole block on a sentence as JSON.
//
//   trace [--sentence TEXT] [--lesson FILE] [--mask causal|none] [--lang CODE] [--focus N] [--terms] [--pretty]
//
// Output (one JSON object; a -∞ masked score is null):
//   sentence, mask, model {source, d_model, heads, d_head, context_layers, features},
//   tokens [{text, key, position, known, begin, end}],
//   steps [{index, kind, title, layer, head, tokens, inputs [{name, rows, cols, values}],
//           result {...}, masked_cells [[i, j]], scalar, scalar_name, focus [i, j], narration,
//           terms (with --terms) [{cell [i, j], value, terms [[index, a, b]]}], term_a, term_b}],
//   attention {weights [H][T][T], context_weights [C][H][T][T]},
//   next_token {temperature, ranked [{word, probability, logit}]}
// Without --lesson the model is neuralpath::default_model_spec() (see engine/core/model.h).
// With --lesson, --sentence may be left out: the lesson's first widget sentence is traced.
// attention.weights holds every head of the shown layer ([H][T][T]).
#include "commands.h"
#include "json_io.h"
#include "lesson_hook.h"

#include "engine/trace/block_trace.h"
#include "engine/core/error.h"

#include <string>
#include <vector>

namespace neuralpath::cli {

namespace {

Json named_json(const NamedMatrix& m) {
  return {{"name", m.name}, {"rows", m.row_labels}, {"cols", m.col_labels}, {"values", matrix_json(m.values)}};
}

Json step_json(const Step& s, std::size_t index, bool with_terms) {
  Json j;
  j["index"] = index;
  j["kind"] = step_kind_name(s.kind);
  j["title"] = s.title;
  j["layer"] = s.layer;
  j["head"] = s.head;
  j["tokens"] = s.tokens;
  j["inputs"] = Json::array();
  for (const NamedMatrix& m : s.inputs) j["inputs"].push_back(named_json(m));
  j["result"] = named_json(s.result);
  j["masked_cells"] = Json::array();
  for (const Cell& c : s.masked_cells) j["masked_cells"].push_back({c.row, c.col});
  if (!s.scalar_name.empty()) {
    j["scalar"] = number_json(s.scalar);
    j["scalar_name"] = s.scalar_name;
  }
  j["focus"] = {s.focus.row, s.focus.col};
  j["narration"] = s.narration;
  if (with_terms && !s.cell_terms.empty()) {
    j["term_a"] = s.term_a;
    j["term_b"] = s.term_b;
    Json cells = Json::array();
    for (const CellTerms& c : s.cell_terms) {
      Json terms = Json::array();
      for (const Term& t : c.terms) terms.push_back({t.index, number_json(t.a), number_json(t.b)});
      cells.push_back({{"cell", {c.cell.row, c.cell.col}}, {"value", number_json(c.value)}, {"terms", terms}});
    }
    j["terms"] = std::move(cells);
  }
  return j;
}

Json trace_json(const Trace& t, const std::string& sentence, const std::string& source, bool with_terms) {
  Json j;
  j["sentence"] = sentence;
  j["mask"] = t.mask.name();
  j["model"] = {{"source", source},
                {"d_model", t.d_model},
                {"heads", t.heads},
                {"d_head", t.d_head},
                {"context_layers", t.context.size()},
                {"features", t.feature_labels}};
  j["focus_token"] = t.focus_token;
  j["tokens"] = Json::array();
  for (std::size_t i = 0; i < t.tokens.size(); ++i) {
    const Token& tok = t.tokens[i];
    j["tokens"].push_back({{"text", tok.text},
                           {"key", tok.key},
                           {"position", i},
                           {"known", bool(t.known[i])},
                           {"punctuation", tok.is_punctuation},
                           {"begin", tok.byte_begin},
                           {"end", tok.byte_end}});
  }
  j["steps"] = Json::array();
  for (std::size_t i = 0; i < t.steps.size(); ++i) j["steps"].push_back(step_json(t.steps[i], i, with_terms));
  Json weights = Json::array(), context = Json::array();
  for (const AttentionResult& h : t.attention.heads) weights.push_back(matrix_json(h.weights));
  for (const MultiHeadResult& layer : t.context) {
    Json heads = Json::array();
    for (const AttentionResult& h : layer.heads) heads.push_back(matrix_json(h.weights));
    context.push_back(std::move(heads));
  }
  j["attention"] = {{"weights", weights}, {"context_weights", context}};
  Json ranked = Json::array();
  for (const int v : t.next.ranking)
    ranked.push_back({{"word", t.next.words[static_cast<std::size_t>(v)]},
                      {"probability", number_json(t.next.probabilities(v))},
                      {"logit", number_json(t.next.logits(v))}});
  j["next_token"] = {{"temperature", number_json(t.next.temperature)}, {"ranked", ranked}};
  return j;
}

}  // namespace

int run_trace(const std::vector<std::string>& args, std::string& stdout_text) {
  std::string sentence, lesson_path, language = "en";
  bool have_sentence = false, with_terms = false, pretty = false;
  TraceOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw InputError("trace: " + a + " needs a value");
      return args[++i];
    };
    if (a == "--sentence") {
      sentence = value();
      have_sentence = true;
    } else if (a == "--mask")
      options.mask = parse_mask(value());
    else if (a == "--lesson")
      lesson_path = value();
    else if (a == "--lang")
      language = value();
    else if (a == "--focus") {
      const std::string& n = value();
      if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 6)
        throw InputError("trace: --focus needs a token index (0, 1, ...)");
      options.focus_token = std::stoi(n);
    } else if (a == "--terms")
      with_terms = true;
    else if (a == "--pretty")
      pretty = true;
    else
      throw InputError("trace: unknown option '" + a + "' (see neuralpath-cli help)");
  }
  if (!have_sentence && lesson_path.empty()) throw InputError("trace: --sentence TEXT is required");

  use_language_for_run(language, lesson_path);  // the narration's words and number format
  ModelSpec spec = default_model_spec();
  std::string source = "default";
  if (!lesson_path.empty()) {
    spec = model_spec_from_lesson_file(lesson_path);
    source = lesson_path;
    if (!have_sentence) {
      sentence = first_sentence_of_lesson_file(lesson_path);
      if (sentence.empty())
        throw InputError("trace: " + lesson_path + " has no widget sentence; give one with --sentence TEXT");
    }
  }
  const Trace trace = run_block(spec, sentence, options);
  stdout_text = trace_json(trace, sentence, source, with_terms).dump(pretty ? 2 : -1) + "\n";
  return 0;
}

}  // namespace neuralpath::cli
