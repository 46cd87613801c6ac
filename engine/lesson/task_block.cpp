// task_block.cpp: the ```task block, from its settings (and corpus lines) to a TaskData.
// Format checks only; check_tasks() (task_set.cpp) checks the words against the vocabulary.
#include "engine/lesson/parse_context.h"
#include "engine/lesson/task.h"

#include <algorithm>
#include <cctype>

namespace neuralpath::lesson::detail {

namespace {

bool valid_slot_name(std::string_view s) {
  if (s.empty() || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::optional<float> number_setting(ParseContext& ctx, Fields& f, const char* key, float min, float max) {
  auto s = f.source(key, false);
  if (!s) return std::nullopt;
  auto v = parse_number(s->text());
  if (!v || *v < min || *v > max) {
    ctx.error(s->origin(0), std::string("'") + key + "' should be a number from " + std::to_string(min).substr(0, 5) +
                                " to " + std::to_string(max).substr(0, 5));
    return std::nullopt;
  }
  return v;
}

}  // namespace

void build_task(ParseContext& ctx, const Fence& fence, Nesting nesting, const SettingsNode& settings,
                const SourceText& text) {
  if (nesting != Nesting::Document) {
    ctx.error(fence.kind_origin, "the task block belongs at the top level of the lesson");
    return;
  }
  Fields f(ctx, settings, "task", fence.kind_origin);
  TaskData t;
  t.pos = ctx.pos(fence.kind_origin);
  if (auto id = f.source("id", true)) {
    t.id = id->text();
    ctx.ids.push_back({t.id, id->origin(0)});
  }
  bool objective_known = false;  // an unknown one: no follow-up errors about its settings
  if (auto objective = f.source("objective", true)) {
    objective_known = objective->text() == "answer" || objective->text() == "next-word";
    if (objective->text() == "answer")
      t.objective = TaskObjective::answer;
    else if (objective->text() == "next-word")
      t.objective = TaskObjective::next_word;
    else if (objective->text() == "point") {  // the old attention loss: refused with its reason, and
      t.objective = TaskObjective::answer;    // read as an answer task so its keys raise nothing else
      ctx.error(objective->origin(0),
                "'objective: point' is no longer accepted: it put the loss on the attention "
                "weights, which tells the model where to look; write 'objective: answer' "
                "(the query's output must name the answer word) and let attention find its own way");
    } else
      ctx.error(objective->origin(0), "'objective' should be answer or next-word, not '" + objective->text() + "'");
  }
  const bool answer = t.objective == TaskObjective::answer;

  if (answer) {
    t.query = f.text("query", false).value_or("");
    for (char& c : t.query) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (const SettingsNode* words = f.map("words", true))
      for (const auto& e : words->entries) {
        TaskSlot slot{e.key, {}, ctx.pos(e.key_origin)};
        if (!valid_slot_name(e.key))
          ctx.error(e.key_origin, "a slot name is written in capitals, such as ANIMAL or PLACE_ADJ");
        if (e.value.kind != SettingsNode::Kind::List || e.value.items.empty()) {
          ctx.error(e.value.origin, "slot " + e.key + " needs a list of words, such as [cat, dog]");
          continue;
        }
        for (const auto& item : e.value.items) {
          if (item.kind != SettingsNode::Kind::Text) {
            ctx.error(item.origin, "a slot's words are plain words");
            continue;
          }
          slot.words.push_back(item.text.text());
        }
        t.slots.push_back(std::move(slot));
      }
    if (const SettingsNode* templates = f.list("templates", true))
      for (const auto& item : templates->items) {
        if (item.kind != SettingsNode::Kind::Map) {
          ctx.error(item.origin, "each template is a map with 'text:' and 'answer:'");
          continue;
        }
        Fields tf(ctx, item, "template", item.origin);
        TaskTemplate tt;
        tt.pos = ctx.pos(item.origin);
        tt.text = tf.text("text", true).value_or("");
        tt.answer = tf.text("answer", true).value_or("");
        if (auto q = tf.source("query", false)) {
          tt.query = q->text();
          if (!valid_slot_name(tt.query))  // a word, not a slot: compared with tokens' keys
            for (char& c : tt.query) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        tt.relation = tf.text("relation", false).value_or("");
        if (tt.query.empty() && t.query.empty())
          ctx.error(item.origin, "the template needs a 'query:' (or the task one for every template)");
        tf.finish();
        t.templates.push_back(std::move(tt));
      }
    if (auto h = number_setting(ctx, f, "held-out", 0.0f, 0.9f)) t.held_out = *h;
    if (auto credit = f.source("credit", false))  // it chose how the attention loss credited heads
      ctx.error(credit->origin(0),
                "'credit' is no longer accepted: it chose which head an attention loss rewarded, "
                "and no loss reads attention now; remove the line");
    if (!text.trimmed().empty())
      ctx.error(fence.kind_origin, "an answer task has no corpus: remove the text after '---'");
  } else {
    const std::string& s = text.text();
    std::size_t pos = 0;
    while (pos < s.size()) {
      std::size_t nl = s.find('\n', pos);
      if (nl == std::string::npos) nl = s.size();
      const SourceText line = text.slice(pos, nl).trimmed();
      if (!line.empty() && line.text()[0] != '#') t.corpus.push_back({line.text(), ctx.pos(line.origin(0))});
      pos = nl + 1;
    }
    if (t.corpus.empty() && objective_known)
      ctx.error(fence.kind_origin, "a next-word task needs its corpus: one sentence per line after a '---' line");
  }
  t.steps = static_cast<int>(f.integer("steps", t.steps, 0, 100000).value_or(t.steps));
  t.seed = static_cast<std::uint64_t>(f.integer("seed", 1, 0, 1LL << 53).value_or(1));
  t.batch = static_cast<int>(f.integer("batch", t.batch, 1, 1024).value_or(t.batch));
  if (auto lr = number_setting(ctx, f, "learning-rate", 1e-6f, 1.0f)) t.learning_rate = *lr;
  if (auto parts = f.source("trains", false)) {
    if (parts->text() == "feed-forward")
      t.feed_forward_only = true;
    else if (parts->text() != "all")
      ctx.error(parts->origin(0), "'trains' should be all or feed-forward, not '" + parts->text() + "'");
  }
  if (auto w = f.source("lesson-weights", false)) {
    if (w->text() == "trained") {
      t.lesson_weights = true;
      t.lesson_weights_pos = ctx.pos(w->origin(0));
    } else if (w->text() != "hand-set")
      ctx.error(w->origin(0), "'lesson-weights' should be trained or hand-set, not '" + w->text() + "'");
  }
  f.finish();
  ctx.lesson->tasks.push_back(std::move(t));
}

// [SECTION] ```trained-weights ---------------------------------------------------------------------
// What `neuralpath-cli train --ship` writes and the build appends to the site's copy of a lesson:
// a weights block plus the task it was trained on and the fingerprint of the lesson's data then.
//
//   ```trained-weights
//   task: next-word
//   fingerprint: 3f9c0a71d2e4b856
//   positions: 0.1
//   ...every key of a weights block
//   ```

void keep_trained_weights(ParseContext& ctx, const Fence& fence, Nesting nesting, SettingsNode settings) {
  if (nesting != Nesting::Document) {
    ctx.error(fence.kind_origin, "the trained-weights block belongs at the top level of the lesson");
    return;
  }
  if (ctx.trained_weights_settings) {
    ctx.error(fence.kind_origin, "a lesson has at most one trained-weights block");
    return;
  }
  ctx.trained_weights_settings = std::move(settings);
  ctx.trained_weights_origin = fence.kind_origin;
}

void build_trained_weights(ParseContext& ctx) {
  const SettingsNode& node = *ctx.trained_weights_settings;
  const std::size_t origin = ctx.trained_weights_origin;
  ShippedWeights shipped;
  shipped.pos = ctx.pos(origin);
  for (auto [key, out] : {std::pair{"task", &shipped.task}, std::pair{"fingerprint", &shipped.fingerprint}}) {
    const SettingsNode* value = node.find(key);
    if (!value || value->kind != SettingsNode::Kind::Text || value->text.text().empty())
      ctx.error(value ? value->origin : origin, std::string("a trained-weights block needs '") + key + ":'");
    else
      *out = value->text.text();
  }
  shipped.weights = read_weights(ctx, node, origin, "trained-weights", {"task", "fingerprint"});
  ctx.lesson->shipped_weights = std::move(shipped);
}

}  // namespace neuralpath::lesson::detail
