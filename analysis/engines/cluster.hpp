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

// The search over `start`'s packed words: `is_goal` tests a word, and is asked only
// until the first goal is found, level by level.
template <class Packing, class GoalTest>
Cluster cluster_of_words(const Packing& k, std::uint64_t start, const GoalTest& is_goal) {
  Cluster c;
  absl::flat_hash_set<std::uint64_t> seen{start};
  std::vector<std::uint64_t> queue{start};
  std::vector<std::uint64_t> next(std::size_t(k.moves()));
  std::size_t level_end = queue.size();
  unsigned depth = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    if (i == level_end) {
      level_end = queue.size();
      ++depth;
    }
    const std::uint64_t w = queue[i];
    if (!c.shortest && is_goal(w)) c.shortest = depth;
    const int n = k.successors(w, next.data());
    for (int j = 0; j < n; ++j) {
      if (seen.insert(next[std::size_t(j)]).second) queue.push_back(next[std::size_t(j)]);
    }
  }
  c.positions = queue.size();
  return c;
}

}  // namespace detail

template <GoalPredicatePuzzle P>
Cluster cluster_of(const P& p, const typename P::State& start) {
  if constexpr (Word64PackedPuzzle<P>) {
    if (const auto k = p.packing(start)) {
      return detail::cluster_of_words(*k, k->pack(start), [&](std::uint64_t w) {
        if constexpr (GoalTestingPacking<typename P::Packing>) {
          return k->is_goal(w);
        } else {
          return p.is_goal(k->unpack(w));
        }
      });
    }
  }
  Cluster c;
  absl::flat_hash_set<typename P::State> seen{start};
  std::vector<typename P::State> queue{start};
  std::size_t level_end = queue.size();
  unsigned depth = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    if (i == level_end) {
      level_end = queue.size();
      ++depth;
    }
    const typename P::State s = queue[i];
    if (!c.shortest && p.is_goal(s)) c.shortest = depth;
    p.for_each_successor(s, [&](const typename P::State& t) {
      if (seen.insert(t).second) queue.push_back(t);
    });
  }
  c.positions = queue.size();
  return c;
}

}  // namespace statespace
