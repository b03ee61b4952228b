// The baseline the engine's benchmarks are compared with in the same run: the
// reachable set from the model's default start by a plain breadth-first search over
// a std::unordered_set, as one would write it without this library.
#pragma once

#include <absl/hash/hash.h>
#include <benchmark/benchmark.h>

#include <cstddef>
#include <unordered_set>
#include <vector>

#include "core/puzzle.hpp"

namespace statespace {

// Returns the number of positions reached.
template <Puzzle P>
std::size_t plain_unordered_set_bfs(const P& p) {
  using State = typename P::State;
  std::unordered_set<State, absl::Hash<State>> seen{p.goal()};
  std::vector<State> queue{p.goal()};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const State from = queue[i];  // the callback grows the queue, which may move its elements
    p.for_each_successor(from, [&](const State& s) {
      if (seen.insert(s).second) queue.push_back(s);
    });
  }
  benchmark::DoNotOptimize(queue.data());
  return queue.size();
}

}  // namespace statespace
