// model_support.cpp: the launch lessons the widget model suites read, each loaded once, and the
// shelf of language models the generate and kv-cache suites start from.
#include "model_support.h"
#include "test_models.h"

#include "engine/core/lm/model_file.h"
#include "engine/lesson/task_set.h"
#include "engine/widgets/language_models.h"

#include <map>

namespace model_test {

const lesson::Lesson& lesson_named(const std::string& id) {
  static std::map<std::string, lesson::Lesson> loaded;
  if (auto it = loaded.find(id); it != loaded.end()) return it->second;
  lesson::LoadResult r = lesson::load_lesson_file("lessons/" + id + ".md", with_widgets());
  REQUIRE_MESSAGE(r.ok(), lesson::format_diagnostics(r.diagnostics));
  return loaded.emplace(id, std::move(*r.lesson)).first->second;
}

TrainModel train_model_of(const std::string& lesson_id, const char* block_id, std::function<double()> now_ms) {
  const lesson::Lesson& l = lesson_named(lesson_id);
  const auto& settings = block_settings<TrainSettings>(lesson_id, block_id);
  const lesson::TaskData* task = lesson::find_task(l, settings.task);
  REQUIRE(task != nullptr);
  return TrainModel(settings, {},
                    TrainSession(lesson::model_spec_for(l), lesson::training_set(l, *task),
                                 lesson::train_options(*task), settings.sentence, settings.query, std::move(now_ms)));
}

const ModelSpec& spec_of(const std::string& id) {
  static std::map<std::string, ModelSpec> specs;
  if (auto it = specs.find(id); it != specs.end()) return it->second;
  return specs.emplace(id, lesson::model_spec_for(lesson_named(id))).first->second;
}

const lm::LmModel& shelf_test_model() {
  static const lm::LmModel m = lm::test::scaled_model(3.0f);
  return m;
}

void fresh_shelf(bool with_model) {
  LanguageModels::shared().forget();
  if (with_model) {
    LanguageModels::shared().want("test-model");
    LanguageModels::shared().arrived("test-model", lm::model_file_bytes(shelf_test_model()));
  }
}

}  // namespace model_test
