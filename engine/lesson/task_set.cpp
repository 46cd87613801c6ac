// task_set.cpp: tasks -> training examples, their checks, and trained weights for the lesson.
//
// [SECTION] Filling templates
// [SECTION] Training sets
// [SECTION] Checks
// [SECTION] Trained weights: into the lesson, or as a ```weights block
#include "engine/lesson/task_set.h"

#include "engine/core/embedding.h"
#include "engine/core/error.h"
#include "engine/core/tokenizer.h"
#include "engine/lesson/limits.h"
#include "engine/lesson/model_spec.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace neuralpath::lesson {

namespace {

constexpr std::size_t kMaxExamples = 50000;  // a task is a lesson's toy data, not a data set

// [SECTION] Filling templates ------------------------------------------------------------------

const TaskSlot* find_slot(const TaskData& task, const std::string& name) {
  for (const TaskSlot& s : task.slots)
    if (s.name == name) return &s;
  return nullptr;
}

// The words of a slot the template is known to use (parse_template only records declared slots).
const std::vector<std::string>& slot_words(const TaskData& task, const std::string& name) {
  if (const TaskSlot* slot = find_slot(task, name)) return slot->words;
  throw neuralpath::InputError("no slot " + name);
}

// One template, read once: its tokens and which of them are slots.
struct ParsedTemplate {
  std::vector<neuralpath::Token> tokens;
  std::vector<std::string> slot_of;  // per token: the slot name, or "" for a literal word
  std::vector<std::string> slots;    // distinct slot names, in order of appearance
};

ParsedTemplate parse_template(const TaskData& task, const TaskTemplate& t) {
  ParsedTemplate p;
  p.tokens = neuralpath::tokenize(t.text);
  for (const auto& token : p.tokens) {
    const bool slot = find_slot(task, token.text) != nullptr;
    p.slot_of.push_back(slot ? token.text : "");
    if (slot && std::find(p.slots.begin(), p.slots.end(), token.text) == p.slots.end()) p.slots.push_back(token.text);
  }
  return p;
}

// Where the template's query sits: the first token of its slot, or its first literal word; −1 if
// it has none.
int query_index(const TaskData& task, const TaskTemplate& t, const ParsedTemplate& p) {
  const std::string& query = t.query.empty() ? task.query : t.query;
  for (std::size_t i = 0; i < p.tokens.size(); ++i)
    if (p.slot_of[i].empty() ? p.tokens[i].key == query : p.slot_of[i] == query) return static_cast<int>(i);
  return -1;
}

std::size_t combinations(const TaskData& task, const ParsedTemplate& p) {
  std::size_t n = 1;
  for (const auto& name : p.slots) n = std::min(n * slot_words(task, name).size(), kMaxExamples + 1);
  return n;
}

// Calls visit(sentence, words) for every way of filling the template's slots, in a fixed order.
template <typename Visit>
void fill_template(const TaskData& task, const TaskTemplate& t, const ParsedTemplate& p, Visit visit) {
  std::vector<std::size_t> choice(p.slots.size(), 0);
  while (true) {
    std::map<std::string, std::string> words;
    for (std::size_t s = 0; s < p.slots.size(); ++s) words[p.slots[s]] = slot_words(task, p.slots[s])[choice[s]];
    std::string sentence = t.text;
    for (std::size_t i = p.tokens.size(); i-- > 0;)  // back to front: earlier offsets stay valid
      if (!p.slot_of[i].empty())
        sentence.replace(p.tokens[i].byte_begin, p.tokens[i].byte_end - p.tokens[i].byte_begin, words[p.slot_of[i]]);
    visit(sentence, words);
    std::size_t s = 0;  // next combination, like an odometer
    for (; s < choice.size(); ++s) {
      if (++choice[s] < slot_words(task, p.slots[s]).size()) break;
      choice[s] = 0;
    }
    if (s == choice.size()) return;
  }
}

// Held out or not depends only on the words used (not on the template or the seed), so a held-out
// combination is never seen in any template.
bool held_out(const TaskData& task, const std::map<std::string, std::string>& words) {
  std::vector<std::string> used;
  for (const auto& [slot, word] : words) used.push_back(word);
  std::sort(used.begin(), used.end());
  std::string key;
  for (const auto& w : used) key += w + "|";
  return static_cast<float>(neuralpath::fnv1a64(key) % 10000) < task.held_out * 10000.0f;
}

}  // namespace

