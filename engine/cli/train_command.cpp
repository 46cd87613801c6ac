// train_command.cpp: `neuralpath-cli train`, a lesson's model trained on one of its tasks.
//
//   train --lesson FILE [--task NAME] [--steps N] [--seed S] [--out FILE] [--ship FILE] [--lang CODE]
//
// stdout: one JSON line per logged step, {"step": N, "loss": L, "accuracy": A}, from step 0
// (before training) to the last, about twenty lines in all. loss and accuracy are measured on
// the task's held-out sentences (the training sentences when it has none; see
// engine/core/training.h for what accuracy counts). With --out, the trained weights are written
// to FILE as a ```weights block the lesson can use as it is. With --ship, they are written as a
// ```trained-weights block (the task and the fingerprint of the lesson's data, task_set.h) that
// the web build appends to the site's copy of the lesson, so the page loads them instead of
// training (--steps and --seed are refused with --ship: the page would not use such weights).
// Without --task, the task marked `lesson-weights: trained` is trained if there is one.
// Same arguments, same output. --lang CODE: the words train prints (its refusals on stderr, the
// --out block's comment) in that language's catalogue ([train] cli_*, as `trace --lang`); an
// unknown language is refused like any bad argument. The lesson's own diagnostics stay the parser's.
#include "commands.h"
#include "json_io.h"

#include "lesson_hook.h"

#include "engine/text/catalogue.h"
#include "engine/core/error.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"
#include "engine/widgets/widget_kinds.h"

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::cli {

namespace {

long long integer_arg(const std::string& flag, const std::string& value, long long min, long long max) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || v < min || v > max)
    throw InputError(
        tr("train.cli_whole_number",
           {{"flag", flag}, {"min", std::to_string(min)}, {"max", std::to_string(max)}, {"value", value}}));
  return v;
}

std::string task_list(const lesson::Lesson& l) {
  std::string ids;
  for (const auto& t : l.tasks) ids += (ids.empty() ? "" : ", ") + t.id;
  return ids.empty() ? tr("train.cli_tasks_none") : tr("train.cli_tasks_some", {{"tasks", ids}});
}

// A flag's value before the arguments are read in order: --lang comes first, so that every
// later refusal is already in the language asked for.
std::optional<std::string> value_of(const std::vector<std::string>& args, const char* flag) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == flag) return args[i + 1];
  return std::nullopt;
}

}  // namespace

int run_train(const std::vector<std::string>& args, std::string& stdout_text) {
  std::string lesson_path, task_id, out_path, ship_path;
  std::optional<long long> steps, seed;
  use_language_for_run(value_of(args, "--lang").value_or("en"), value_of(args, "--lesson").value_or(""));
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag != "--lesson" && flag != "--task" && flag != "--steps" && flag != "--seed" && flag != "--out" &&
        flag != "--ship" && flag != "--lang")
      throw InputError(tr("train.cli_unknown", {{"flag", flag}}));
    if (i + 1 >= args.size()) throw InputError(tr("train.cli_needs_value", {{"flag", flag}}));
    const std::string& value = args[++i];
    if (flag == "--lesson")
      lesson_path = value;
    else if (flag == "--task")
      task_id = value;
    else if (flag == "--out")
      out_path = value;
    else if (flag == "--ship")
      ship_path = value;
    else if (flag == "--steps")
      steps = integer_arg(flag, value, 0, 100000);
    else if (flag == "--seed")
      seed = integer_arg(flag, value, 0, 1LL << 53);
  }
  if (lesson_path.empty()) throw InputError(tr("train.cli_needs_lesson"));
  if (!ship_path.empty() && (steps || seed)) throw InputError(tr("train.cli_ship_fixed"));

  // As written: a `lesson-weights: trained` task is trained here, not at load.
  const lesson::LoadResult loaded =
      lesson::load_lesson_file(lesson_path, widgets::with_widgets({.lesson_weights = false}));
  if (!loaded.ok())
    throw InputError(loaded.diagnostics.empty() ? lesson_path + ": the lesson could not be loaded"
                                                : loaded.diagnostics.front().to_string());
  const lesson::Lesson& l = *loaded.lesson;
  const lesson::TaskData* task = lesson::find_task(l, task_id);
  if (!task && task_id.empty())
    for (const lesson::TaskData& t : l.tasks)
      if (t.lesson_weights) task = &t;
  if (!task)
    throw InputError(
        task_id.empty()
            ? tr("train.cli_name_a_task", {{"count", std::to_string(l.tasks.size())}, {"tasks", task_list(l)}})
            : tr("train.cli_no_task", {{"task", task_id}, {"lesson", lesson_path}, {"tasks", task_list(l)}}));

  TrainOptions options = lesson::train_options(*task);
  if (steps) options.steps = static_cast<int>(*steps);
  if (seed) options.seed = static_cast<std::uint64_t>(*seed);
  Trainer trainer(lesson::model_spec_for(l), lesson::training_set(l, *task), options);

  const int log_every = std::max(1, options.steps / 20);
  auto log = [&] {
    const Evaluation e = trainer.evaluate_held_out();
    stdout_text +=
        Json{{"step", trainer.steps_done()}, {"loss", number_json(e.loss)}, {"accuracy", number_json(e.accuracy)}}
            .dump() +
        "\n";
  };
  log();
  while (!trainer.finished()) {
    trainer.step();
    if (trainer.steps_done() % log_every == 0 || trainer.finished()) log();
  }

  if (!out_path.empty()) {
    const std::vector<std::string> features =
        l.vocabulary ? l.vocabulary->features : trainer.model().vocabulary.feature_names;
    std::ofstream out(out_path, std::ios::binary);
    const std::string how = "neuralpath-cli train --lesson " + lesson_path + " --task " + task->id + " --steps " +
                            std::to_string(options.steps) + " --seed " + std::to_string(options.seed);
    out << "```weights\n# " << tr("train.cli_trained_by", {{"command", how}}) << "\n"
        << lesson::weights_block_text(trainer.model(), features) << "```\n";
    if (!out.flush()) throw InputError(tr("train.cli_cannot_write", {{"file", out_path}}));
  }
  if (!ship_path.empty()) {
    std::ofstream out(ship_path, std::ios::binary);
    out << lesson::trained_weights_block_text(l, *task, trainer.model());
    if (!out.flush()) throw InputError(tr("train.cli_cannot_write", {{"file", ship_path}}));
  }
  return 0;
}

}  // namespace neuralpath::cli
