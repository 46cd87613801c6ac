// train_settings.cpp: a ```train block's keys -> TrainSettings. Part of the widget library;
// reads its keys with the lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/lesson/task_set.h"
#include "engine/widgets/train/train_model.h"
#include "engine/widgets/train/train_settings.h"

#include <cctype>

namespace neuralpath::widgets {

void TrainSettings::read(lesson::detail::WidgetFields& w) {
  task = w.fields.text("task", true).value_or("");
  query = w.fields.text("query", true).value_or("");
  for (char& c : query) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  sentence = w.sentence(TrainModel::kMaxTokens, query);  // the checker runs it and finds the query in it
  lesson_weights_trained = w.fields.flag("lesson-weights-trained", false);
}

void TrainSettings::check_references(const lesson::Lesson& lesson, lesson::SourcePos block, const Report& error) const {
  if (!lesson::find_task(lesson, task))
    error(block, "the train widget names task '" + task + "', but no task block has that id");
}

}  // namespace neuralpath::widgets
