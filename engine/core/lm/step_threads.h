// step_threads.h: the threads a training step runs its parts on, kept from one step to the next.
//
// Starting a thread and joining it cost about 50 µs on this project's machines: 3% of a step of
// the page's small config on two threads. StepThreads starts its helpers once; each step hands
// them a job and waits until every one has run it. Inside a job, phase() waits until every
// thread has reached it (the trainer's three phases, trainer.cpp).
//
// WebAssembly without -pthread has no threads: there StepThreads has none, size() is 1, and the
// caller's thread runs every part, with the same sums in the same order.
#pragma once

#include <functional>
#include <memory>

namespace neuralpath::lm {

class StepThreads {
 public:
  // Up to `helpers` threads besides the caller's; fewer if the system has no more to give.
  explicit StepThreads(int helpers);
  ~StepThreads();  // stops and joins the helpers
  StepThreads(const StepThreads&) = delete;
  StepThreads& operator=(const StepThreads&) = delete;

  int size() const;  // the caller's thread and the helpers that started

  // job(i) on thread i for every i in [0, size()): 0 is the caller's. Returns once every job
  // has returned. A job must not throw: the others would wait in phase() for good, so an
  // exception ends the program instead, as one escaping a std::thread does.
  void run(const std::function<void(int)>& job);

  // Inside a job: waits until every thread's job has called phase() as often.
  void phase();

 private:
  struct Crew;  // the helpers and their barriers (none without threads)
  std::unique_ptr<Crew> crew_;
};

}  // namespace neuralpath::lm
