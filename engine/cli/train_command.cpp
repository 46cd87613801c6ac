// train_command.cpp: `neuralpath-cli train`, a lesson's model trained on one of its tasks.
//
//   train --lesson FILE [--task NAME] [--steps N] [--seed S] [--out FILE] [--ship FILE]
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
// Same arguments, same output.
#include "commands.h"
#include "json_io.h"

#include "engine/core/error.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/lesson/task_set.h"

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
        throw InputError(flag + " needs a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                         ", not '" + value + "'");
    return v;
}

std::string task_list(const lesson::Lesson& l) {
    std::string ids;
    for (const auto& t : l.tasks) ids += (ids.empty() ? "" : ", ") + t.id;
    return ids.empty() ? "it has none" : "it has: " + ids;
}

}  // namespace

int run_train(const std::vector<std::string>& args, std::string& stdout_text) {
    std::string lesson_path, task_id, out_path, ship_path;
    std::optional<long long> steps, seed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& flag = args[i];
        if (flag != "--lesson" && flag != "--task" && flag != "--steps" && flag != "--seed" && flag != "--out" &&
            flag != "--ship")
            throw InputError("train: unknown argument '" + flag +
                             "' (expected --lesson, --task, --steps, --seed, --out, --ship)");
        if (i + 1 >= args.size()) throw InputError("train: " + flag + " needs a value");
        const std::string& value = args[++i];
        if (flag == "--lesson") lesson_path = value;
        else if (flag == "--task") task_id = value;
        else if (flag == "--out") out_path = value;
        else if (flag == "--ship") ship_path = value;
        else if (flag == "--steps") steps = integer_arg(flag, value, 0, 100000);
        else seed = integer_arg(flag, value, 0, 1LL << 53);
    }
    if (lesson_path.empty()) throw InputError("train: --lesson FILE is required");
    if (!ship_path.empty() && (steps || seed))
        throw InputError("train: --ship writes the weights the lesson's task makes; --steps and --seed would change them");

    // As written: a `lesson-weights: trained` task is trained here, not at load.
    const lesson::LoadResult loaded = lesson::load_lesson_file(lesson_path, {.lesson_weights = false});
    if (!loaded.ok())
        throw InputError(loaded.diagnostics.empty() ? lesson_path + ": the lesson could not be loaded"
                                                    : loaded.diagnostics.front().to_string());
    const lesson::Lesson& l = *loaded.lesson;
    const lesson::TaskData* task = lesson::find_task(l, task_id);
    if (!task && task_id.empty())
        for (const lesson::TaskData& t : l.tasks)
            if (t.lesson_weights) task = &t;
    if (!task)
        throw InputError(task_id.empty() ? "train: the lesson has " + std::to_string(l.tasks.size()) +
                                               " tasks; name one with --task (" + task_list(l) + ")"
                                         : "train: no task '" + task_id + "' in " + lesson_path + " (" + task_list(l) + ")");

    TrainOptions options = lesson::train_options(*task);
    if (steps) options.steps = static_cast<int>(*steps);
    if (seed) options.seed = static_cast<std::uint64_t>(*seed);
    Trainer trainer(lesson::model_spec_for(l), lesson::training_set(l, *task), options);

    const int log_every = std::max(1, options.steps / 20);
    auto log = [&] {
        const Evaluation e = trainer.evaluate_held_out();
        stdout_text += Json{{"step", trainer.steps_done()}, {"loss", number_json(e.loss)},
                            {"accuracy", number_json(e.accuracy)}}.dump() + "\n";
    };
    log();
    while (!trainer.finished()) {
        trainer.step();
        if (trainer.steps_done() % log_every == 0 || trainer.finished()) log();
    }

    if (!out_path.empty()) {
        const std::vector<std::string> features = l.vocabulary ? l.vocabulary->features : trainer.model().vocabulary.feature_names;
        std::ofstream out(out_path, std::ios::binary);
        out << "```weights\n# Trained by: neuralpath-cli train --lesson " << lesson_path << " --task " << task->id
            << " --steps " << options.steps << " --seed " << options.seed << "\n"
            << lesson::weights_block_text(trainer.model(), features) << "```\n";
        if (!out.flush()) throw InputError("train: cannot write '" + out_path + "'");
    }
    if (!ship_path.empty()) {
        std::ofstream out(ship_path, std::ios::binary);
        out << lesson::trained_weights_block_text(l, *task, trainer.model());
        if (!out.flush()) throw InputError("train: cannot write '" + ship_path + "'");
    }
    return 0;
}

}  // namespace neuralpath::cli
