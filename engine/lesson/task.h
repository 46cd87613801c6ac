// task.h: ```task blocks: what a lesson's model can be trained on, written as lesson content.
//
// A task never appears on the page by itself; the train widget and `neuralpath-cli train` use
// it, and with `lesson-weights: trained` the lesson's widgets run on the weights it trains.
// Two objectives (engine/core/training.h), both with the loss on the model's output only:
//   answer     sentences from templates whose SLOTS (upper-case names) are filled from word
//              lists; the query word's OUTPUT must name the word in the `answer` slot among the
//              sentence's words. Nothing says where any head should look. Every combination of
//              words is an example; a seeded share of the combinations is held out (never
//              trained on, the same words in every template) to measure accuracy.
//   next-word  a corpus of short sentences, one per line after `---`; every word predicts the
//              next one.
// The format is documented in docs/lesson-format.md ("task"); task_set.h turns a task into
// training examples and trains it.
#pragma once

#include "engine/lesson/diagnostic.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace neuralpath::lesson {

enum class TaskObjective { answer, next_word };

struct TaskTemplate {
  std::string text;      // "The ANIMAL didn't cross the PLACE because it was too TIRED."
  std::string answer;    // the slot the query's output must name ("ANIMAL")
  std::string query;     // the word or slot that looks; empty: the task's `query`
  std::string relation;  // a name for what the pointing means ("subject"); empty:
                         // the answer slot's name
  SourcePos pos;
};

struct TaskSlot {
  std::string name;                // upper-case letters, digits and _
  std::vector<std::string> words;  // vocabulary words, one token each
  SourcePos pos;
};

struct CorpusLine {
  std::string text;
  SourcePos pos;
};

struct TaskData {
  std::string id;
  TaskObjective objective = TaskObjective::next_word;
  std::string query;                    // answer: the word that must name it ("it"), unless
                                        // a template names its own
  std::vector<TaskTemplate> templates;  // answer
  std::vector<TaskSlot> slots;          // answer
  float held_out = 0.25f;               // answer: share of word combinations held out
  std::vector<CorpusLine> corpus;       // next-word
  int steps = 300;
  std::uint64_t seed = 1;
  float learning_rate = 0.003f;
  int batch = 8;
  bool lesson_weights = false;     // widgets run on the trained weights
  SourcePos lesson_weights_pos;    // where `lesson-weights: trained` is written
  bool feed_forward_only = false;  // `trains: feed-forward`: attention stays hand-set
  SourcePos pos;
};

}  // namespace neuralpath::lesson
