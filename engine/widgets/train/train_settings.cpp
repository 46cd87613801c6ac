// train_settings.cpp: a ```train block's keys -> TrainSettings. Compiled into the lesson library
// (engine/lesson/CMakeLists.txt), so it may use the lesson's parser only.
#include "engine/lesson/parse_context.h"
#include "engine/ui/widgets/train/train_settings.h"

#include <cctype>

namespace neuralpath::lesson::detail {

std::shared_ptr<const WidgetSettings> parse_train_settings(WidgetFields& w) {
  auto t = std::make_shared<ui::TrainSettings>();
  t->task = w.fields.text("task", true).value_or("");
  t->query = w.fields.text("query", true).value_or("");
  for (char& c : t->query) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  t->sentence = w.sentence(t->query);  // the checker runs it and finds the query in it
  t->lesson_weights_trained = w.fields.flag("lesson-weights-trained", false);
  return t;
}

}  // namespace neuralpath::lesson::detail