const TaskData* find_task(const Lesson& lesson, const std::string& id) {
  if (id.empty()) return lesson.tasks.size() == 1 ? &lesson.tasks.front() : nullptr;
  for (const TaskData& t : lesson.tasks)
    if (t.id == id) return &t;
  return nullptr;
}

// [SECTION] Training sets ----------------------------------------------------------------------

neuralpath::TrainingSet training_set(const Lesson& lesson, const TaskData& task) {
  const neuralpath::Vocabulary vocabulary = model_spec_for(lesson).vocabulary;
  neuralpath::TrainingSet set;
  if (task.objective == TaskObjective::next_word) {
    set.objective = neuralpath::Objective::next_word;
    for (const CorpusLine& line : task.corpus)
      set.train.push_back(neuralpath::next_word_example(vocabulary, neuralpath::tokenize(line.text)));
    return set;
  }
  set.objective = neuralpath::Objective::answer;
  for (const TaskTemplate& t : task.templates) {
    const ParsedTemplate p = parse_template(task, t);
    const auto answer = std::find(p.slot_of.begin(), p.slot_of.end(), t.answer);
    const int query = query_index(task, t, p);
    if (answer == p.slot_of.end() || query < 0 || p.slot_of[static_cast<std::size_t>(query)] == t.answer)
      throw neuralpath::InputError("the template '" + t.text + "' needs the query word and its answer slot");
    const std::string relation = t.relation.empty() ? t.answer : t.relation;
    auto known = std::find(set.relations.begin(), set.relations.end(), relation);
    if (known == set.relations.end()) known = set.relations.insert(set.relations.end(), relation);
    const int relation_index = static_cast<int>(known - set.relations.begin());
    fill_template(task, t, p, [&](const std::string& sentence, const std::map<std::string, std::string>& words) {
      neuralpath::Example e;
      e.tokens = neuralpath::tokenize(sentence);
      if (e.tokens.size() != p.tokens.size())
        throw neuralpath::InputError("a slot word of '" + t.text + "' is not one token");
      e.query = query;
      e.answer = static_cast<int>(answer - p.slot_of.begin());
      e.relation = relation_index;
      (held_out(task, words) ? set.held_out : set.train).push_back(std::move(e));
    });
    if (set.train.size() + set.held_out.size() > kMaxExamples)
      throw neuralpath::InputError("the task makes more than " + std::to_string(kMaxExamples) + " sentences");
  }
  // One sentence and query with several answers (the verb's subject, object and manner): each
  // example leaves the others out of its candidates, so the output must name all of them.
  // Held-out is decided by the words alone, so such examples always share their side.
  for (std::vector<neuralpath::Example>* side : {&set.train, &set.held_out}) {
    std::map<std::string, std::vector<int>> answers;  // sentence + query -> its answers
    auto key = [](const neuralpath::Example& e) {
      std::string k = std::to_string(e.query) + ":";
      for (const auto& token : e.tokens) k += token.key + " ";
      return k;
    };
    for (const auto& e : *side) answers[key(e)].push_back(e.answer);
    for (auto& e : *side)
      for (const int a : answers[key(e)])
        if (a != e.answer) e.other_answers.push_back(a);
  }
  return set;
}

neuralpath::TrainOptions train_options(const TaskData& task) {
  neuralpath::TrainOptions o;
  o.steps = task.steps;
  o.seed = task.seed;
  o.batch = task.batch;
  o.adamw.learning_rate = task.learning_rate;
  o.parts = task.feed_forward_only ? neuralpath::TrainedParts::feed_forward : neuralpath::TrainedParts::all;
  return o;
}

// [SECTION] Checks -------------------------------------------------------------------------------

