// The fast path of `--lookup ranked`: the reachable set of a start as a rank
// bitset, by a level-synchronous breadth-first search whose frontier is split
// across oneTBB workers (the scheme of parallel_bfs in analysis/engines/explicit/bfs.hpp, on the
// implicit graph), with the lock-free visited set of analysis/engines/common/level_bits.hpp.
// Permutation puzzles take the tuned kernel of analysis/engines/explicit/permutation_enumerate.hpp;
// the other models (NO-OFF, oshidori: a few hundred states) this plain one.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>

#include <concepts>
#include <cstdint>
#include <vector>

#include "analysis/engines/common/level_bits.hpp"
#include "analysis/engines/explicit/permutation_enumerate.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// The reachable set of `start`. `order`, when given, receives every rank level by
// level (and, for permutation puzzles, their degrees).
template <RankedPuzzle P>
RankedEnumeration enumerate_ranked(const P& p, const typename P::State& start, Progress* progress = nullptr,
                                   LevelOrder* order = nullptr) {
  if constexpr (PermutationRanked<P>) {
    return enumerate_permutation(p, start, progress, order);
  } else {
    using State = typename P::State;
    constexpr std::size_t kGrain = 512;
    struct Local {
      LevelBits::Words seen;
      std::vector<State> found;
      std::uint64_t lookups = 0;
    };
    LevelBits bits(p.rank_space());
    tbb::enumerable_thread_specific<Local> locals;
    bits.visit(p.rank(start));
    std::vector<State> frontier{start};
    RankedEnumeration e{{}, {1}, 0};
    if (order) order->ranks.push_back(p.rank(start));
    std::uint64_t total = 1;
    while (true) {
      const auto expand = [&](const tbb::blocked_range<std::size_t>& range, Local& local, std::uint64_t* marks) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          p.for_each_successor(frontier[i], [&](const State& s) {
            ++local.lookups;
            if (bits.claim(marks, p.rank(s))) local.found.push_back(s);
          });
        }
      };
      const auto drop = [&](Local& worker, const auto& marked) {
        std::erase_if(worker.found, [&](const State& s) { return marked(p.rank(s)); });
      };
      bits.run_level(locals, frontier.size(), frontier.size(), kGrain, expand, drop);
      frontier.clear();
      for (Local& local : locals) {
        frontier.insert(frontier.end(), local.found.begin(), local.found.end());
        local.found.clear();
      }
      if (frontier.empty()) break;
      if (order) {
        for (const State& s : frontier) order->ranks.push_back(p.rank(s));
      }
      e.layers.push_back(frontier.size());
      total += frontier.size();
      if (progress) progress->level(unsigned(e.layers.size() - 1), frontier.size(), total);
    }
    for (const Local& local : locals) e.lookups += local.lookups;
    e.members = std::move(bits).release();
    return e;
  }
}

}  // namespace statespace
