// engine_loop.h: what code linked beside web/main.cpp may ask of its frame loop.
#pragma once

namespace neuralpath::web {

// Something changed that the canvas shows (a model's bytes arrived, say): the loop, asleep while
// nothing changes, draws frames again (main.cpp's idle gate).
void wake_engine();

}  // namespace neuralpath::web
