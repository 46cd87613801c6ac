// step_threads.cpp: helpers started once, a job per step, barriers between (step_threads.h).
#include "engine/core/lm/step_threads.h"

#include <algorithm>
#include <vector>

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define NP_LM_THREADS 0
#else
#define NP_LM_THREADS 1
#include <barrier>  // libc++ built without threads refuses this header
#include <system_error>
#include <thread>
#endif

namespace neuralpath::lm {

#if NP_LM_THREADS

struct StepThreads::Crew {
  // Three barriers, each crossed by every thread: `start` hands out a job (or the order to stop),
  // `done` waits for every job to end, `phase` is the jobs' own.
  std::barrier<> start, done, phase;
  const std::function<void(int)>* job = nullptr;  // written before `start`, read after it
  bool stopping = false;
  std::vector<std::thread> helpers;

  explicit Crew(int threads) : start(threads), done(threads), phase(threads) {}

  void run_job(int index) noexcept { (*job)(index); }  // a throw ends the program (step_threads.h)
  void serve(int index) {
    for (;;) {
      start.arrive_and_wait();
      if (stopping) return;
      run_job(index);
      done.arrive_and_wait();
    }
  }
};

StepThreads::StepThreads(int helpers) {
  // A crew sized for every helper asked for; one that cannot be started leaves its seat in all
  // three barriers (arrive_and_drop), before any thread waits on them.
  crew_ = std::make_unique<Crew>(1 + std::max(helpers, 0));
  for (int i = 1; i <= helpers; ++i) {
    try {
      crew_->helpers.emplace_back([crew = crew_.get(), i] { crew->serve(i); });
    } catch (const std::system_error&) {
      for (int missing = i; missing <= helpers; ++missing) {
        crew_->start.arrive_and_drop();
        crew_->done.arrive_and_drop();
        crew_->phase.arrive_and_drop();
      }
      break;
    }
  }
}

StepThreads::~StepThreads() {
  crew_->stopping = true;
  crew_->start.arrive_and_wait();
  for (std::thread& t : crew_->helpers) t.join();
}

int StepThreads::size() const { return 1 + static_cast<int>(crew_->helpers.size()); }

void StepThreads::run(const std::function<void(int)>& job) {
  Crew& c = *crew_;
  c.job = &job;
  c.start.arrive_and_wait();
  c.run_job(0);
  c.done.arrive_and_wait();
}

void StepThreads::phase() { crew_->phase.arrive_and_wait(); }

#else

struct StepThreads::Crew {};

StepThreads::StepThreads(int) {}
StepThreads::~StepThreads() = default;
int StepThreads::size() const { return 1; }
void StepThreads::run(const std::function<void(int)>& job) { job(0); }
void StepThreads::phase() {}

#endif

}  // namespace neuralpath::lm
