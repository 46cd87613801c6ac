// train_settings.h: what a ```train block sets up (no ImGui; the lesson parser builds it with
// parse_train_settings, its folder is its kind (engine/widgets/widget_kinds.h)).
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
// The task is looked up once the whole lesson is read (check_references, called by check_tasks), because
// task blocks usually sit at the end of the file, after the widget.
#pragma once

#include "engine/lesson/parser.h"

#include <memory>
#include <string>

namespace neuralpath::widgets {

struct TrainSettings : lesson::WidgetSettings {
  void read(lesson::detail::WidgetFields& fields);  // the block's keys (train_settings.cpp)
  std::string task;                                 // a ```task block's id
  std::string sentence;                             // the probe sentence whose spotlight the widget shows
  std::string query;                                // lower case, as the tokenizer keys words
  bool lesson_weights_trained = false;

  // The task, looked up once the whole lesson is read (no task block of that id: an error).
  void check_references(const lesson::Lesson& lesson, lesson::SourcePos block, const Report& error) const override;
};

}  // namespace neuralpath::widgets
