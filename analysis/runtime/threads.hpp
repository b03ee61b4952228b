// How many threads the engines plan for: the task arena's concurrency, capped by the
// limit `--threads` sets through tbb::global_control. The arena alone reports every
// core whatever that limit, so work cut per thread (the implicit engine's lanes, the
// ranked enumeration's bitsets) would plan for threads that never run.
#pragma once

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>

namespace statespace {

inline unsigned worker_threads() {
  const std::size_t limit = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return unsigned(std::max<std::size_t>(1, std::min(std::size_t(tbb::this_task_arena::max_concurrency()), limit)));
}

}  // namespace statespace
