// lesson_model_json.cpp: prints a lesson's code blocks, widget sentences and RESOLVED model (every
// seeded default filled in, exactly the numbers the engine runs) as JSON, so the lesson-code
// tests can run the lesson's PyTorch on the lesson's own model.
//
//   lesson-model-json lessons/course-playback.md
//
// Output: {lesson, code_blocks [{id, language, lines, steps {step: [line]}}],
//          playback {sentence, heads, causal, code} | null, sentences {mask_steps, heatmap, spotlight},
//          model {d_model, features, words {word: [d]}, vocabulary_order, positional_encoding,
//                 positional_scale, context [{heads, W_Q, W_K, W_V, W_O}], attention {...},
//                 feed_forward {enabled, W1, b1, W2, b2}, norm_attention {gamma, beta, eps},
//                 norm_feed_forward {...}, unembedding, temperature}}
// Matrices are lists of rows, in the engine's orientation (q = x · W_Q).
#include "engine/core/embedding.h"
#include "engine/core/model.h"
#include "engine/lesson/lesson.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/widgets/playback/playback_settings.h"
#include "engine/widgets/heatmap/heatmap_settings.h"
#include "engine/widgets/mask_steps/mask_steps_settings.h"
#include "engine/widgets/spotlight/spotlight_settings.h"
#include "engine/widgets/widget_kinds.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <type_traits>
#include <variant>

using Json = nlohmann::json;
using namespace neuralpath;

namespace {

Json matrix_json(const Matrix& m) {
  Json rows = Json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

Json vector_json(const Vector& v) {
  Json out = Json::array();
  for (Index i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

Json layer_json(const AttentionLayer& l) {
  return {{"heads", l.heads},
          {"W_Q", matrix_json(l.w_q)},
          {"W_K", matrix_json(l.w_k)},
          {"W_V", matrix_json(l.w_v)},
          {"W_O", matrix_json(l.w_o)}};
}

Json norm_json(const LayerNormParams& n) {
  return {{"gamma", vector_json(n.gamma)}, {"beta", vector_json(n.beta)}, {"eps", n.eps}};
}

Json model_json(const ModelSpec& unresolved) {
  const ModelSpec m = resolve_model(unresolved);
  Json j;
  j["d_model"] = m.d_model;
  j["features"] = m.vocabulary.feature_names;
  j["words"] = Json::object();
  j["vocabulary_order"] = Json::array();
  for (const auto& entry : m.vocabulary.words) {
    j["words"][entry.first] = vector_json(word_embedding(m.vocabulary, entry.first, m.d_model, m.seed));
    j["vocabulary_order"].push_back(entry.first);
  }
  j["positional_encoding"] = m.positional_encoding;
  j["positional_scale"] = m.positional_scale;
  j["context"] = Json::array();
  for (const AttentionLayer& l : m.context_layers) j["context"].push_back(layer_json(l));
  j["attention"] = layer_json(m.attention);
  j["feed_forward"] = {{"enabled", m.feed_forward.enabled},
                       {"W1", matrix_json(m.feed_forward.w1)},
                       {"b1", vector_json(m.feed_forward.b1)},
                       {"W2", matrix_json(m.feed_forward.w2)},
                       {"b2", vector_json(m.feed_forward.b2)}};
  j["norm_attention"] = norm_json(m.norm_attention);
  j["norm_feed_forward"] = norm_json(m.norm_feed_forward);
  j["unembedding"] = matrix_json(m.unembedding);
  j["temperature"] = m.temperature;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: lesson-model-json LESSON.md\n";
    return 2;
  }
  const lesson::LoadResult loaded = lesson::load_lesson_file(argv[1], neuralpath::widgets::with_widgets());
  if (!loaded.ok()) {
    for (const auto& d : loaded.diagnostics) std::cerr << d.to_string() << "\n";
    return 1;
  }
  const lesson::Lesson& l = *loaded.lesson;
  Json out;
  out["lesson"] = l.id;
  out["code_blocks"] = Json::array();
  out["playback"] = nullptr;
  out["sentences"] = {{"mask_steps", Json::array()}, {"heatmap", Json::array()}, {"spotlight", Json::array()}};
  out["corpus"] = Json::array();  // the next-word tasks' sentences: the code must take them too
  for (const auto& task : l.tasks)
    for (const auto& line : task.corpus) out["corpus"].push_back(line.text);
  lesson::for_each_block(l, [&](const lesson::Block& b) {
    std::visit(
        [&](const auto& c) {
          using T = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<T, lesson::CodeBlock>) {
            Json lines = Json::array(), steps = Json::object();
            for (const auto& line : c.lines) lines.push_back(line.text);
            for (const auto& s : c.steps) steps[s.step] = s.lines;
            out["code_blocks"].push_back({{"id", b.id}, {"language", c.language}, {"lines", lines}, {"steps", steps}});
          }
        },
        b.content);
    if (const auto* p = lesson::widget_settings<widgets::PlaybackSettings>(b))
      out["playback"] = {{"sentence", p->sentence}, {"heads", p->heads}, {"causal", p->causal}, {"code", p->code}};
    if (const auto* m = lesson::widget_settings<widgets::MaskStepsSettings>(b)) {
      out["sentences"]["mask_steps"].push_back({{"sentence", m->sentence}, {"causal", m->causal}});
    } else if (const auto* h = lesson::widget_settings<widgets::HeatmapSettings>(b)) {
      out["sentences"]["heatmap"].push_back({{"sentence", h->sentence}, {"causal", h->causal}});
    } else if (const auto* s = lesson::widget_settings<widgets::SpotlightSettings>(b)) {
      Json all = {s->sentence};
      for (const auto& a : s->alternatives) all.push_back(a);
      out["sentences"]["spotlight"].push_back({{"sentences", all}, {"query", s->query}});
    }
  });
  try {
    out["model"] = model_json(lesson::model_spec_for(l));
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": the engine rejects this lesson's model: " << e.what() << "\n";
    return 1;
  }
  std::cout << out.dump() << "\n";
  return 0;
}
