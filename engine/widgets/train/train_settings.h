// train_settings.h: what a ```train block sets up (no ImGui; the lesson parser builds it with
// parse_train_settings, listed in engine/lesson/widget_kinds.h).
//
//   ```train
//   task: pronoun                     the id of a ```task block in the same lesson (task.h)
//   sentence: The dog didn't cross the river because it was too tired.
//   query: it                         the word whose spotlight follows the training
//   lesson-weights-trained: yes       the lesson's own weights were trained, not set by hand (the
//                                     switch says so; implied by a `lesson-weights: trained` task)
//   caption: ...
//   ```
//
// The task is looked up once the whole lesson is read (check_tasks in task_set.cpp), because
// task blocks usually sit at the end of the file, after the widget.
#pragma once

#include "engine/lesson/lesson.h"

#include <string>

namespace neuralpath::ui {

struct TrainSettings : lesson::WidgetSettings {
  std::string task;      // a ```task block's id
  std::string sentence;  // the probe sentence whose spotlight the widget shows
  std::string query;     // lower case, as the tokenizer keys words
  bool lesson_weights_trained = false;
};

}  // namespace neuralpath::ui
