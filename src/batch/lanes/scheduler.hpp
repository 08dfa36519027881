// SPDX-License-Identifier: MIT OR Apache-2.0
// The lane scheduler shared by every lane kernel: V::lanes jobs advance side by side, a run of
// steps at a time, and a lane whose segment ends moves to its job's next segment or, when the
// job has no full step left, leaves the vectors (its state spilled to memory), is finished by
// scalar code and is refilled at once with the next job, so a batch of mixed lengths keeps the
// lanes busy. Included inside the backend's namespace (lane_kernels.hpp).
//
// An engine derives from lane_scheduler<Engine> and provides:
//   begin()             start every lane (start_lane) and load the vectors from the spill area
//   active()            lanes with a job
//   run_length()        steps until the first lane's segment ends
//   steps(k), advance(k)  k steps on every lane, then the lanes' bookkeeping
//   segment_ended(j)    lane j's segment is done
//   next_segment(j)     moves lane j to its next segment; false when the job has no step left
//   spill(), reload()   vectors to the spill area and back
//   finish_lane(j), start_lane(j)  the job leaving lane j, the next one entering it
//   after_refills()     work that waits until every lane of the round has been refilled
//   end()               work left once every lane is idle
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef LWC_SIMD_NS
#error "include lanes/scheduler.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng {

template <class Engine>
class lane_scheduler {
 public:
  void run() {
    Engine& e = static_cast<Engine&>(*this);
    e.begin();
    while (e.active() != 0) {
      const std::uint64_t k = e.run_length();
      e.steps(k);
      e.advance(k);
      bool spilled = false;
      for (std::size_t j = 0; j < Engine::N; ++j) {
        if (!e.segment_ended(j) || e.next_segment(j)) continue;
        if (!spilled) {
          e.spill();
          spilled = true;
        }
        e.finish_lane(j);
        e.start_lane(j);
      }
      if (spilled) e.reload();
      e.after_refills();
    }
    e.end();
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
