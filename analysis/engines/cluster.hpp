// The cluster of a start: how many positions its moves reach and the fewest moves to
// the nearest goal, by one breadth-first search on the calling thread. For checking
// many small spaces at once (a file of Rush Hour database rows, each a cluster of at
// most a few hundred thousand positions): the caller runs one search per task, and a
// search is a hash set and a queue, nothing of the report engines' graph, levels or
// goal views. Positions go as packed words when the model packs them (a Rush Hour
// card in 39 bits), else as states.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <concepts>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/puzzle.hpp"

namespace statespace {

struct Cluster {
  std::uint64_t positions = 0;       // reachable from the start, the start included
  std::optional<unsigned> shortest;  // moves to the nearest goal; none when no goal is reached
};

// Models whose positions from a start pack into 64-bit words.
template <class P>
concept Word64PackedPuzzle = WordPackedPuzzle<P> && std::same_as<PackedWord<typename P::Packing>, std::uint64_t>;

namespace detail {

// The search from `start` over values of type T (packed words or states):
// `successors(t, f)` calls f on each successor of t, `is_goal(t)` is asked only until
// the first goal is found, level by level.
template <class T, class Successors, class GoalTest>
Cluster cluster_search(const T& start, const Successors& successors, const GoalTest& is_goal) {
  Cluster c;
  absl::flat_hash_set<T> seen{start};
  std::vector<T> queue{start};
  std::size_t level_end = queue.size();
  unsigned depth = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    if (i == level_end) {
      level_end = queue.size();
      ++depth;
    }
    const T t = queue[i];
    if (!c.shortest && is_goal(t)) c.shortest = depth;
    successors(t, [&](const T& next) {
      if (seen.insert(next).second) queue.push_back(next);
    });
  }
  c.positions = queue.size();
  return c;
}

}  // namespace detail

template <GoalPredicatePuzzle P>
Cluster cluster_of(const P& p, const typename P::State& start) {
  if constexpr (Word64PackedPuzzle<P>) {
    if (const auto k = p.packing(start)) {
      std::vector<std::uint64_t> next(std::size_t(k->moves()));
      const auto successors = [&](std::uint64_t w, const auto& f) {
        const int n = k->successors(w, next.data());
        for (int j = 0; j < n; ++j) f(next[std::size_t(j)]);
      };
      return detail::cluster_search(k->pack(start), successors, [&](std::uint64_t w) {
        if constexpr (GoalTestingPacking<typename P::Packing>) {
          return k->is_goal(w);
        } else {
          return p.is_goal(k->unpack(w));
        }
      });
    }
  }
  return detail::cluster_search(
      start, [&](const typename P::State& s, const auto& f) { p.for_each_successor(s, f); },
      [&](const typename P::State& s) { return p.is_goal(s); });
}

}  // namespace statespace
