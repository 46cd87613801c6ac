// step_threads_test.cpp: the trainer's kept threads: every job on its own thread once per run,
// phase() as a barrier, the same threads from run to run, and a clean stop.
#include "engine/core/lm/step_threads.h"

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

using neuralpath::lm::StepThreads;

TEST_CASE("StepThreads runs job i on thread i once per run, and phase() waits for every thread") {
  StepThreads threads(2);
  REQUIRE(threads.size() == 3);  // the caller's and two helpers
  const int n = threads.size();
  std::vector<int> written(static_cast<std::size_t>(n), -1);
  std::vector<std::thread::id> ids(static_cast<std::size_t>(n));
  std::atomic<int> wrong_reads{0}, calls{0};
  std::set<std::thread::id> helpers_seen;
  for (int run = 0; run < 500; ++run) {
    threads.run([&](int i) {
      ++calls;
      ids[static_cast<std::size_t>(i)] = std::this_thread::get_id();
      written[static_cast<std::size_t>(i)] = run;  // phase 1: each writes its own slot
      threads.phase();
      for (int other : written)  // phase 2: every slot is this run's, whoever wrote it
        if (other != run) ++wrong_reads;
      threads.phase();  // nobody starts the next run's writes while another still reads
    });
    CHECK(ids[0] == std::this_thread::get_id());  // job 0 is the caller's
    for (int i = 1; i < n; ++i) {
      CHECK(ids[static_cast<std::size_t>(i)] != std::this_thread::get_id());
      helpers_seen.insert(ids[static_cast<std::size_t>(i)]);
    }
  }
  CHECK(calls == 500 * n);
  CHECK(wrong_reads == 0);
  CHECK(helpers_seen.size() == 2);  // the same two threads served all 500 runs
}

TEST_CASE("StepThreads with no helpers runs the job on the caller, and one made and dropped stops cleanly") {
  StepThreads alone(0);
  CHECK(alone.size() == 1);
  int ran = 0;
  alone.run([&](int i) {
    CHECK(i == 0);
    alone.phase();  // nobody else to wait for
    ++ran;
  });
  CHECK(ran == 1);
  { StepThreads unused(3); }  // never given a job: its helpers still stop and join
}
