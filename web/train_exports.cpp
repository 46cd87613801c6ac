// train_exports.cpp: linked into the lesson engines that hold the train widget kind. The page's
// np-train.js calls np_train_in_workers(1) once it runs: from then on Train sends the training
// to the trainer worker (web/attention_trainer.cpp) instead of a slice of every frame. A page
// whose script did not load never calls it, and trains in its frames as before.
#include "engine/widgets/train/train_model.h"

#include <emscripten/emscripten.h>

extern "C" EMSCRIPTEN_KEEPALIVE void np_train_in_workers(int yes) {
  neuralpath::widgets::TrainModel::train_in_workers(yes != 0);
}
