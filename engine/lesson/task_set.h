// task_set.h: a lesson's ```task blocks (task.h) as training examples, their checks, and the
// trained weights (applied to the lesson, or written as a ```weights block).
#pragma once

#include "engine/core/model.h"
#include "engine/core/training.h"
#include "engine/lesson/diagnostic.h"
#include "engine/lesson/lesson.h"
#include "engine/lesson/task.h"

#include <string>
#include <vector>

namespace neuralpath::lesson {

// The task with this id, or nullptr. An empty id picks the lesson's only task (nullptr when
// it has none or several).
const TaskData* find_task(const Lesson& lesson, const std::string& id);

// Every example the task generates, split into train and held-out. Throws InputError when a
// template cannot be filled (the checker reports those first).
neuralpath::TrainingSet training_set(const Lesson& lesson, const TaskData& task);

// The options the task asks for (steps, seed, learning rate, batch).
neuralpath::TrainOptions train_options(const TaskData& task);

// Problems in the lesson's tasks that need the vocabulary: undeclared or unused slots, words
// the vocabulary lacks, a query missing from a template, nothing left to train on, more
// than one task with `lesson-weights: trained`, and training that would take too long.
std::vector<Diagnostic> check_tasks(const Lesson& lesson);

// With a task marked `lesson-weights: trained`: puts its trained matrices into lesson.weights, so
// every widget runs on them — the lesson's ```trained-weights block when its fingerprint matches
// (a built site's copy: nothing to train), else trained now (deterministic). Returns how many
// steps ran (0 with shipped weights).
int apply_trained_weights(Lesson& lesson);

// The task marked `lesson-weights: trained`, or nullptr; and whether the lesson carries weights
// trained for its current data (a ```trained-weights block with a matching fingerprint).
const TaskData* lesson_weights_task(const Lesson& lesson);
bool shipped_weights_match(const Lesson& lesson, const TaskData& task);

// About how many floating-point operations training the task takes: per step, the batch's
// tokens (at the longest sentence) through the model forward and back (6 per model number per
// token) plus the attention's scores and blends. check_tasks refuses a task past
// kMaxTrainingFlops (limits.h); throws InputError when the model cannot be resolved.
double training_flops(const Lesson& lesson, const TaskData& task);

// A short hex digest of everything a task's trained weights depend on: the vocabulary, the model
// the lesson sets up, and the task. Weights shipped with another fingerprint are not used.
std::string weights_fingerprint(const Lesson& lesson, const TaskData& task);

// The ```trained-weights block for `trained` (the model the task trained): what
// `neuralpath-cli train --ship` writes and the web build appends to the site's copy of the lesson.
std::string trained_weights_block_text(const Lesson& lesson, const TaskData& task,
                                       const neuralpath::ModelSpec& trained);

// A model's trainable matrices as the body of a ```weights block (dense rows, numbers that read
// back as the same floats), keeping the lesson's other settings. `features` names the dimensions.
std::string weights_block_text(const neuralpath::ModelSpec& model, const std::vector<std::string>& features);

}  // namespace neuralpath::lesson