double training_flops(const Lesson& lesson, const TaskData& task) {
  const neuralpath::ModelSpec m = neuralpath::resolve_model(model_spec_for(lesson));
  // The longest sentence the task trains on, in tokens (a template's slots are one word each).
  std::size_t tokens = 1;
  try {
    for (const TaskTemplate& t : task.templates) tokens = std::max(tokens, neuralpath::tokenize(t.text).size());
    for (const CorpusLine& line : task.corpus) tokens = std::max(tokens, neuralpath::tokenize(line.text).size());
  } catch (const neuralpath::InputError&) {
    tokens = static_cast<std::size_t>(neuralpath::kMaxTokens);  // reported elsewhere; count the worst
  }
  const double T = static_cast<double>(tokens), d = static_cast<double>(m.d_model);
  const double layers = static_cast<double>(m.context_layers.size()) + 1.0;
  const double hidden = m.feed_forward.enabled ? static_cast<double>(m.feed_forward.hidden) : 0.0;
  const double words = static_cast<double>(m.vocabulary.words.size());
  // Model numbers a token passes through: each layer's W_Q, W_K, W_V, W_O, the feed-forward,
  // the next-word unembedding (V × d).
  const double numbers = layers * 4.0 * d * d + 2.0 * d * hidden + words * d;
  const double per_token = 6.0 * numbers + layers * 12.0 * T * d;  // + scores and blends, forward and back
  return static_cast<double>(task.steps) * static_cast<double>(task.batch) * T * per_token;
}

std::vector<Diagnostic> check_tasks(const Lesson& lesson) {
  std::vector<Diagnostic> out;
  auto error = [&](SourcePos pos, std::string message) { out.push_back({lesson.file, pos, std::move(message)}); };
  // A widget may name other blocks (a ```train widget names a task; tasks usually come after
  // it in the file), so the names can only be looked up once the whole lesson is read.
  for_each_block(lesson, [&](const Block& b) {
    if (const auto* w = std::get_if<WidgetBlock>(&b.content); w && w->settings)
      w->settings->check_references(lesson, b.pos, error);
  });
  if (lesson.tasks.empty()) return out;
  const neuralpath::Vocabulary vocabulary = model_spec_for(lesson).vocabulary;
  auto known = [&](const std::string& key) { return vocabulary.words.count(key) > 0; };
  auto check_words = [&](const std::string& text, SourcePos pos, const std::set<std::string>& slots) {
    try {
      for (const auto& token : neuralpath::tokenize(text))
        if (!slots.count(token.text) && !known(token.key))
          error(pos, "'" + token.text + "' is not in the lesson's vocabulary (add it to the vocabulary block)");
    } catch (const neuralpath::InputError& e) {
      error(pos, e.what());
    }
  };

  int trained = 0;
  for (const TaskData& task : lesson.tasks) {
    // A task a page may train at once (a shared link's training step, a lesson opened without
    // its shipped weights in the CLI): bounded, so `check`, `heads` and the page never hang.
    try {
      if (const double flops = training_flops(lesson, task); flops > kMaxTrainingFlops) {
        char shown[64];
        std::snprintf(shown, sizeof shown, "%.3g", flops);
        error(task.pos, std::string("training this task would take about ") + shown +
                            " floating-point operations; a task may take at most " +
                            std::to_string(static_cast<long long>(kMaxTrainingFlops)) +
                            " (fewer steps, a smaller batch or a smaller model)");
      }
    } catch (const neuralpath::InputError&) { /* the model's own problem, reported by check_with_engine */
    }
    if (task.lesson_weights && ++trained > 1)
      error(task.pos, "only one task can train the lesson's weights ('lesson-weights: trained')");
    if (task.lesson_weights && (!lesson.vocabulary || !lesson.weights))
      error(task.pos,
            "'lesson-weights: trained' needs the lesson's vocabulary and weights blocks (for the model's shape)");
    if (task.objective == TaskObjective::next_word) {
      for (const CorpusLine& line : task.corpus) check_words(line.text, line.pos, {});
      continue;
    }
    std::set<std::string> slot_names, used;
    for (const TaskSlot& slot : task.slots) {
      slot_names.insert(slot.name);
      for (const auto& w : slot.words) {
        const auto tokens = neuralpath::tokenize(w);
        if (tokens.size() != 1)
          error(slot.pos, "'" + w + "' in slot " + slot.name + " is not one word");
        else if (!known(tokens.front().key))
          error(slot.pos, "'" + w + "' in slot " + slot.name + " is not in the lesson's vocabulary");
      }
    }
    if (task.templates.empty()) error(task.pos, "the task needs at least one template");
    bool fillable = true;
    for (const TaskTemplate& t : task.templates) {
      check_words(t.text, t.pos, slot_names);
      ParsedTemplate p;
      try {
        p = parse_template(task, t);
      } catch (const neuralpath::InputError&) {
        fillable = false;
        continue;  // reported by check_words
      }
      used.insert(p.slots.begin(), p.slots.end());
      if (std::find(p.slot_of.begin(), p.slot_of.end(), t.answer) == p.slot_of.end()) {
        error(t.pos, "the answer '" + t.answer + "' is not a slot of this template");
        fillable = false;
      }
      const int query = query_index(task, t, p);
      if (query < 0) {
        error(t.pos,
              "the query word '" + (t.query.empty() ? task.query : t.query) + "' does not occur in this template");
        fillable = false;
      } else if (p.slot_of[static_cast<std::size_t>(query)] == t.answer) {
        error(t.pos, "the query and the answer are the same slot: a word cannot name itself");
        fillable = false;
      }
      if (combinations(task, p) > kMaxExamples) {
        error(t.pos, "this template makes more than " + std::to_string(kMaxExamples) + " sentences");
        fillable = false;
      }
    }
    for (const TaskSlot& slot : task.slots)
      if (!used.count(slot.name)) error(slot.pos, "slot " + slot.name + " is not used by any template");
    if (!fillable || !out.empty()) continue;
    try {
      const neuralpath::TrainingSet set = training_set(lesson, task);
      if (set.train.empty()) error(task.pos, "every sentence is held out: lower 'held-out'");
      if (task.held_out > 0.0f && set.held_out.empty())
        error(task.pos, "no word combination is held out: add words or raise 'held-out'");
    } catch (const neuralpath::InputError& e) {
      error(task.pos, e.what());
    }
  }
  return out;
}

