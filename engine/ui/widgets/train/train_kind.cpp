// train_kind.cpp: the train widget's registry entry (registry.h): its model (a TrainSession on
// the block's task) and view, and what the text version offers before the first frame.
#include "engine/core/catalogue.h"
#include "engine/lesson/task_set.h"
#include "engine/ui/widgets/model_view_widget.h"
#include "engine/ui/widgets/registry.h"
#include "engine/ui/widgets/train/train_view.h"

namespace neuralpath::ui {

using nlohmann::json;
using TrainWidget = ModelViewWidget<TrainModel, TrainView>;

namespace {

// The block's task as a session, or why there is none (a lesson the checker passed always has
// the task; a lesson loaded without checks may not).
TrainModel make_model(const TrainSettings& settings, const lesson::Inline& caption, const lesson::Lesson& lesson,
                      const ModelSpec& spec) {
  const lesson::TaskData* task = lesson::find_task(lesson, settings.task);
  if (!task) return TrainModel(settings, caption, std::nullopt, tr("train.no_task", {{"task", settings.task}}));
  try {
    return TrainModel(settings, caption,
                      TrainSession(spec, lesson::training_set(lesson, *task), lesson::train_options(*task),
                                   settings.sentence, settings.query),
                      {}, settings.lesson_weights_trained || task->lesson_weights);
  } catch (const std::exception& e) {
    return TrainModel(settings, caption, std::nullopt, e.what());
  }
}

}  // namespace

const WidgetKind& train_widget_kind() {
  static const WidgetKind kind = {
      TrainModel::kKind,
      [](const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec) -> std::unique_ptr<Widget> {
        const auto* settings = lesson::widget_settings<TrainSettings>(block);
        if (!settings) return nullptr;
        return std::make_unique<TrainWidget>(
            make_model(*settings, std::get<lesson::WidgetBlock>(block.content).caption, lesson, spec));
      },
      [](const lesson::Block& block, json& out) {
        const auto* t = lesson::widget_settings<TrainSettings>(block);
        if (!t) return;
        out["task"] = t->task;
        out["sentence"] = t->sentence;
        out["query"] = t->query;
        out["takes_sentence"] = true;  // try your own sentence
        const auto item = [](const char* label, json command, json when) {
          return json{{"label", tr(label)}, {"command", std::move(command)}, {"when", std::move(when)}};
        };
        out["choices"] = {
            {"label", tr("train.choices")},
            {"items",
             {item("train.train", {{"type", "train"}}, {{"running", true}}),
              item("train.pause", {{"type", "pause"}}, json::object()),
              item("train.reset", {{"type", "resetTraining"}}, json::object()),
              item("train.weights_run", {{"type", "useTrained"}, {"trained", true}}, {{"trained", true}}),
              item(t->lesson_weights_trained ? "train.weights_hand_set_built" : "train.weights_hand_set",
                   {{"type", "useTrained"}, {"trained", false}}, {{"trained", false}})}}};
      }};
  return kind;
}

}  // namespace neuralpath::ui
