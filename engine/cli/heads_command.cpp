// heads_command.cpp: `neuralpath-cli heads`, how the heads of a lesson's model divide the
// relations of one of its answer tasks (engine/core/head_stats.h says what is measured). No loss
// reads attention: these figures show what training made of it, never what it was told.
//
//   heads --lesson FILE [--task NAME]
//
// stdout: one JSON object. "trained" holds the figures for the lesson's own weights (for a
// lesson that ships trained weights, the trained model), "untrained" the same figures for the
// seeded starting point training begins from (the task's seed), so the two can be compared.
// Both are measured on the task's held-out sentences (all of them when it holds none out):
//   {"task", "heads", "relations": [...], "examples": [...],
//    "trained": {"mass": [[head][relation]], "best_head": [...], "coverage": [...],
//                "divergence_bits": x, "pair_divergence_bits": [[...]]},
//    "untrained": {...}}
#include "commands.h"
#include "json_io.h"

#include "engine/core/error.h"
#include "engine/core/head_stats.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"
#include "engine/widgets/widget_kinds.h"

#include <string>
#include <vector>

namespace neuralpath::cli {

namespace {

Json figures_json(const HeadSpecialisation& s) {
  Json mass = Json::array(), pairs = Json::array(), coverage = Json::array();
  for (const auto& head : s.mass) {
    Json row = Json::array();
    for (float m : head) row.push_back(number_json(m));
    mass.push_back(row);
  }
  for (const auto& head : s.pair_divergence) {
    Json row = Json::array();
    for (float d : head) row.push_back(number_json(d));
    pairs.push_back(row);
  }
  for (float c : s.coverage) coverage.push_back(number_json(c));
  return Json{{"mass", mass},
              {"best_head", s.best_head},
              {"coverage", coverage},
              {"divergence_bits", number_json(s.divergence)},
              {"pair_divergence_bits", pairs}};
}

}  // namespace

int run_heads(const std::vector<std::string>& args, std::string& stdout_text) {
  std::string lesson_path, task_id;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag != "--lesson" && flag != "--task")
      throw InputError("heads: unknown argument '" + flag + "' (expected --lesson, --task)");
    if (i + 1 >= args.size()) throw InputError("heads: " + flag + " needs a value");
    (flag == "--lesson" ? lesson_path : task_id) = args[++i];
  }
  if (lesson_path.empty()) throw InputError("heads: --lesson FILE is required");

  const lesson::LoadResult loaded = lesson::load_lesson_file(lesson_path, widgets::with_widgets());
  if (!loaded.ok())
    throw InputError(loaded.diagnostics.empty() ? lesson_path + ": the lesson could not be loaded"
                                                : loaded.diagnostics.front().to_string());
  const lesson::Lesson& l = *loaded.lesson;
  const lesson::TaskData* task = lesson::find_task(l, task_id);
  if (!task) throw InputError("heads: name a task of " + lesson_path + " with --task");
  if (task->objective != lesson::TaskObjective::answer)
    throw InputError("heads: task '" + task->id + "' is not an answer task (objective: answer)");

  const TrainingSet set = lesson::training_set(l, *task);
  const std::vector<Example>& measured = set.held_out.empty() ? set.train : set.held_out;
  const ModelSpec lesson_model = resolve_model(lesson::model_spec_for(l));
  const ModelSpec untrained = initial_model(lesson_model, task->seed);
  const HeadSpecialisation trained_figures = head_specialisation(lesson_model, measured, set.relations, set.objective);
  const HeadSpecialisation untrained_figures = head_specialisation(untrained, measured, set.relations, set.objective);

  stdout_text = Json{{"task", task->id},
                     {"heads", lesson_model.attention.heads},
                     {"relations", set.relations},
                     {"examples", trained_figures.examples},
                     {"trained", figures_json(trained_figures)},
                     {"untrained", figures_json(untrained_figures)}}
                    .dump(2) +
                "\n";
  return 0;
}

}  // namespace neuralpath::cli