// [SECTION] Trained weights: into the lesson, or as a ```weights block --------------------------

namespace {

std::string number(float x);  // below: 9 digits, reads back as the same float

Grid grid(const neuralpath::Matrix& m) {
  Grid g(static_cast<std::size_t>(m.rows()));
  for (Index r = 0; r < m.rows(); ++r)
    for (Index c = 0; c < m.cols(); ++c) g[static_cast<std::size_t>(r)].push_back(m(r, c));
  return g;
}

void set_layer(LayerData& layer, const neuralpath::AttentionLayer& trained) {
  layer.heads = trained.heads;
  layer.matrices = {{"W_Q", grid(trained.w_q), layer.pos},
                    {"W_K", grid(trained.w_k), layer.pos},
                    {"W_V", grid(trained.w_v), layer.pos},
                    {"W_O", grid(trained.w_o), layer.pos}};
}

}  // namespace

std::string weights_fingerprint(const Lesson& lesson, const TaskData& task) {
  // Everything the trained weights depend on, as text: the vocabulary, the model as the lesson
  // sets it up (shapes, the matrices training keeps, the seeded defaults), and the task.
  std::string data = "neuralpath trained weights 1\n";
  if (lesson.vocabulary) {
    for (const std::string& f : lesson.vocabulary->features) data += f + ",";
    for (const WordVector& w : lesson.vocabulary->words) {
      data += "\n" + w.word + ":";
      for (float v : w.values) data += number(v) + ",";
    }
  }
  std::vector<std::string> features = lesson.vocabulary ? lesson.vocabulary->features : std::vector<std::string>{};
  data += "\n" + weights_block_text(neuralpath::resolve_model(model_spec_for(lesson)), features);
  data += "task " + task.id + " " + std::to_string(static_cast<int>(task.objective)) + " " + task.query + "\n";
  for (const TaskTemplate& t : task.templates) data += t.text + " -> " + t.answer + "\n";
  for (const TaskSlot& slot : task.slots) {
    data += slot.name + ":";
    for (const std::string& w : slot.words) data += w + ",";
    data += "\n";
  }
  for (const CorpusLine& line : task.corpus) data += line.text + "\n";
  data += number(task.held_out) + " " + std::to_string(task.steps) + " " + std::to_string(task.seed) + " " +
          number(task.learning_rate) + " " + std::to_string(task.batch) + " " + (task.feed_forward_only ? "ff" : "all");
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (unsigned char c : data) hash = (hash ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::string trained_weights_block_text(const Lesson& lesson, const TaskData& task,
                                       const neuralpath::ModelSpec& trained) {
  const std::vector<std::string> features =
      lesson.vocabulary ? lesson.vocabulary->features : trained.vocabulary.feature_names;
  return "```trained-weights\n# Trained at build time by neuralpath-cli train (task '" + task.id + "', " +
         std::to_string(task.steps) + " steps, seed " + std::to_string(task.seed) +
         "); used instead of training when the lesson loads.\ntask: " + task.id +
         "\nfingerprint: " + weights_fingerprint(lesson, task) + "\n" + weights_block_text(trained, features) + "```\n";
}

const TaskData* lesson_weights_task(const Lesson& lesson) {
  const TaskData* task = nullptr;
  for (const TaskData& t : lesson.tasks)
    if (t.lesson_weights) task = &t;
  return task && lesson.weights ? task : nullptr;
}

bool shipped_weights_match(const Lesson& lesson, const TaskData& task) {
  return lesson.shipped_weights && lesson.shipped_weights->task == task.id &&
         lesson.shipped_weights->fingerprint == weights_fingerprint(lesson, task);
}

int apply_trained_weights(Lesson& lesson) {
  const TaskData* task = lesson_weights_task(lesson);
  if (!task) return 0;
  // Weights the build trained for this very data (the site's copy of the lesson): no training.
  if (shipped_weights_match(lesson, *task)) {
    lesson.weights = lesson.shipped_weights->weights;
    return 0;
  }
  neuralpath::Trainer trainer(model_spec_for(lesson), training_set(lesson, *task), train_options(*task));
  while (!trainer.finished()) trainer.step();
  const neuralpath::ModelSpec& m = trainer.model();
  WeightsData& w = *lesson.weights;
  w.d_model = m.d_model;
  for (std::size_t c = 0; c < m.context_layers.size(); ++c) set_layer(w.context[c], m.context_layers[c]);
  set_layer(w.attention, m.attention);
  w.hidden = m.feed_forward.hidden;
  w.feed_forward_matrices = {{"W1", grid(m.feed_forward.w1), w.pos},
                             {"b1", grid(m.feed_forward.b1.transpose()), w.pos},
                             {"W2", grid(m.feed_forward.w2), w.pos},
                             {"b2", grid(m.feed_forward.b2.transpose()), w.pos}};
  w.seed = m.seed;
  return trainer.steps_done();
}

namespace {

std::string number(float x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(x));  // 9 digits: reads back exactly
  return buffer;
}

void write_matrix(std::string& out, const std::string& indent, const std::string& name, const neuralpath::Matrix& m) {
  out += indent + name + ":\n";
  for (Index r = 0; r < m.rows(); ++r) {
    out += indent + "  - [";
    for (Index c = 0; c < m.cols(); ++c) out += (c ? ", " : "") + number(m(r, c));
    out += "]\n";
  }
}

void write_row(std::string& out, const std::string& indent, const std::string& name, const neuralpath::Vector& v) {
  out += indent + name + ": [";
  for (Index i = 0; i < v.size(); ++i) out += (i ? ", " : "") + number(v(i));
  out += "]\n";
}

void write_layer(std::string& out, const std::string& indent, const neuralpath::AttentionLayer& l) {
  write_matrix(out, indent, "W_Q", l.w_q);
  write_matrix(out, indent, "W_K", l.w_k);
  write_matrix(out, indent, "W_V", l.w_v);
  write_matrix(out, indent, "W_O", l.w_o);
}

}  // namespace

std::string weights_block_text(const neuralpath::ModelSpec& m, const std::vector<std::string>& features) {
  std::string out;
  out += "# dimensions: ";
  for (std::size_t i = 0; i < features.size(); ++i) out += (i ? ", " : "") + features[i];
  out += "\nd-model: " + std::to_string(m.d_model) + "\n";
  out += "positions: " + (m.positional_encoding ? number(m.positional_scale) : std::string("off")) + "\n";
  if (!m.context_layers.empty()) {
    out += "context:\n";
    for (const auto& l : m.context_layers) {
      out += "  - heads: " + std::to_string(l.heads) + "\n";
      write_layer(out, "    ", l);
    }
  }
  out += "attention:\n  heads: " + std::to_string(m.attention.heads) + "\n";
  write_layer(out, "  ", m.attention);
  if (m.feed_forward.enabled) {
    out += "feed-forward:\n  hidden: " + std::to_string(m.feed_forward.hidden) + "\n";
    write_matrix(out, "  ", "W1", m.feed_forward.w1);
    write_row(out, "  ", "b1", m.feed_forward.b1);
    write_matrix(out, "  ", "W2", m.feed_forward.w2);
    write_row(out, "  ", "b2", m.feed_forward.b2);
  } else {
    out += "feed-forward: off\n";
  }
  out += "temperature: " + number(m.temperature) + "\n";
  out += "seed: " + std::to_string(m.seed) + "\n";
  return out;
}

}  // namespace neuralpath::lesson
